import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.ts';

/**
 * What reconciliation checks of turma goals (decision 026), beside every balance against its rows: each `contribution`
 * row is one contribution's, as the record says (student, amount); each refund of a contribution gives it back exactly
 * (a `refund` row to the same student, same currency and amount), and every refund gives back an order or a contribution;
 * and each goal's progress is what its contributions
 * not given back add up to (none once it was given back).
 */
export const GOAL_ENTRY_PROBLEMS = {
  contribution_unrecorded: 'contribuição sem registro de meta da turma',
  contribution_mismatch: 'contribuição diferente do seu registro na meta da turma',
  goal_refund_mismatch: 'devolução diferente da contribuição que devolve',
  refund_unexplained: 'devolução sem pedido nem contribuição que ela devolva',
} as const;

export type GoalEntryProblem = { entryId: string; problem: (typeof GOAL_ENTRY_PROBLEMS)[keyof typeof GOAL_ENTRY_PROBLEMS] };
export type GoalMismatch = { itemId: string; name: string; raised: number; fromContributions: number };

/** The ledger rows of contributions and their refunds that break the rules, by the row. */
export async function goalEntryProblems(db: Db): Promise<GoalEntryProblem[]> {
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
export async function goalMismatches(db: Db): Promise<GoalMismatch[]> {
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
