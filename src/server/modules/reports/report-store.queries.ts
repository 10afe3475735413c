import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../../db/client.ts';
import type { Currency } from '../../../shared/ledger-types.ts';
import type { StoreCategory } from '../../../shared/store.ts';
import type { StoreSpending } from '../../../shared/reports.ts';
import { studentInScope, turmaInScope, type TurmaScope } from '../../views/turma-scope.ts';

/**
 * What the Loja took in (decision 026), for the reports and the dashboard's card: spending by item, the items sold out and
 * the orders still to deliver, over the students of a scope. Each of the Loja's ledger rows is found by what it names: a
 * purchase and its refund by their order (store_orders.purchase_entry_id, refund_entry_id), a contribution and its refund by
 * the contribution (store_goal_contributions). Counted on the ledger rows' own dates, as the reports' sums count them, so a
 * period's items add up to its 'gastos na Loja' and a refund gives its purchase's spending back on the day it is made.
 * A row counts in its student's turma, as the sums do.
 */

type ItemRow = {
  item_id: string;
  name: string;
  category: StoreCategory;
  currency: Currency;
  units: number | string;
  spent: number | string;
  refunded: number | string;
  stock: number | null;
  taken: number;
  pending: number | string;
  sold_out_at: string | Date | null;
};

/** A turma goal's order names no student: it is of the scope when the goal is for a turma of it, or for every turma. */
function goalOrderInScope(itemId: SQL, turmas: TurmaScope): SQL {
  if (turmas === null) return sql`TRUE`;
  return sql`(NOT EXISTS (SELECT 1 FROM store_item_turmas it WHERE it.item_id = ${itemId})
              OR EXISTS (SELECT 1 FROM store_item_turmas it WHERE it.item_id = ${itemId} AND ${turmaInScope(sql`it.turma_id`, turmas)}))`;
}

/**
 * The Loja between two instants (`from` included, `to` excluded) over the students of `turmas`: per item with anything in
 * the period, pending or sold out, what was spent and refunded and the units bought; the items sold out now; the orders
 * pending now. Orders and contributions are read by their tables' indexes; their ledger rows by primary key.
 */
export async function storeSpending(db: DbOrTx, { from, to, turmas }: { from: SQL; to: SQL; turmas: TurmaScope }): Promise<StoreSpending> {
  const inScope = (student: SQL) => studentInScope(student, turmas);
  const within = (at: SQL) => sql`${at} >= ${from} AND ${at} < ${to}`;
  const items = rowsOf<ItemRow>(
    await db.execute(sql`
      WITH moved AS (
        SELECT o.item_id, e.amount AS spent, 0 AS refunded, 1 AS units
          FROM store_orders o JOIN ledger_entries e ON e.id = o.purchase_entry_id
         WHERE o.student_id IS NOT NULL AND ${within(sql`e.created_at`)} AND ${inScope(sql`o.student_id`)}
        UNION ALL
        SELECT o.item_id, -e.amount, e.amount, -1
          FROM store_orders o JOIN ledger_entries e ON e.id = o.refund_entry_id
         WHERE ${within(sql`e.created_at`)} AND ${inScope(sql`o.student_id`)}
        UNION ALL
        SELECT c.item_id, e.amount, 0, 0
          FROM store_goal_contributions c JOIN ledger_entries e ON e.id = c.entry_id
         WHERE ${within(sql`e.created_at`)} AND ${inScope(sql`c.student_id`)}
        UNION ALL
        SELECT c.item_id, -e.amount, e.amount, 0
          FROM store_goal_contributions c JOIN ledger_entries e ON e.id = c.refund_entry_id
         WHERE ${within(sql`e.created_at`)} AND ${inScope(sql`c.student_id`)}
      ),
      pending AS (
        SELECT o.item_id, count(*) AS pending
          FROM store_orders o
         WHERE o.status = 'pending'
           AND CASE WHEN o.student_id IS NULL THEN ${goalOrderInScope(sql`o.item_id`, turmas)} ELSE ${inScope(sql`o.student_id`)} END
         GROUP BY o.item_id
      ),
      sums AS (SELECT item_id, sum(spent) AS spent, sum(refunded) AS refunded, sum(units) AS units FROM moved GROUP BY item_id)
      SELECT i.id AS item_id, i.name, i.category, i.currency, coalesce(s.units, 0) AS units, coalesce(s.spent, 0) AS spent,
             coalesce(s.refunded, 0) AS refunded, i.stock, i.taken, coalesce(p.pending, 0) AS pending,
             CASE WHEN i.stock IS NOT NULL AND i.taken >= i.stock THEN
               (SELECT max(o.created_at) FROM store_orders o WHERE o.item_id = i.id AND o.status IN ('pending', 'delivered')) END AS sold_out_at
        FROM store_items i
        LEFT JOIN sums s ON s.item_id = i.id
        LEFT JOIN pending p ON p.item_id = i.id
       WHERE s.item_id IS NOT NULL OR p.item_id IS NOT NULL
          OR (i.active AND i.stock IS NOT NULL AND i.taken >= i.stock AND ${goalOrderInScope(sql`i.id`, turmas)})
       ORDER BY coalesce(s.spent, 0) DESC, coalesce(s.units, 0) DESC, i.position, i.name`),
  );
  const [open] = rowsOf<{ count: number | string; meritus: number | string; estelecas: number | string; oldest: string | Date | null }>(
    await db.execute(sql`
      SELECT count(*) AS count, coalesce(sum(o.price) FILTER (WHERE o.currency = 'meritus'), 0) AS meritus,
             coalesce(sum(o.price) FILTER (WHERE o.currency = 'estelecas'), 0) AS estelecas, min(o.created_at) AS oldest
        FROM store_orders o
       WHERE o.status = 'pending'
         AND CASE WHEN o.student_id IS NULL THEN ${goalOrderInScope(sql`o.item_id`, turmas)} ELSE ${inScope(sql`o.student_id`)} END`),
  );
  const iso = (at: string | Date | null) => (at === null ? null : new Date(at).toISOString());
  const list = items.map((row) => ({
    itemId: row.item_id,
    name: row.name,
    category: row.category,
    currency: row.currency,
    units: Number(row.units),
    spent: Number(row.spent),
    refunded: Number(row.refunded),
    stockLeft: row.stock === null ? null : Math.max(0, Number(row.stock) - Number(row.taken)),
    pendingOrders: Number(row.pending),
    soldOutAt: iso(row.sold_out_at),
  }));
  return {
    items: list,
    soldOut: list.filter((item) => item.stockLeft === 0),
    openOrders: {
      count: Number(open?.count ?? 0),
      meritus: Number(open?.meritus ?? 0),
      estelecas: Number(open?.estelecas ?? 0),
      oldestAt: iso(open?.oldest ?? null),
    },
  };
}
