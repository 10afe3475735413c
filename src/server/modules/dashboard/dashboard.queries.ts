import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.ts';
import { awardIs } from '../../db/ledger-direction.ts';
import { eitherStudentInScope, turmaInScope, type TurmaScope } from '../../views/turma-scope.ts';

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
  awarded_month: number;
  awarded_in_period: number;
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
 * students who exist now. Awards count in the period's days (up to `now`), operations before them (the period's own are
 * the chart's, operationsPerDay: one scan of its rows, not two).
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
            AND created_at >= ${dayStart(days.weekFrom, timeZone)} AND created_at <= ${nowIso}::timestamptz) AS transactions_week,
        (SELECT coalesce(sum(sign * amount), 0) FROM ledger_counted
          WHERE currency = 'meritus' AND ${awardIs(sql`type`, 'raises')} AND ${entryOfScope(scope)}
            AND created_at >= (date_trunc('month', ${nowIso}::timestamptz AT TIME ZONE ${timeZone}) AT TIME ZONE ${timeZone})
            AND created_at <= ${nowIso}::timestamptz) AS awarded_month,
        (SELECT coalesce(sum(sign * amount), 0) FROM ledger_counted
          WHERE currency = 'meritus' AND ${awardIs(sql`type`, 'raises')} AND ${entryOfScope(scope)}
            AND created_at >= ${span.from} AND created_at < ${span.to}) AS awarded_in_period
    `),
  );
  const numbers = {} as Figures;
  for (const key of Object.keys(row ?? {}) as (keyof Figures)[]) numbers[key] = Number(row![key]);
  return numbers;
}

/** Méritus operations (of the scope's students) per calendar day (YYYY-MM-DD) of the period's days, up to `now`; days without any are absent. */
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
      SELECT to_char((created_at AT TIME ZONE ${timeZone})::date, 'YYYY-MM-DD') AS day, count(*) AS n
        FROM ledger_entries
       WHERE currency = 'meritus' AND ${entryOfScope(scope)} AND created_at >= ${span.from} AND created_at < ${span.to}
       GROUP BY 1
    `),
  );
  return new Map(rows.map((r) => [r.day, Number(r.n)]));
}
