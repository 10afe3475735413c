import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.ts';
import { eitherStudentInScope, turmaInScope, type TurmaScope } from '../../views/turma-scope.ts';
import { timelineSums } from '../reports/reports.queries.ts';

/** A ledger row of the scope's students (the alias-free columns of ledger_entries). */
const entryOfScope = (scope: TurmaScope) => eitherStudentInScope(sql`from_student_id`, sql`to_student_id`, scope);

/** The dashboard's reads in SQL: figures only. Days and months are the school's calendar (its time zone). */

const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

type Figures = {
  total: number;
  total_then: number;
  circulation: number;
  net_since_week: number;
  with_balance: number;
  active: number;
  active_before: number;
  transactions_before: number;
  /** Over the last 7 days whatever the period: the weekly goal's. */
  transactions_week: number;
};

/** The period's days as bounds of a query: from its first day's start (the school's calendar) to its last day's end, or `now`. */
export function spanBounds(days: { from: string; to: string }, timeZone: string, now: Date): { from: SQL; to: SQL } {
  return {
    from: dayStart(days.from, timeZone),
    to: sql`LEAST((${days.to}::date + 1)::timestamp AT TIME ZONE ${timeZone}, ${new Date(now.getTime() + 1).toISOString()}::timestamptz)`,
  };
}

const dayStart = (day: string, timeZone: string) => sql`(${day}::date::timestamp AT TIME ZONE ${timeZone})`;

/** The days a dashboard's figures cover, the first of the days of equal length before them, and the weekly goal's first day. */
export type FigureDays = { from: string; to: string; previousFrom: string; weekFrom: string };

/**
 * Every figure of the dashboard in one round trip, over the students of the scope (a teacher's turmas) and the ledger
 * rows that name them. Balances "then" are derived from today's balances minus what the ledger changed since, for the
 * students who exist now. Operations count before the period's days (the period's own are the chart's, operationsPerDay:
 * one scan of its rows, not two); the Méritus awarded are the reports' (`awardedIn`).
 */
export async function dashboardFigures(db: Db, scope: TurmaScope, timeZone: string, now: Date, days: FigureDays): Promise<Figures> {
  const span = spanBounds(days, timeZone, now);
  const at = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const nowIso = now.toISOString();
  const [row] = rowsOf<Record<keyof Figures, string | number>>(
    await db.execute(sql`
      WITH current_students AS (
        SELECT id, meritus, last_login FROM students WHERE deleted_at IS NULL AND ${turmaInScope(sql`turma_id`, scope)}
      )
      SELECT
        (SELECT count(*) FROM current_students) AS total,
        (SELECT count(*) FROM students
          WHERE created_at <= ${at(30 * DAY)}::timestamptz
            AND (deleted_at IS NULL OR deleted_at > ${at(30 * DAY)}::timestamptz)
            AND ${turmaInScope(sql`turma_id`, scope)}) AS total_then,
        (SELECT coalesce(sum(meritus), 0) FROM current_students) AS circulation,
        (SELECT coalesce(sum(CASE WHEN t.id IS NOT NULL THEN e.amount ELSE 0 END)
                       - sum(CASE WHEN f.id IS NOT NULL THEN e.amount ELSE 0 END), 0)
           FROM ledger_entries e
           LEFT JOIN current_students t ON t.id = e.to_student_id
           LEFT JOIN current_students f ON f.id = e.from_student_id
          WHERE e.currency = 'meritus'
            AND e.created_at > ${at(7 * DAY)}::timestamptz AND e.created_at <= ${nowIso}::timestamptz) AS net_since_week,
        (SELECT count(*) FROM current_students WHERE meritus > 0) AS with_balance,
        (SELECT count(*) FROM current_students
          WHERE last_login > ${at(DAY)}::timestamptz AND last_login <= ${nowIso}::timestamptz) AS active,
        (SELECT count(DISTINCT a.actor_id) FROM audit_log a JOIN current_students s ON s.id = a.actor_id
          WHERE a.action = 'login.success' AND a.actor_kind = 'student'
            AND a.at > ${at(2 * DAY)}::timestamptz AND a.at <= ${at(DAY)}::timestamptz) AS active_before,
        (SELECT count(*) FROM ledger_entries
          WHERE currency = 'meritus' AND ${entryOfScope(scope)}
            AND created_at >= ${dayStart(days.previousFrom, timeZone)} AND created_at < ${span.from}) AS transactions_before,
        (SELECT count(*) FROM ledger_entries
          WHERE currency = 'meritus' AND ${entryOfScope(scope)}
            AND created_at >= ${dayStart(days.weekFrom, timeZone)} AND created_at <= ${nowIso}::timestamptz) AS transactions_week
    `),
  );
  const numbers = {} as Figures;
  for (const key of Object.keys(row ?? {}) as (keyof Figures)[]) numbers[key] = Number(row![key]);
  return numbers;
}

/**
 * Méritus operations (of the scope's students) per calendar day (YYYY-MM-DD) of the period's days, up to `now`; days without
 * any are absent. Grouped on the date, then written as text once a day: to_char on every row doubled a year's time.
 */
export async function operationsPerDay(
  db: Db,
  scope: TurmaScope,
  timeZone: string,
  days: { from: string; to: string },
  now: Date,
): Promise<Map<string, number>> {
  const span = spanBounds(days, timeZone, now);
  const rows = rowsOf<{ day: string; n: string | number }>(
    await db.execute(sql`
      SELECT to_char(day, 'YYYY-MM-DD') AS day, n FROM (
        SELECT (created_at AT TIME ZONE ${timeZone})::date AS day, count(*) AS n
          FROM ledger_entries
         WHERE currency = 'meritus' AND ${entryOfScope(scope)} AND created_at >= ${span.from} AND created_at < ${span.to}
         GROUP BY 1
      ) AS days
    `),
  );
  return new Map(rows.map((r) => [r.day, Number(r.n)]));
}

/**
 * The Méritus awarded (less the awards taken back) to the scope's students in the days, as the reports count them: from the
 * day sums and the rows near the bounds (timelineSums, one bucket; decision 011), not by reading every award of the days
 * and the row each reversal takes back (0.2–0.4 s for a bimestre or a year on 1,000,000 rows, decision 036).
 */
export async function awardedIn(db: Db, scope: TurmaScope, timeZone: string, days: { from: string; to: string }): Promise<number> {
  const sums = await timelineSums(
    db,
    {
      period: { previousFrom: days.from, from: days.from, to: days.to },
      school: { timeZone },
      turmas: scope?.map((id) => ({ id })) ?? null,
      authorId: null,
    },
    [days.from],
  );
  return sums.get(1)?.awarded ?? 0;
}
