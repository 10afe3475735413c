import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db, type DbOrTx } from '../../db/client.ts';
import { reasonPresets } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import {
  addDays,
  BALANCE_BUCKETS,
  balanceBucketLabel,
  REPORT_TOP_LIMIT,
  resolvePeriod,
  type BalanceBucketRow,
  type ReasonRow,
  type ReportFigures,
  type ReportOverview,
  type ReportPeriodView,
  type ReportQuery,
  type ReportReasons,
  type ReportTimeline,
  type ResolvedPeriod,
  type RiserRow,
  type TimelinePoint,
  type TurmaRow,
} from '../../../shared/reports.ts';
import { reportSchool, type ReportSchool } from './report-school.ts';
import { dayIn } from '../../../shared/format.ts';

/** A report's filters resolved against the school: calendar days, instants' time zone, turmas. */
export type ReportScope = { period: ResolvedPeriod; turmas: string[]; school: ReportSchool; view: ReportPeriodView };

/** A read of a report for the filters a request sent: resolved first (reportScope), then read. */
export async function readReport<T>(db: Db, query: ReportQuery, read: (db: Db, scope: ReportScope) => Promise<T>): Promise<T> {
  return read(db, await reportScope(db, query));
}

/**
 * Resolves the query's period in the school's time zone and checks its turmas against the
 * school's list (a name the school does not have is refused, not silently matched to nothing).
 */
export async function reportScope(db: Db, query: ReportQuery, now: Date = new Date()): Promise<ReportScope> {
  const school = await reportSchool(db);
  const unknown = query.turma.find((turma) => !school.turmas.includes(turma));
  if (unknown !== undefined) {
    throw new AppError('report_unknown_turma', { message: `Turma desconhecida: ${unknown}`, fields: { turma: `Turma desconhecida: ${unknown}` } });
  }
  const turmas = [...new Set(query.turma)];
  const period = resolvePeriod(query, dayIn(school.timeZone, now));
  return { period, turmas, school, view: { ...period, turmas, availableTurmas: school.turmas } };
}

/** The instant a calendar day starts in the school's time zone, as SQL. */
function dayStart(day: string, timeZone: string): SQL {
  return sql`(${day}::date::timestamp AT TIME ZONE ${timeZone})`;
}

/** The period's bounds: previous start, start, end (exclusive). */
function bounds(scope: ReportScope) {
  const { period, school } = scope;
  return {
    p0: dayStart(period.previousFrom, school.timeZone),
    p1: dayStart(period.from, school.timeZone),
    p2: dayStart(addDays(period.to, 1), school.timeZone),
  };
}

/** Rows of the chosen turmas: a row's student is its sender (transfers, removals) or its recipient (awards). */
function turmaFilter(scope: ReportScope, studentColumn: SQL): SQL {
  if (scope.turmas.length === 0) return sql`TRUE`;
  return sql`${studentColumn} IN (SELECT id FROM students WHERE grade IN (${sql.join(
    scope.turmas.map((turma) => sql`${turma}`),
    sql`, `,
  )}))`;
}

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);
const oneDecimal = (value: number) => Math.round(value * 10) / 10;

type StudentRow = {
  id: string;
  student_id: string;
  name: string;
  grade: string;
  /** Of the chosen turmas at the end of the period / of the period before. */
  present: boolean;
  present_before: boolean;
  balance_start: number;
  balance_end: number;
  m_awarded: number;
  m_removed: number;
  m_sent: number;
  e_awarded: number;
  e_removed: number;
  sent_ops: number;
  ops: number;
  m_awarded_before: number;
  m_removed_before: number;
  m_sent_before: number;
  e_awarded_before: number;
  e_removed_before: number;
  sent_ops_before: number;
  ops_before: number;
};

/** What a student's ledger rows add up to before an instant (ledger_student_days' columns). */
const SUM_COLUMNS = ['m_awarded', 'm_removed', 'm_in', 'm_out', 'e_awarded', 'e_removed', 'e_in', 'e_out', 'sent_ops', 'ops'] as const;
type Sums = Record<(typeof SUM_COLUMNS)[number], number>;
const NO_SUMS: Sums = { m_awarded: 0, m_removed: 0, m_in: 0, m_out: 0, e_awarded: 0, e_removed: 0, e_in: 0, e_out: 0, sent_ops: 0, ops: 0 };

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

/** The instant's UTC midnight: ledger_student_days and ledger_grade_days hold whole UTC days (decision 011). */
const utcMidnight = (instant: SQL) => sql`((${instant} AT TIME ZONE 'UTC')::date::timestamp AT TIME ZONE 'UTC')`;

/**
 * Each student's sums before the period before (0), the period (1) and the period's end (2):
 * the last stored UTC day before the bound's UTC day (one index look-up per student and bound),
 * plus the ledger's rows from that UTC midnight to the bound.
 */
async function sumsAtBounds(db: Db, scope: ReportScope): Promise<Map<string, Sums[]>> {
  await foldPendingSums(db, { wait: true });
  const { p0, p1, p2 } = bounds(scope);
  const grades = scope.turmas.length === 0 ? sql`TRUE` : sql`s.grade IN (${sql.join(scope.turmas.map((turma) => sql`${turma}`), sql`, `)})`;
  const columns = sql.raw(SUM_COLUMNS.join(', '));
  const rows = await jsonRows<Record<string, unknown>>(db, sql`
    WITH marks AS (SELECT k, at, ${utcMidnight(sql`at`)} AS midnight FROM (VALUES (0, ${p0}), (1, ${p1}), (2, ${p2})) AS v(k, at)),
    stored AS (
      SELECT s.id AS student, m.k, d.*
        FROM students s CROSS JOIN marks m
        JOIN LATERAL (SELECT ${columns} FROM ledger_student_days d
                       WHERE d.student_id = s.id AND d.day < (m.midnight AT TIME ZONE 'UTC')::date
                       ORDER BY d.day DESC LIMIT 1) AS d ON TRUE
       WHERE ${grades}
    ),
    recent AS (
      SELECT side.student, m.k,
             sum(e.amount) FILTER (WHERE side.incoming AND e.currency = 'meritus' AND e.type <> 'transfer') AS m_awarded,
             sum(e.amount) FILTER (WHERE NOT side.incoming AND e.currency = 'meritus' AND e.type <> 'transfer') AS m_removed,
             sum(e.amount) FILTER (WHERE side.incoming AND e.currency = 'meritus' AND e.type = 'transfer') AS m_in,
             sum(e.amount) FILTER (WHERE NOT side.incoming AND e.currency = 'meritus' AND e.type = 'transfer') AS m_out,
             sum(e.amount) FILTER (WHERE side.incoming AND e.currency = 'estelecas' AND e.type <> 'transfer') AS e_awarded,
             sum(e.amount) FILTER (WHERE NOT side.incoming AND e.currency = 'estelecas' AND e.type <> 'transfer') AS e_removed,
             sum(e.amount) FILTER (WHERE side.incoming AND e.currency = 'estelecas' AND e.type = 'transfer') AS e_in,
             sum(e.amount) FILTER (WHERE NOT side.incoming AND e.currency = 'estelecas' AND e.type = 'transfer') AS e_out,
             count(*) FILTER (WHERE NOT side.incoming AND e.type = 'transfer') AS sent_ops,
             count(*) AS ops
        FROM marks m
        JOIN ledger_entries e ON e.created_at >= m.midnight AND e.created_at < m.at
        CROSS JOIN LATERAL (VALUES (e.to_student_id, TRUE), (e.from_student_id, FALSE)) AS side(student, incoming)
       WHERE side.student IS NOT NULL
       GROUP BY 1, 2
    )
    SELECT student, k, ${sql.join(
      SUM_COLUMNS.map((column) => sql`coalesce(sum(${sql.raw(column)}), 0)::bigint AS ${sql.raw(column)}`),
      sql`, `,
    )}
      FROM (SELECT student, k, ${columns} FROM stored UNION ALL SELECT student, k, ${columns} FROM recent) AS parts
     GROUP BY student, k`);
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
 * Per student of the chosen turmas: balances at the start and end of the period and what each
 * student received, lost and sent in the period and the one before, as differences of the
 * sums at the bounds. Every figure, the turma table, the balance distribution and the students
 * who rose most come from these rows; stored balances are never read.
 */
async function studentTotals(db: Db, scope: ReportScope): Promise<StudentRow[]> {
  const { p1, p2 } = bounds(scope);
  const grades = scope.turmas.length === 0 ? sql`TRUE` : sql`grade IN (${sql.join(scope.turmas.map((turma) => sql`${turma}`), sql`, `)})`;
  const [sums, students] = await Promise.all([
    sumsAtBounds(db, scope),
    jsonRows<{ id: string; student_id: string; name: string; grade: string; created: boolean; present: boolean; present_before: boolean }>(db, sql`
      SELECT id, student_id, name, grade, created_at < ${p2} AS created,
             (created_at < ${p2} AND (deleted_at IS NULL OR deleted_at >= ${p2})) AS present,
             (created_at < ${p1} AND (deleted_at IS NULL OR deleted_at >= ${p1})) AS present_before
        FROM students WHERE ${grades}`),
  ]);
  const balance = (s: Sums) => s.m_awarded - s.m_removed + s.m_in - s.m_out;
  return students.flatMap(
    (student) => {
      const [before, start, end] = sums.get(student.id) ?? [NO_SUMS, NO_SUMS, NO_SUMS];
      if (!student.created && end!.ops === 0) return [];
      const change = (from: Sums, to: Sums, column: keyof Sums) => to[column] - from[column];
      return [
        {
          id: student.id,
          student_id: student.student_id,
          name: student.name,
          grade: student.grade,
          present: student.present === true,
          present_before: student.present_before === true,
          balance_start: balance(start!),
          balance_end: balance(end!),
          m_awarded: change(start!, end!, 'm_awarded'),
          m_removed: change(start!, end!, 'm_removed'),
          m_sent: change(start!, end!, 'm_out'),
          e_awarded: change(start!, end!, 'e_awarded'),
          e_removed: change(start!, end!, 'e_removed'),
          sent_ops: change(start!, end!, 'sent_ops'),
          ops: change(start!, end!, 'ops'),
          m_awarded_before: change(before!, start!, 'm_awarded'),
          m_removed_before: change(before!, start!, 'm_removed'),
          m_sent_before: change(before!, start!, 'm_out'),
          e_awarded_before: change(before!, start!, 'e_awarded'),
          e_removed_before: change(before!, start!, 'e_removed'),
          sent_ops_before: change(before!, start!, 'sent_ops'),
          ops_before: change(before!, start!, 'ops'),
        },
      ];
    },
  );
}

function figuresOf(rows: StudentRow[]): ReportFigures {
  const total = (pick: (row: StudentRow) => number) => rows.reduce((sum, row) => sum + pick(row), 0);
  const count = (pick: (row: StudentRow) => boolean) => rows.filter(pick).length;
  const enrolled = { current: count((r) => r.present), previous: count((r) => r.present_before) };
  const participants = { current: count((r) => r.present && r.ops > 0), previous: count((r) => r.present_before && r.ops_before > 0) };
  return {
    meritusAwarded: { current: total((r) => r.m_awarded), previous: total((r) => r.m_awarded_before) },
    meritusRemoved: { current: total((r) => r.m_removed), previous: total((r) => r.m_removed_before) },
    meritusTransferred: { current: total((r) => r.m_sent), previous: total((r) => r.m_sent_before) },
    estelecasAwarded: { current: total((r) => r.e_awarded), previous: total((r) => r.e_awarded_before) },
    estelecasRemoved: { current: total((r) => r.e_removed), previous: total((r) => r.e_removed_before) },
    activeStudents: { current: count((r) => r.present && r.sent_ops > 0), previous: count((r) => r.present_before && r.sent_ops_before > 0) },
    participation: { current: percent(participants.current, enrolled.current), previous: percent(participants.previous, enrolled.previous) },
    enrolled,
    participants,
  };
}

/** One row per turma of the filter (all of the school's when none is chosen), in the school's order. */
function turmaRows(rows: StudentRow[], scope: ReportScope): TurmaRow[] {
  const turmas = scope.turmas.length > 0 ? scope.school.turmas.filter((turma) => scope.turmas.includes(turma)) : scope.school.turmas;
  return turmas.map((turma) => {
    const own = rows.filter((row) => row.grade === turma);
    const present = own.filter((row) => row.present);
    const students = present.length;
    const balance = present.reduce((sum, row) => sum + row.balance_end, 0);
    const participants = present.filter((row) => row.ops > 0).length;
    return {
      turma,
      students,
      awarded: own.reduce((sum, row) => sum + row.m_awarded, 0),
      removed: own.reduce((sum, row) => sum + row.m_removed, 0),
      transferred: own.reduce((sum, row) => sum + row.m_sent, 0),
      balance,
      averageBalance: students === 0 ? 0 : oneDecimal(balance / students),
      participants,
      participation: percent(participants, students),
    };
  });
}

function balanceRows(rows: StudentRow[]): BalanceBucketRow[] {
  const present = rows.filter((row) => row.present);
  return BALANCE_BUCKETS.map((bucket) => ({
    label: balanceBucketLabel(bucket),
    min: bucket.min,
    max: bucket.max,
    students: present.filter((row) => row.balance_end >= bucket.min && (bucket.max === null || row.balance_end <= bucket.max)).length,
  }));
}

/** The students whose Méritus grew most in the period (only those that grew), ties by name. */
function riserRows(rows: StudentRow[]): RiserRow[] {
  return rows
    .filter((row) => row.present && row.balance_end > row.balance_start)
    .map((row) => ({ id: row.id, studentId: row.student_id, name: row.name, grade: row.grade, start: row.balance_start, end: row.balance_end, change: row.balance_end - row.balance_start }))
    .sort((a, b) => b.change - a.change || a.name.localeCompare(b.name, 'pt-BR'))
    .slice(0, REPORT_TOP_LIMIT);
}

/** Figures with the period before, the turma table, the balance distribution and the students who rose most. */
export async function reportOverview(db: Db, scope: ReportScope): Promise<ReportOverview> {
  const rows = await studentTotals(db, scope);
  return { period: scope.view, figures: figuresOf(rows), turmas: turmaRows(rows, scope), balances: balanceRows(rows), risers: riserRows(rows) };
}

/** The buckets' first days: every day, or the period's first day and each Monday after it. */
function bucketStarts(period: ResolvedPeriod): string[] {
  const starts: string[] = [];
  for (let day = period.from; day <= period.to; day = addDays(day, 1)) {
    if (period.bucket === 'day' || day === period.from || new Date(`${day}T00:00:00Z`).getUTCDay() === 1) starts.push(day);
  }
  return starts;
}

/**
 * Méritus awarded, removed and transferred per day or week of the period, empty buckets as zeros.
 * ledger_grade_days places each UTC day in the bucket its UTC day falls in; the ledger's rows
 * between a bucket's first instant and its UTC midnight then move to the bucket they belong to.
 */
export async function reportTimeline(db: Db, scope: ReportScope): Promise<ReportTimeline> {
  await foldPendingSums(db, { wait: true });
  const { p2 } = bounds(scope);
  const starts = bucketStarts(scope.period);
  // Each bucket's first instant, in order, and the period's end.
  const thresholds = sql`ARRAY[${sql.join([...starts.map((day) => dayStart(day, scope.school.timeZone)), p2], sql`, `)}]`;
  const grades = scope.turmas.length === 0 ? sql`TRUE` : sql`grade IN (${sql.join(scope.turmas.map((turma) => sql`${turma}`), sql`, `)})`;
  const rows = rowsOf<{ bucket: number; awarded: string | number; removed: string | number; transferred: string | number }>(
    await db.execute(sql`
      WITH th AS (SELECT ${thresholds} AS at),
      td AS (SELECT array_agg((t AT TIME ZONE 'UTC')::date ORDER BY n) AS day FROM th, unnest(th.at) WITH ORDINALITY AS u(t, n)),
      -- The rows before each bound since its UTC midnight, by the created_at index, before the turma
      -- filter: joined with the students first, the planner would read the whole ledger.
      near AS MATERIALIZED (
        SELECT e.* FROM th, unnest(th.at) AS w(t)
          JOIN ledger_entries e ON e.currency = 'meritus' AND e.created_at >= ${utcMidnight(sql`w.t`)} AND e.created_at < w.t
      ),
      edge AS (
        SELECT width_bucket(e.created_at, th.at) AS bucket, width_bucket((e.created_at AT TIME ZONE 'UTC')::date, td.day) AS day_bucket,
               CASE WHEN e.type IN ('admin_add', 'reward') THEN e.amount ELSE 0 END AS awarded,
               CASE WHEN e.type IN ('admin_remove', 'penalty') THEN e.amount ELSE 0 END AS removed,
               CASE WHEN e.type = 'transfer' THEN e.amount ELSE 0 END AS transferred
          FROM th, td, near AS e
         WHERE ${turmaFilter(scope, sql`coalesce(e.from_student_id, e.to_student_id)`)}
      )
      SELECT bucket, sum(awarded) AS awarded, sum(removed) AS removed, sum(transferred) AS transferred FROM (
        SELECT width_bucket(g.day, td.day) AS bucket, g.m_awarded AS awarded, g.m_removed AS removed, g.m_transferred AS transferred
          FROM ledger_grade_days g, td
         WHERE g.day >= td.day[1] AND g.day < td.day[array_length(td.day, 1)] AND ${grades}
        UNION ALL SELECT bucket, awarded, removed, transferred FROM edge
        UNION ALL SELECT day_bucket, -awarded, -removed, -transferred FROM edge
      ) AS parts
      GROUP BY 1`),
  );
  const byBucket = new Map(rows.map((row) => [Number(row.bucket), row]));
  const points: TimelinePoint[] = starts.map((start, index) => {
    const row = byBucket.get(index + 1);
    return { start, awarded: Number(row?.awarded ?? 0), removed: Number(row?.removed ?? 0), transferred: Number(row?.transferred ?? 0) };
  });
  return { period: scope.view, points };
}

/** The most frequent reasons of awards and of removals/penalties (both currencies), marked when they are saved presets. */
export async function reportReasons(db: Db, scope: ReportScope): Promise<ReportReasons> {
  await foldPendingSums(db, { wait: true });
  const { p1, p2 } = bounds(scope);
  const grades = scope.turmas.length === 0 ? sql`TRUE` : sql`r.grade IN (${sql.join(scope.turmas.map((turma) => sql`${turma}`), sql`, `)})`;
  // ledger_reason_sums by UTC days and months: the period's whole months, the days at either
  // end, then the ledger's rows from each bound's UTC midnight to the bound (added at the end,
  // taken away at the start).
  const [rows, presets] = await Promise.all([
    db.execute(sql`
      WITH b AS (
        SELECT d1, d2, (date_trunc('month', d1 - 1) + interval '1 month')::date AS m1, date_trunc('month', d2)::date AS m2
          FROM (SELECT (${p1} AT TIME ZONE 'UTC')::date AS d1, (${p2} AT TIME ZONE 'UTC')::date AS d2) AS days
      ),
      near AS MATERIALIZED (
        SELECT w.sign, e.* FROM (VALUES (${p2}, 1), (${p1}, -1)) AS w(at, sign)
          JOIN ledger_entries e ON e.created_at >= ${utcMidnight(sql`w.at`)} AND e.created_at < w.at
         WHERE e.type <> 'transfer'
      ),
      parts AS (
        SELECT r.kind, r.description, r.ops, r.meritus, r.estelecas
          FROM b JOIN ledger_reason_sums r
            ON (r.span = 'm' AND r.start >= b.m1 AND r.start < b.m2)
            OR (r.span = 'd' AND r.start >= b.d1 AND r.start < least(b.m1, b.d2))
            OR (r.span = 'd' AND r.start >= greatest(b.m1, b.m2) AND r.start < b.d2)
         WHERE ${grades}
        UNION ALL
        SELECT CASE WHEN e.type IN ('admin_add', 'reward') THEN 'award' ELSE 'penalty' END, btrim(e.description), e.sign,
               CASE WHEN e.currency = 'meritus' THEN e.sign * e.amount ELSE 0 END, CASE WHEN e.currency = 'estelecas' THEN e.sign * e.amount ELSE 0 END
          FROM near AS e
         WHERE ${turmaFilter(scope, sql`coalesce(e.from_student_id, e.to_student_id)`)}
      )
      SELECT kind, description, operations, meritus, estelecas FROM (
        SELECT kind, description, operations, meritus, estelecas,
               row_number() OVER (PARTITION BY kind ORDER BY operations DESC, meritus DESC, estelecas DESC, description) AS rank
          FROM (SELECT kind, description, sum(ops) AS operations, sum(meritus) AS meritus, sum(estelecas) AS estelecas
                  FROM parts GROUP BY kind, description) AS totals
         WHERE operations > 0
      ) AS ranked
      WHERE rank <= ${REPORT_TOP_LIMIT}
      ORDER BY kind, rank`),
    db.select({ label: reasonPresets.label }).from(reasonPresets),
  ]);
  // A row is a reason written one way (the sums group on the exact text; texts arrive trimmed and in NFC): a saved preset
  // marks the row written as the preset is, so 'participação' beside a preset 'Participação' is not taken for it too.
  const saved = new Set(presets.map((preset) => preset.label.trim().normalize('NFC')));
  const reasons = rowsOf<{ kind: 'award' | 'penalty'; description: string; operations: string | number; meritus: string | number; estelecas: string | number }>(rows);
  const of = (kind: 'award' | 'penalty'): ReasonRow[] =>
    reasons
      .filter((row) => row.kind === kind)
      .map((row) => ({
        description: row.description,
        preset: saved.has(row.description.normalize('NFC')),
        operations: Number(row.operations),
        meritus: Number(row.meritus),
        estelecas: Number(row.estelecas),
      }));
  return { period: scope.view, awards: of('award'), penalties: of('penalty') };
}
