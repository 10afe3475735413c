import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.ts';
import { directionIs } from '../../db/ledger-direction.ts';

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
  | { kind: 'invalid_entry'; entryId: string; problem: string };

/** Why a ledger row breaks the rules, as the query names it, and in the diagnostics' words. */
const ENTRY_PROBLEMS = {
  amount_not_positive: 'valor não positivo',
  transfer_parties: 'transferência sem remetente e destinatário distintos',
  parties_mismatch: 'partes incompatíveis com o tipo',
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
  const balances = rowsOf<BalanceRow>(
    await db.execute(sql`
      WITH flows AS (
        SELECT to_student_id AS student, currency, amount AS delta,
               CASE WHEN currency = 'meritus' AND ${directionIs(sql`type`, 'raises')} THEN amount ELSE 0 END AS earned
          FROM ledger_entries WHERE to_student_id IS NOT NULL
        UNION ALL
        SELECT from_student_id, currency, -amount, 0
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
  const moves = directionIs(sql`type`, 'moves');
  const transferParties = sql`${moves} AND (from_student_id IS NULL OR to_student_id IS NULL OR from_student_id = to_student_id)`;
  const invalid = rowsOf<{ id: string; problem: keyof typeof ENTRY_PROBLEMS }>(
    await db.execute(sql`
      SELECT id, CASE
               WHEN amount <= 0 THEN 'amount_not_positive'
               WHEN ${transferParties} THEN 'transfer_parties'
               ELSE 'parties_mismatch'
             END AS problem
        FROM ledger_entries
       WHERE amount <= 0
          OR (${transferParties})
          OR (${directionIs(sql`type`, 'raises')} AND (from_student_id IS NOT NULL OR to_student_id IS NULL))
          OR (${directionIs(sql`type`, 'lowers')} AND (from_student_id IS NULL OR to_student_id IS NOT NULL))
    `),
  );
  for (const row of invalid) found.push({ kind: 'invalid_entry', entryId: row.id, problem: ENTRY_PROBLEMS[row.problem] });
  return found;
}

/** Sum of every stored balance: changes only through administrators' operations. */
export async function totalBalances(db: Db): Promise<{ meritus: number; estelecas: number }> {
  const [row] = rowsOf<{ meritus: string | number; estelecas: string | number }>(
    await db.execute(sql`SELECT COALESCE(SUM(meritus), 0) AS meritus, COALESCE(SUM(estelecas), 0) AS estelecas FROM students`),
  );
  return { meritus: Number(row?.meritus ?? 0), estelecas: Number(row?.estelecas ?? 0) };
}
