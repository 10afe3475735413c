import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.ts';
import { directionIs } from '../../db/ledger-direction.ts';
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

/**
 * What reconciliation checks of turma goals (decision 026), beside every balance against its rows: each `contribution`
 * row is one contribution's, as the record says (student, amount); each refund of a contribution gives it back exactly
 * (a `refund` row to the same student, same currency and amount), and every refund gives back an order or a contribution;
 * and each goal's progress is what its contributions
 * not given back add up to (none once it was given back).
 */
const GOAL_ENTRY_PROBLEMS = {
  contribution_unrecorded: 'contribuição sem registro de meta da turma',
  contribution_mismatch: 'contribuição diferente do seu registro na meta da turma',
  goal_refund_mismatch: 'devolução diferente da contribuição que devolve',
  refund_unexplained: 'devolução sem pedido nem contribuição que ela devolva',
} as const;

type GoalEntryProblem = { entryId: string; problem: (typeof GOAL_ENTRY_PROBLEMS)[keyof typeof GOAL_ENTRY_PROBLEMS] };
type GoalMismatch = { itemId: string; name: string; raised: number; fromContributions: number };

/** The ledger rows of contributions and their refunds that break the rules, by the row. */
async function goalEntryProblems(db: Db): Promise<GoalEntryProblem[]> {
  const rows = rowsOf<{ id: string; problem: keyof typeof GOAL_ENTRY_PROBLEMS }>(
    await db.execute(sql`
      SELECT e.id, 'contribution_unrecorded' AS problem
        FROM ledger_entries e
       WHERE e.type = 'contribution' AND NOT EXISTS (SELECT 1 FROM store_goal_contributions c WHERE c.entry_id = e.id)
      UNION ALL
      SELECT c.entry_id, 'contribution_mismatch'
        FROM store_goal_contributions c JOIN ledger_entries e ON e.id = c.entry_id
       WHERE e.type <> 'contribution' OR e.amount <> c.amount OR e.from_student_id IS DISTINCT FROM c.student_id
      UNION ALL
      SELECT c.refund_entry_id, 'goal_refund_mismatch'
        FROM store_goal_contributions c
        JOIN ledger_entries e ON e.id = c.entry_id
        JOIN ledger_entries r ON r.id = c.refund_entry_id
       WHERE r.type <> 'refund' OR r.amount <> e.amount OR r.currency <> e.currency
          OR r.to_student_id IS DISTINCT FROM e.from_student_id OR r.from_student_id IS NOT NULL
          OR EXISTS (SELECT 1 FROM store_orders o WHERE o.refund_entry_id = r.id)
      UNION ALL
      SELECT e.id, 'refund_unexplained'
        FROM ledger_entries e
       WHERE e.type = 'refund'
         AND NOT EXISTS (SELECT 1 FROM store_orders o WHERE o.refund_entry_id = e.id)
         AND NOT EXISTS (SELECT 1 FROM store_goal_contributions c WHERE c.refund_entry_id = e.id)`),
  );
  return rows.map((row) => ({ entryId: row.id, problem: GOAL_ENTRY_PROBLEMS[row.problem] }));
}

/** The goals whose progress is not what their contributions not given back add up to. */
async function goalMismatches(db: Db): Promise<GoalMismatch[]> {
  const rows = rowsOf<{ item_id: string; name: string; raised: number; from_contributions: number | string }>(
    await db.execute(sql`
      SELECT p.item_id, i.name, p.raised, coalesce(sum(c.amount) FILTER (WHERE c.refund_entry_id IS NULL), 0) AS from_contributions
        FROM store_goal_progress p
        JOIN store_items i ON i.id = p.item_id
        LEFT JOIN store_goal_contributions c ON c.item_id = p.item_id
       GROUP BY p.item_id, i.name, p.raised
      HAVING p.raised <> coalesce(sum(c.amount) FILTER (WHERE c.refund_entry_id IS NULL), 0)
       ORDER BY i.name`),
  );
  return rows.map((row) => ({
    itemId: row.item_id,
    name: row.name,
    raised: row.raised,
    fromContributions: Number(row.from_contributions),
  }));
}

/** Sum of every stored balance: changes only through administrators' operations, purchases, refunds and contributions. */
export async function totalBalances(db: Db): Promise<{ meritus: number; estelecas: number }> {
  const [row] = rowsOf<{ meritus: string | number; estelecas: string | number }>(
    await db.execute(sql`SELECT COALESCE(SUM(meritus), 0) AS meritus, COALESCE(SUM(estelecas), 0) AS estelecas FROM students`),
  );
  return { meritus: Number(row?.meritus ?? 0), estelecas: Number(row?.estelecas ?? 0) };
}
