import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.ts';
import { directionIs } from '../../db/ledger-direction.ts';
import { goalEntryProblems, goalMismatches } from '../store/store-goals-reconciliation.ts';
import { STORE_LEDGER_TYPES } from '../../../shared/ledger-types.ts';

export type Discrepancy =
  | {
      kind: 'balance_mismatch';
      studentUuid: string;
      studentId: string;
      field: 'meritus' | 'estelecas' | 'totalEarned';
      stored: number;
      fromLedger: number;
    }
  | { kind: 'negative_balance'; studentUuid: string; studentId: string; field: 'meritus' | 'estelecas' | 'totalEarned'; stored: number }
  | { kind: 'invalid_entry'; entryId: string; problem: string }
  /** A turma goal whose progress is not what its contributions not given back add up to (decision 026). */
  | { kind: 'goal_mismatch'; itemId: string; name: string; raised: number; fromContributions: number }
  /** The Loja's rows disagree (decision 026): an order and its ledger rows, or an item's or a student's counter and the orders. */
  | { kind: 'store_mismatch'; id: string; problem: string };

/** Why a ledger row breaks the rules, as the query names it, and in the diagnostics' words. */
const ENTRY_PROBLEMS = {
  amount_not_positive: 'valor não positivo',
  transfer_parties: 'transferência sem remetente e destinatário distintos',
  parties_mismatch: 'partes incompatíveis com o tipo',
  reversal_mismatch: 'estorno diferente da operação estornada',
} as const;

/** What of the Loja disagrees, as the query names it, and in the diagnostics' words. */
const STORE_PROBLEMS = {
  purchase_mismatch: 'compra sem pedido, ou diferente do seu pedido',
  refund_mismatch: 'pedido devolvido cuja devolução difere dele',
  stock_mismatch: 'unidades tomadas de um item diferem dos seus pedidos',
  limit_mismatch: 'compras de um aluno no período do limite diferem dos seus pedidos',
} as const;

type BalanceRow = {
  id: string;
  student_id: string;
  meritus: number;
  estelecas: number;
  total_earned: number;
  ledger_meritus: string | number;
  ledger_estelecas: string | number;
  ledger_earned: string | number;
};

/**
 * Checks every student's stored balances against the sum of their ledger rows, and
 * every ledger row against the rules, returning each discrepancy (empty = healthy).
 * Removed students are included: their rows still count.
 */
export async function reconcile(db: Db): Promise<Discrepancy[]> {
  // A refund gives back what was spent: never earned (decision 026).
  const notStoreType = sql`type NOT IN (${sql.join(
    STORE_LEDGER_TYPES.map((type) => sql`${type}`),
    sql`, `,
  )})`;
  const balances = rowsOf<BalanceRow>(
    await db.execute(sql`
      WITH flows AS (
        SELECT to_student_id AS student, currency, amount AS delta,
               CASE WHEN currency = 'meritus' AND ${directionIs(sql`type`, 'raises')} AND ${notStoreType} THEN amount ELSE 0 END AS earned
          FROM ledger_entries WHERE to_student_id IS NOT NULL
        UNION ALL
        -- A reversal of an award (its only party the sender, decision 025) takes it back from the total earned too.
        SELECT from_student_id, currency, -amount,
               CASE WHEN currency = 'meritus' AND ${directionIs(sql`type`, 'reverses')} AND to_student_id IS NULL THEN -amount ELSE 0 END
          FROM ledger_entries WHERE from_student_id IS NOT NULL
      ), sums AS (
        SELECT student,
               COALESCE(SUM(delta) FILTER (WHERE currency = 'meritus'), 0) AS ledger_meritus,
               COALESCE(SUM(delta) FILTER (WHERE currency = 'estelecas'), 0) AS ledger_estelecas,
               COALESCE(SUM(earned), 0) AS ledger_earned
          FROM flows GROUP BY student
      )
      SELECT s.id, s.student_id, s.meritus, s.estelecas, s.total_earned,
             COALESCE(x.ledger_meritus, 0) AS ledger_meritus,
             COALESCE(x.ledger_estelecas, 0) AS ledger_estelecas,
             COALESCE(x.ledger_earned, 0) AS ledger_earned
        FROM students s LEFT JOIN sums x ON x.student = s.id
       WHERE s.meritus <> COALESCE(x.ledger_meritus, 0)
          OR s.estelecas <> COALESCE(x.ledger_estelecas, 0)
          OR s.total_earned <> COALESCE(x.ledger_earned, 0)
          OR s.meritus < 0 OR s.estelecas < 0 OR s.total_earned < 0
    `),
  );
  const found: Discrepancy[] = [];
  for (const row of balances) {
    const checks = [
      ['meritus', row.meritus, Number(row.ledger_meritus)],
      ['estelecas', row.estelecas, Number(row.ledger_estelecas)],
      ['totalEarned', row.total_earned, Number(row.ledger_earned)],
    ] as const;
    for (const [field, stored, fromLedger] of checks) {
      if (stored < 0) found.push({ kind: 'negative_balance', studentUuid: row.id, studentId: row.student_id, field, stored });
      if (stored !== fromLedger) {
        found.push({ kind: 'balance_mismatch', studentUuid: row.id, studentId: row.student_id, field, stored, fromLedger });
      }
    }
  }
  const moves = directionIs(sql`e.type`, 'moves');
  const transferParties = sql`${moves} AND (e.from_student_id IS NULL OR e.to_student_id IS NULL OR e.from_student_id = e.to_student_id)`;
  // A reversal gives back its row exactly: the same currency and amount, the parties swapped; never a reversal's.
  const reversalMismatch = sql`${directionIs(sql`e.type`, 'reverses')} AND (o.id IS NULL OR o.type = 'reversal'
    OR o.currency <> e.currency OR o.amount <> e.amount
    OR o.from_student_id IS DISTINCT FROM e.to_student_id OR o.to_student_id IS DISTINCT FROM e.from_student_id)`;
  const invalid = rowsOf<{ id: string; problem: keyof typeof ENTRY_PROBLEMS }>(
    await db.execute(sql`
      SELECT e.id, CASE
               WHEN e.amount <= 0 THEN 'amount_not_positive'
               WHEN ${transferParties} THEN 'transfer_parties'
               WHEN ${reversalMismatch} THEN 'reversal_mismatch'
               ELSE 'parties_mismatch'
             END AS problem
        FROM ledger_entries e
        LEFT JOIN ledger_entries o ON o.id = e.reverses_entry_id
       WHERE e.amount <= 0
          OR (${transferParties})
          OR (${reversalMismatch})
          OR (${directionIs(sql`e.type`, 'raises')} AND (e.from_student_id IS NOT NULL OR e.to_student_id IS NULL))
          OR (${directionIs(sql`e.type`, 'lowers')} AND (e.from_student_id IS NULL OR e.to_student_id IS NOT NULL))
    `),
  );
  for (const row of invalid) found.push({ kind: 'invalid_entry', entryId: row.id, problem: ENTRY_PROBLEMS[row.problem] });
  for (const entry of await goalEntryProblems(db)) found.push({ kind: 'invalid_entry', ...entry });
  for (const goal of await goalMismatches(db)) found.push({ kind: 'goal_mismatch', ...goal });
  for (const row of await storeMismatches(db)) found.push({ kind: 'store_mismatch', id: row.id, problem: STORE_PROBLEMS[row.problem] });
  return found;
}

/**
 * The Loja's rows against each other: every purchase row is one order's, for its student, price and currency; a
 * refunded order's refund row gives back exactly that; an item's units taken are its students' orders pending or
 * delivered, and a student's use of a limit's period the orders counted in it.
 */
async function storeMismatches(db: Db) {
  return rowsOf<{ id: string; problem: keyof typeof STORE_PROBLEMS }>(
    await db.execute(sql`
      SELECT e.id, 'purchase_mismatch' AS problem
        FROM ledger_entries e LEFT JOIN store_orders o ON o.purchase_entry_id = e.id
       WHERE e.type = 'purchase'
         AND (o.id IS NULL OR o.student_id IS DISTINCT FROM e.from_student_id OR o.price <> e.amount OR o.currency <> e.currency)
      UNION ALL
      SELECT o.id, 'refund_mismatch'
        FROM store_orders o JOIN ledger_entries e ON e.id = o.refund_entry_id
       WHERE e.type <> 'refund' OR e.to_student_id IS DISTINCT FROM o.student_id OR e.amount <> o.price OR e.currency <> o.currency
      UNION ALL
      SELECT i.id, 'stock_mismatch'
        FROM store_items i
       WHERE i.taken <> (SELECT count(*) FROM store_orders o
                          WHERE o.item_id = i.id AND o.student_id IS NOT NULL AND o.status IN ('pending', 'delivered'))
      UNION ALL
      SELECT u.item_id, 'limit_mismatch'
        FROM store_limit_uses u
       WHERE u.used <> (SELECT count(*) FROM store_orders o
                         WHERE o.item_id = u.item_id AND o.student_id = u.student_id AND o.limit_period_start = u.period_start
                           AND o.status IN ('pending', 'delivered'))`),
  );
}

/** Sum of every stored balance: changes only through administrators' operations, purchases, refunds and contributions. */
export async function totalBalances(db: Db): Promise<{ meritus: number; estelecas: number }> {
  const [row] = rowsOf<{ meritus: string | number; estelecas: string | number }>(
    await db.execute(sql`SELECT COALESCE(SUM(meritus), 0) AS meritus, COALESCE(SUM(estelecas), 0) AS estelecas FROM students`),
  );
  return { meritus: Number(row?.meritus ?? 0), estelecas: Number(row?.estelecas ?? 0) };
}
