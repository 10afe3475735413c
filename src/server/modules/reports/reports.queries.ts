import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db, type DbOrTx } from '../../db/client.ts';
import { awardIs, directionIs, spendingSign } from '../../db/ledger-direction.ts';
import type { TagKind } from '../../../shared/constants.ts';
import type { Currency } from '../../../shared/ledger-types.ts';
import type { LedgerType } from '../../../shared/ledger-types.ts';
import { addDays, REPORT_TOP_LIMIT } from '../../../shared/reports.ts';
import type { ReportScope } from './report-school.ts';
import { studentInScope, turmaInScope } from '../../views/turma-scope.ts';
import { nameOrderOf } from '../../views/name-order.ts';

/** The reports' reads in SQL, over the ledger and its sums (decision 011): figures and codes, never text for the screen. */

/** The instant a calendar day starts in the school's time zone, as SQL. */
function dayStart(day: string, timeZone: string): SQL {
  return sql`(${day}::date::timestamp AT TIME ZONE ${timeZone})`;
}

/** What the sums read of a report's scope: its days, the school's time zone and the chosen turmas (null: every one). */
export type SumsScope = {
  period: Pick<ReportScope['period'], 'previousFrom' | 'from' | 'to'>;
  school: Pick<ReportScope['school'], 'timeZone'>;
  turmas: readonly Pick<NonNullable<ReportScope['turmas']>[number], 'id'>[] | null;
};

/** What the timeline's sums read of a scope: the sums' own, and the member of the staff whose operations count (null: everyone's). */
export type TimelineScope = SumsScope & Pick<ReportScope, 'authorId'>;

/** The period's bounds: previous start, start, end (exclusive). */
export function bounds(scope: SumsScope) {
  const { period, school } = scope;
  return {
    p0: dayStart(period.previousFrom, school.timeZone),
    p1: dayStart(period.from, school.timeZone),
    p2: dayStart(addDays(period.to, 1), school.timeZone),
  };
}

/** The chosen turmas' ids (null: every turma). */
export const chosenIds = (scope: Pick<SumsScope, 'turmas'>) => scope.turmas?.map((turma) => turma.id) ?? null;

/** Whether a turma id (a student's, or a sum's) is one of the chosen turmas; TRUE when every turma is. */
function inTurmas(scope: Pick<SumsScope, 'turmas'>, turmaColumn: SQL): SQL {
  return turmaInScope(turmaColumn, chosenIds(scope));
}

/**
 * The turma a report places a student `s` in: the one they had when the school year of the period's last day closed
 * (the rollover keeps it, decision 036), so a closed year's figures by turma stay that year's; else their current one.
 */
function turmaAtEnd(scope: SumsScope): SQL {
  return sql`COALESCE(${turmaAtClose(scope)}, s.turma_id)`;
}

/** The turma the rollover kept for student `s` when the year of the period's last day closed; NULL while it is open. */
function turmaAtClose(scope: SumsScope): SQL {
  return sql`(SELECT y.turma_id FROM student_year_turmas y
               WHERE y.student_id = s.id
                 AND y.year_id = (SELECT sy.id FROM school_years sy
                                   WHERE ${scope.period.to}::date BETWEEN sy.start_date AND sy.end_date))`;
}

/** Rows of the chosen turmas: a row's student is its sender (transfers, removals) or its recipient (awards). */
function turmaFilter(scope: Pick<SumsScope, 'turmas'>, studentColumn: SQL): SQL {
  return studentInScope(studentColumn, chosenIds(scope));
}

/**
 * A query's rows as one json array: PGlite converts each value of a result row by row, which
 * cost ~100 ms for the overview's few thousand rows, far more than the query (benchmark).
 */
async function jsonRows<T>(db: Db, query: SQL): Promise<T[]> {
  const [row] = rowsOf<{ rows: T[] }>(await db.execute(sql`SELECT coalesce(json_agg(q), '[]'::json) AS rows FROM (${query}) AS q`));
  return row!.rows;
}

/**
 * Adds the ledger's queued rows to the sums (ledger_sums_fold() in ledger.sql, decision 011):
 * each report calls it before reading them, so it counts every operation committed before it
 * was asked for. `wait: false` leaves at once when another fold is under way (the periodic one).
 */
export async function foldPendingSums(db: DbOrTx, { wait }: { wait: boolean }): Promise<number> {
  const [row] = rowsOf<{ folded: number }>(await db.execute(sql`SELECT ledger_sums_fold(${wait}) AS folded`));
  return row!.folded;
}

/** The instant's UTC midnight: ledger_student_days and ledger_turma_days hold whole UTC days (decision 011). */
const utcMidnight = (instant: SQL) => sql`((${instant} AT TIME ZONE 'UTC')::date::timestamp AT TIME ZONE 'UTC')`;

/**
 * The counted rows (ledger_counted, its column `k` the bound's position in `bounds`) before each bound that `since(bound)`
 * selects, e.g. those since the bound's UTC midnight: one scan per bound, on its own values. Joined with a list of bounds
 * instead, the planner cannot see how few rows a bound's hours hold (it guessed a ninth of the ledger per bound) and
 * hashed the whole ledger to find the rows a reversal takes back: 0.3 s on 1,000,000 rows (decision 036).
 */
function rowsBeforeBounds(bounds: SQL[], since: (bound: SQL) => SQL): SQL {
  return sql.join(
    bounds.map(
      (bound, k) => sql`SELECT ${sql.raw(String(k))} AS k, e.* FROM ledger_counted e WHERE ${since(bound)} AND e.created_at < ${bound}`,
    ),
    sql` UNION ALL `,
  );
}

/** What a student's ledger rows add up to before an instant (ledger_student_days' columns). */
const SUM_COLUMNS = [
  'm_awarded',
  'm_removed',
  'm_in',
  'm_out',
  'e_awarded',
  'e_removed',
  'e_in',
  'e_out',
  'sent_ops',
  'ops',
  'm_spent',
  'e_spent',
] as const;
export type Sums = Record<(typeof SUM_COLUMNS)[number], number>;
export const NO_SUMS: Sums = {
  m_awarded: 0,
  m_removed: 0,
  m_in: 0,
  m_out: 0,
  e_awarded: 0,
  e_removed: 0,
  e_in: 0,
  e_out: 0,
  sent_ops: 0,
  ops: 0,
  m_spent: 0,
  e_spent: 0,
};

/**
 * Each student's sums before the period before (0), the period (1) and the period's end (2):
 * the last stored UTC day before the bound's UTC day (one index look-up per student and bound),
 * plus the ledger's rows from that UTC midnight to the bound. Students without any are left out.
 * With an `author`, only their rows, all read from the ledger (the stored sums do not keep authors;
 * a staff member's rows are found by their own index), and never the Loja's: spending is the students'.
 */
export async function sumsAtBounds(
  db: Db,
  scope: SumsScope & { students?: readonly string[] },
  author: string | null = null,
): Promise<Map<string, Sums[]>> {
  if (author === null) await foldPendingSums(db, { wait: true });
  const { p0, p1, p2 } = bounds(scope);
  const columns = sql.raw(SUM_COLUMNS.join(', '));
  // As ledger_row_sides() sums the rows (ledger.sql): transfers move a balance, awards and removals raise or lower it,
  // the Loja's rows are spent (a refund negative); a reversal counts as the row it takes back, with sign -1 (the view
  // ledger_counted, decision 025).
  const transfer = directionIs(sql`e.type`, 'moves');
  const award = awardIs(sql`e.type`, 'raises');
  const removal = awardIs(sql`e.type`, 'lowers');
  const spent = sql`e.sign * ${spendingSign(sql`e.type`)} * e.amount`;
  // A few students named (the ranking's earned board following an operation): their rows only.
  const only = (student: SQL) =>
    scope.students === undefined
      ? sql`TRUE`
      : sql`${student} = ANY(${sql`ARRAY[${sql.join(
          scope.students.map((id) => sql`${id}`),
          sql`, `,
        )}]::uuid[]`})`;
  const rows = await jsonRows<Record<string, unknown>>(
    db,
    sql`
    WITH marks AS (SELECT k, at, ${utcMidnight(sql`at`)} AS midnight FROM (VALUES (0, ${p0}), (1, ${p1}), (2, ${p2})) AS v(k, at)),
    stored AS (
      SELECT s.id AS student, m.k, d.*
        FROM students s CROSS JOIN marks m
        JOIN LATERAL (SELECT ${columns} FROM ledger_student_days d
                       WHERE d.student_id = s.id AND d.day < (m.midnight AT TIME ZONE 'UTC')::date
                       ORDER BY d.day DESC LIMIT 1) AS d ON TRUE
       WHERE ${inTurmas(scope, turmaAtEnd(scope))} AND ${only(sql`s.id`)} AND ${author === null ? sql`TRUE` : sql`FALSE`}
    ),
    recent AS (
      SELECT side.student, e.k,
             sum(e.sign * e.amount) FILTER (WHERE side.incoming AND e.currency = 'meritus' AND ${award}) AS m_awarded,
             sum(e.sign * e.amount) FILTER (WHERE NOT side.incoming AND e.currency = 'meritus' AND ${removal}) AS m_removed,
             sum(e.sign * e.amount) FILTER (WHERE side.incoming AND e.currency = 'meritus' AND ${transfer}) AS m_in,
             sum(e.sign * e.amount) FILTER (WHERE NOT side.incoming AND e.currency = 'meritus' AND ${transfer}) AS m_out,
             sum(e.sign * e.amount) FILTER (WHERE side.incoming AND e.currency = 'estelecas' AND ${award}) AS e_awarded,
             sum(e.sign * e.amount) FILTER (WHERE NOT side.incoming AND e.currency = 'estelecas' AND ${removal}) AS e_removed,
             sum(e.sign * e.amount) FILTER (WHERE side.incoming AND e.currency = 'estelecas' AND ${transfer}) AS e_in,
             sum(e.sign * e.amount) FILTER (WHERE NOT side.incoming AND e.currency = 'estelecas' AND ${transfer}) AS e_out,
             coalesce(sum(e.sign) FILTER (WHERE NOT side.incoming AND ${transfer}), 0) AS sent_ops,
             sum(e.sign) AS ops,
             sum(${spent}) FILTER (WHERE e.currency = 'meritus') AS m_spent,
             sum(${spent}) FILTER (WHERE e.currency = 'estelecas') AS e_spent
        FROM (${rowsBeforeBounds([p0, p1, p2], (bound) =>
          author === null
            ? sql`e.created_at >= ${utcMidnight(bound)}`
            : sql`e.actor_admin_id = ${author} AND ${spendingSign(sql`e.type`)} = 0`,
        )}) AS e
        CROSS JOIN LATERAL (VALUES (e.to_student_id, TRUE), (e.from_student_id, FALSE)) AS side(student, incoming)
       WHERE side.student IS NOT NULL AND ${only(sql`side.student`)}
       GROUP BY 1, 2
    )
    SELECT student, k, ${sql.join(
      SUM_COLUMNS.map((column) => sql`coalesce(sum(${sql.raw(column)}), 0)::bigint AS ${sql.raw(column)}`),
      sql`, `,
    )}
      FROM (SELECT student, k, ${columns} FROM stored UNION ALL SELECT student, k, ${columns} FROM recent) AS parts
     GROUP BY student, k`,
  );
  const sums = new Map<string, Sums[]>();
  for (const row of rows) {
    const student = String(row.student);
    const marks = sums.get(student) ?? [NO_SUMS, NO_SUMS, NO_SUMS];
    marks[Number(row.k)] = Object.fromEntries(SUM_COLUMNS.map((column) => [column, Number(row[column])])) as Sums;
    sums.set(student, marks);
  }
  return sums;
}

/**
 * A student of the chosen turmas: whether they existed by the period's end, and were present at its end and at its start.
 * A student the rollover kept at the close of the period's year (a graduate too) was there to its end, even when the
 * rollover ran before the year's last day.
 */
export type ScopeStudent = {
  id: string;
  student_id: string;
  name: string;
  turma_id: string;
  /** The turma's name. */
  grade: string;
  created: boolean;
  present: boolean;
  present_before: boolean;
};

export function scopeStudents(db: Db, scope: ReportScope): Promise<ScopeStudent[]> {
  const { p1, p2 } = bounds(scope);
  return jsonRows<ScopeStudent>(
    db,
    sql`
      SELECT s.id, s.student_id, s.name, g.turma_id, t.name AS grade, s.created_at < ${p2} AS created,
             (s.created_at < ${p2} AND (s.deleted_at IS NULL OR s.deleted_at >= ${p2} OR g.kept)) AS present,
             (s.created_at < ${p1} AND (s.deleted_at IS NULL OR s.deleted_at >= ${p1} OR g.kept)) AS present_before
        FROM students s
        CROSS JOIN LATERAL (SELECT ${turmaAtClose(scope)} AS kept_turma) k
        CROSS JOIN LATERAL (SELECT COALESCE(k.kept_turma, s.turma_id) AS turma_id, k.kept_turma IS NOT NULL AS kept) g
        JOIN turmas t ON t.id = g.turma_id
       WHERE ${inTurmas(scope, sql`g.turma_id`)}`,
  );
}

export type TimelineSums = { awarded: number; removed: number; transferred: number; spent: number };

/**
 * Méritus awarded, removed, transferred and spent in the Loja per bucket (1 for the first of `starts`), for the
 * buckets with any. ledger_turma_days places each UTC day in the bucket its UTC day falls in;
 * the ledger's rows between a bucket's first instant and its UTC midnight then move to the
 * bucket they belong to.
 */
export async function timelineSums(db: Db, scope: TimelineScope, starts: string[]): Promise<Map<number, TimelineSums>> {
  const { p2 } = bounds(scope);
  // Each bucket's first instant, in order, and the period's end.
  const instants = [...starts.map((day) => dayStart(day, scope.school.timeZone)), p2];
  const thresholds = sql`ARRAY[${sql.join(instants, sql`, `)}]`;
  if (scope.authorId === null) await foldPendingSums(db, { wait: true });
  const rows = rowsOf<{
    bucket: number;
    awarded: string | number;
    removed: string | number;
    transferred: string | number;
    spent: string | number;
  }>(
    await db.execute(
      scope.authorId === null ? everyonesTimeline(scope, thresholds, instants) : authorsTimeline(scope, scope.authorId, thresholds),
    ),
  );
  return new Map(
    rows.map((row) => [
      Number(row.bucket),
      { awarded: Number(row.awarded), removed: Number(row.removed), transferred: Number(row.transferred), spent: Number(row.spent) },
    ]),
  );
}

/**
 * The timeline of one member of the staff: their rows in the period, by their own index (the stored sums keep no author);
 * the Loja's spending is the students', never an author's.
 */
function authorsTimeline(scope: TimelineScope, author: string, thresholds: SQL): SQL {
  return sql`
    SELECT width_bucket(e.created_at, th.at) AS bucket,
           sum(CASE WHEN ${awardIs(sql`e.type`, 'raises')} THEN e.sign * e.amount ELSE 0 END) AS awarded,
           sum(CASE WHEN ${awardIs(sql`e.type`, 'lowers')} THEN e.sign * e.amount ELSE 0 END) AS removed,
           0 AS transferred, 0 AS spent
      FROM (SELECT ${thresholds} AS at) AS th
      JOIN ledger_counted e ON e.actor_admin_id = ${author} AND e.created_at >= th.at[1] AND e.created_at < th.at[array_length(th.at, 1)]
     WHERE e.currency = 'meritus' AND ${turmaFilter(scope, sql`coalesce(e.from_student_id, e.to_student_id)`)}
     GROUP BY 1`;
}

/** Everyone's timeline, from the stored sums and the ledger's rows near the bounds. */
function everyonesTimeline(scope: TimelineScope, thresholds: SQL, instants: SQL[]): SQL {
  return sql`
      WITH th AS (SELECT ${thresholds} AS at),
      td AS (SELECT array_agg((t AT TIME ZONE 'UTC')::date ORDER BY n) AS day FROM th, unnest(th.at) WITH ORDINALITY AS u(t, n)),
      -- The rows before each bound since its UTC midnight, by the created_at index, before the turma
      -- filter: joined with the students first, the planner would read the whole ledger.
      near AS MATERIALIZED (
        ${rowsBeforeBounds(instants, (bound) => sql`e.currency = 'meritus' AND e.created_at >= ${utcMidnight(bound)}`)}
      ),
      edge AS (
        SELECT width_bucket(e.created_at, th.at) AS bucket, width_bucket((e.created_at AT TIME ZONE 'UTC')::date, td.day) AS day_bucket,
               CASE WHEN ${awardIs(sql`e.type`, 'raises')} THEN e.sign * e.amount ELSE 0 END AS awarded,
               CASE WHEN ${awardIs(sql`e.type`, 'lowers')} THEN e.sign * e.amount ELSE 0 END AS removed,
               CASE WHEN ${directionIs(sql`e.type`, 'moves')} THEN e.sign * e.amount ELSE 0 END AS transferred,
               e.sign * ${spendingSign(sql`e.type`)} * e.amount AS spent
          FROM th, td, near AS e
         WHERE ${turmaFilter(scope, sql`coalesce(e.from_student_id, e.to_student_id)`)}
      )
      SELECT bucket, sum(awarded) AS awarded, sum(removed) AS removed, sum(transferred) AS transferred, sum(spent) AS spent FROM (
        SELECT width_bucket(g.day, td.day) AS bucket, g.m_awarded AS awarded, g.m_removed AS removed, g.m_transferred AS transferred,
               g.m_spent AS spent
          FROM ledger_turma_days g, td
         WHERE g.day >= td.day[1] AND g.day < td.day[array_length(td.day, 1)] AND ${inTurmas(scope, sql`g.turma_id`)}
        UNION ALL SELECT bucket, awarded, removed, transferred, spent FROM edge
        UNION ALL SELECT day_bucket, -awarded, -removed, -transferred, -spent FROM edge
      ) AS parts
      GROUP BY 1`;
}

/** A row the reasons count: an award or a removal of the staff's (not a transfer, not the Loja's). */
const awardOrRemoval = (type: SQL) => sql`(${awardIs(type, 'raises')} OR ${awardIs(type, 'lowers')})`;

/** A reason (the exact text) of awards or of removals and penalties, with its operations and amounts. */
export type ReasonSums = { kind: 'award' | 'penalty'; description: string; operations: number; meritus: number; estelecas: number };

/**
 * The REPORT_TOP_LIMIT most frequent reasons of each kind in the period. ledger_reason_sums by
 * UTC days and months: the period's whole months, the days at either end, then the ledger's rows
 * from each bound's UTC midnight to the bound (added at the end, taken away at the start).
 */
export async function topReasons(db: Db, scope: ReportScope): Promise<ReasonSums[]> {
  const { p1, p2 } = bounds(scope);
  if (scope.authorId === null) await foldPendingSums(db, { wait: true });
  // One member of the staff's reasons: their rows in the period, by their own index (the stored sums keep no author).
  const authored = (author: string) => sql`
      parts AS (
        SELECT CASE WHEN ${directionIs(sql`e.type`, 'raises')} THEN 'award' ELSE 'penalty' END, btrim(e.description), e.sign,
               CASE WHEN e.currency = 'meritus' THEN e.sign * e.amount ELSE 0 END,
               CASE WHEN e.currency = 'estelecas' THEN e.sign * e.amount ELSE 0 END
          FROM ledger_counted e
         WHERE e.actor_admin_id = ${author} AND e.created_at >= ${p1} AND e.created_at < ${p2} AND ${awardOrRemoval(sql`e.type`)}
           AND ${turmaFilter(scope, sql`coalesce(e.from_student_id, e.to_student_id)`)}
      )`;
  const rows = rowsOf<{
    kind: 'award' | 'penalty';
    description: string;
    operations: string | number;
    meritus: string | number;
    estelecas: string | number;
  }>(
    await db.execute(sql`
      WITH ${scope.authorId === null ? everyonesReasonParts(scope, p1, p2) : authored(scope.authorId)}
      SELECT kind, description, operations, meritus, estelecas FROM (
        SELECT kind, description, operations, meritus, estelecas,
               row_number() OVER (PARTITION BY kind ORDER BY operations DESC, meritus DESC, estelecas DESC, ${nameOrderOf(sql`description`)}) AS rank
          FROM (SELECT kind, description, sum(ops) AS operations, sum(meritus) AS meritus, sum(estelecas) AS estelecas
                  FROM parts AS p(kind, description, ops, meritus, estelecas) GROUP BY kind, description) AS totals
         WHERE operations > 0
      ) AS ranked
      WHERE rank <= ${REPORT_TOP_LIMIT}
      ORDER BY kind, rank`),
  );
  return rows.map((row) => ({
    kind: row.kind,
    description: row.description,
    operations: Number(row.operations),
    meritus: Number(row.meritus),
    estelecas: Number(row.estelecas),
  }));
}

/** Everyone's reasons: the stored sums of the period's whole months and days, and the ledger's rows near the bounds. */
function everyonesReasonParts(scope: ReportScope, p1: SQL, p2: SQL): SQL {
  return sql`
      b AS (
        SELECT d1, d2, (date_trunc('month', d1 - 1) + interval '1 month')::date AS m1, date_trunc('month', d2)::date AS m2
          FROM (SELECT (${p1} AT TIME ZONE 'UTC')::date AS d1, (${p2} AT TIME ZONE 'UTC')::date AS d2) AS days
      ),
      near AS MATERIALIZED (
        SELECT e.id, e.created_at, e.currency, e.amount, e.type, e.from_student_id, e.to_student_id, e.description,
               CASE WHEN e.k = 0 THEN -e.sign ELSE e.sign END AS sign
          FROM (${rowsBeforeBounds([p1, p2], (bound) => sql`e.created_at >= ${utcMidnight(bound)}`)}) AS e
         WHERE ${awardOrRemoval(sql`e.type`)}
      ),
      parts AS (
        SELECT r.kind, r.description, r.ops, r.meritus, r.estelecas
          FROM b JOIN ledger_reason_sums r
            ON (r.span = 'm' AND r.start >= b.m1 AND r.start < b.m2)
            OR (r.span = 'd' AND r.start >= b.d1 AND r.start < least(b.m1, b.d2))
            OR (r.span = 'd' AND r.start >= greatest(b.m1, b.m2) AND r.start < b.d2)
         WHERE ${inTurmas(scope, sql`r.turma_id`)}
        UNION ALL
        SELECT CASE WHEN ${directionIs(sql`e.type`, 'raises')} THEN 'award' ELSE 'penalty' END, btrim(e.description), e.sign,
               CASE WHEN e.currency = 'meritus' THEN e.sign * e.amount ELSE 0 END, CASE WHEN e.currency = 'estelecas' THEN e.sign * e.amount ELSE 0 END
          FROM near AS e
         WHERE ${turmaFilter(scope, sql`coalesce(e.from_student_id, e.to_student_id)`)}
      )`;
}

/** The reversals of the period (p1 to p2) and of the period before (p0 to p1), per currency: the reports' own line of them. */
export type ReversalSums = { current: Record<Currency, number>; previous: Record<Currency, number> };

/**
 * What was reversed in the period and the one before, by the reversals' dates, in the turma the
 * reversed row counts in (its sender's, or its recipient's: a reversal's parties are swapped).
 * Reversals are few, and read alone by their partial index.
 */
export async function reversalSums(db: Db, scope: ReportScope): Promise<ReversalSums> {
  const { p0, p1, p2 } = bounds(scope);
  const rows = rowsOf<{ period: 'current' | 'previous'; currency: Currency; amount: string | number }>(
    await db.execute(sql`
      SELECT CASE WHEN created_at >= ${p1} THEN 'current' ELSE 'previous' END AS period, currency, sum(amount) AS amount
        FROM ledger_entries
       WHERE reverses_entry_id IS NOT NULL AND created_at >= ${p0} AND created_at < ${p2}
         AND ${turmaFilter(scope, sql`coalesce(to_student_id, from_student_id)`)}
       GROUP BY 1, 2`),
  );
  const sums: ReversalSums = { current: { meritus: 0, estelecas: 0 }, previous: { meritus: 0, estelecas: 0 } };
  for (const row of rows) sums[row.period][row.currency] = Number(row.amount);
  return sums;
}

// ---------------------------------------------------------------- documents

export type StatementStudent = { id: string; student_id: string; name: string; grade: string; turma_id: string };

export async function statementStudent(db: Db, studentUuid: string): Promise<StatementStudent | undefined> {
  const [student] = rowsOf<StatementStudent>(
    await db.execute(
      sql`SELECT s.id, s.student_id, s.name, t.name AS grade, s.turma_id FROM students s JOIN turmas t ON t.id = s.turma_id WHERE s.id = ${studentUuid}`,
    ),
  );
  return student;
}

export type StatementRow = {
  at: Date | string;
  currency: Currency;
  type: LedgerType;
  amount: number;
  description: string;
  incoming: boolean;
  other_name: string | null;
  /** The row's reversal, when it has one (decision 025). */
  reversed_at: Date | string | null;
  reversed_by: string | null;
  reversed_reason: string | null;
};

/** A student's balances summed from the ledger before the period, and every operation of the period, oldest first. */
export async function statementEntries(
  db: Db,
  scope: ReportScope,
  studentUuid: string,
): Promise<{ opening: Record<Currency, number>; rows: StatementRow[] }> {
  const { p1, p2 } = bounds(scope);
  const [opening] = rowsOf<{ meritus: string | number; estelecas: string | number }>(
    await db.execute(sql`
      SELECT coalesce(sum(CASE WHEN to_student_id = ${studentUuid} THEN amount ELSE -amount END) FILTER (WHERE currency = 'meritus'), 0) AS meritus,
             coalesce(sum(CASE WHEN to_student_id = ${studentUuid} THEN amount ELSE -amount END) FILTER (WHERE currency = 'estelecas'), 0) AS estelecas
        FROM ledger_entries
       WHERE (to_student_id = ${studentUuid} OR from_student_id = ${studentUuid}) AND created_at < ${p1}`),
  );
  const rows = rowsOf<StatementRow>(
    await db.execute(sql`
      SELECT e.created_at AS at, e.currency, e.type, e.amount, e.description,
             e.to_student_id = ${studentUuid} AS incoming,
             other.name AS other_name,
             r.created_at AS reversed_at, r.actor_name AS reversed_by, r.reversal_reason AS reversed_reason
        FROM ledger_entries e
        LEFT JOIN students other ON other.id = CASE WHEN e.to_student_id = ${studentUuid} THEN e.from_student_id ELSE e.to_student_id END
        LEFT JOIN ledger_entries r ON r.reverses_entry_id = e.id
       WHERE (e.to_student_id = ${studentUuid} OR e.from_student_id = ${studentUuid})
         AND e.created_at >= ${p1} AND e.created_at < ${p2}
       ORDER BY e.created_at, e.id`),
  );
  return { opening: { meritus: Number(opening?.meritus ?? 0), estelecas: Number(opening?.estelecas ?? 0) }, rows };
}

/** A weekly tag and its holder, for the certificate. */
export type CertificateTag = {
  kind: TagKind;
  assigned_at: Date | string;
  expires_at: Date | string;
  student_uuid: string;
  student_id: string;
  name: string;
  grade: string;
  turma_id: string;
};

/** A weekly tag still current at `now`, of a current student. */
export async function currentTag(db: Db, tagId: string, now: Date): Promise<CertificateTag | undefined> {
  const [tag] = rowsOf<CertificateTag>(
    await db.execute(sql`
      SELECT t.kind, t.assigned_at, t.expires_at, s.id AS student_uuid, s.student_id, s.name, g.name AS grade, s.turma_id
        FROM student_tags t JOIN students s ON s.id = t.student_id JOIN turmas g ON g.id = s.turma_id
       WHERE t.id = ${tagId} AND t.expires_at > ${now.toISOString()}::timestamptz AND s.deleted_at IS NULL`),
  );
  return tag;
}

/** The weekly tags that held during the period (a tag's last assignment: a new one replaces it), per student of the scope. */
export async function tagsInPeriod(db: Db, scope: ReportScope): Promise<Map<string, TagKind[]>> {
  const { p1, p2 } = bounds(scope);
  const rows = rowsOf<{ student: string; kind: TagKind }>(
    await db.execute(sql`
      SELECT t.student_id AS student, t.kind FROM student_tags t JOIN students s ON s.id = t.student_id
       WHERE t.assigned_at < ${p2} AND t.expires_at > ${p1} AND ${inTurmas(scope, sql`s.turma_id`)}
       ORDER BY t.kind`),
  );
  const tags = new Map<string, TagKind[]>();
  for (const row of rows) tags.set(row.student, [...(tags.get(row.student) ?? []), row.kind]);
  return tags;
}
