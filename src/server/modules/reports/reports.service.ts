import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.ts';
import { reasonPresets } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { foldText } from '../../../shared/student-match.ts';
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
import { reportSchool, todayIn, type ReportSchool } from './report-school.ts';

/** A report's filters resolved against the school: calendar days, instants' time zone, turmas. */
export type ReportScope = { period: ResolvedPeriod; turmas: string[]; school: ReportSchool; view: ReportPeriodView };

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
  const period = resolvePeriod(query, todayIn(school.timeZone, now));
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

/**
 * One pass over the ledger up to the period's end, summed per student: balances at the start
 * and end of the period and what each student received, lost and sent in the period and the
 * one before. Every figure, the turma table, the balance distribution and the students who
 * rose most come from these rows; stored balances are never read.
 */
async function studentTotals(db: Db, scope: ReportScope): Promise<StudentRow[]> {
  const { p0, p1, p2 } = bounds(scope);
  const m = sql`currency = 'meritus'`;
  const e = sql`currency = 'estelecas'`;
  const sum = (filter: SQL, value: SQL = sql`total`) => sql`coalesce(sum(${value}) FILTER (WHERE ${filter}), 0)::bigint`;
  const signed = sql`CASE WHEN incoming THEN total ELSE -total END`;
  const measures = (slot: 1 | 2, suffix: string) => sql`
    ${sum(sql`slot = ${slot} AND ${m} AND kind = 'award'`)} AS ${sql.raw(`m_awarded${suffix}`)},
    ${sum(sql`slot = ${slot} AND ${m} AND kind = 'removal'`)} AS ${sql.raw(`m_removed${suffix}`)},
    ${sum(sql`slot = ${slot} AND ${m} AND kind = 'transfer' AND NOT incoming`)} AS ${sql.raw(`m_sent${suffix}`)},
    ${sum(sql`slot = ${slot} AND ${e} AND kind = 'award'`)} AS ${sql.raw(`e_awarded${suffix}`)},
    ${sum(sql`slot = ${slot} AND ${e} AND kind = 'removal'`)} AS ${sql.raw(`e_removed${suffix}`)},
    ${sum(sql`slot = ${slot} AND kind = 'transfer' AND NOT incoming`, sql`n`)} AS ${sql.raw(`sent_ops${suffix}`)},
    ${sum(sql`slot = ${slot}`, sql`n`)} AS ${sql.raw(`ops${suffix}`)}`;
  // Each side of the ledger is first grouped by student, currency, kind and slot (0: before the
  // period before, 1: the period before, 2: the period): one cheap hash aggregate per side over
  // the rows, then the figures are picked from those few groups.
  const side = (column: 'to_student_id' | 'from_student_id') => sql`
      SELECT ${sql.raw(column)} AS student, ${column === 'to_student_id' ? sql`TRUE` : sql`FALSE`} AS incoming, currency,
             CASE WHEN type = 'transfer' THEN 'transfer' WHEN type IN ('admin_add', 'reward') THEN 'award' ELSE 'removal' END AS kind,
             CASE WHEN created_at < b.p0 THEN 0 WHEN created_at < b.p1 THEN 1 ELSE 2 END AS slot,
             sum(amount) AS total, count(*) AS n
        FROM ledger_entries CROSS JOIN b
       WHERE ${sql.raw(column)} IS NOT NULL AND created_at < b.p2
       GROUP BY 1, 2, 3, 4, 5`;
  const grades = scope.turmas.length === 0 ? sql`TRUE` : sql`s.grade IN (${sql.join(scope.turmas.map((turma) => sql`${turma}`), sql`, `)})`;
  const result = await db.execute(sql`
    WITH b AS (SELECT ${p0} AS p0, ${p1} AS p1, ${p2} AS p2),
    grouped AS (${side('to_student_id')} UNION ALL ${side('from_student_id')}),
    totals AS (
      SELECT student,
             ${sum(sql`${m} AND slot < 2`, signed)} AS balance_start,
             ${sum(m, signed)} AS balance_end,
             ${measures(2, '')},
             ${measures(1, '_before')}
        FROM grouped
       GROUP BY student
    )
    SELECT s.id, s.student_id, s.name, s.grade,
           (s.created_at < b.p2 AND (s.deleted_at IS NULL OR s.deleted_at >= b.p2)) AS present,
           (s.created_at < b.p1 AND (s.deleted_at IS NULL OR s.deleted_at >= b.p1)) AS present_before,
           t.*
      FROM students s
      CROSS JOIN b
      LEFT JOIN totals t ON t.student = s.id
     WHERE ${grades} AND (t.student IS NOT NULL OR s.created_at < b.p2)
  `);
  const texts = new Set(['id', 'student_id', 'name', 'grade', 'student', 'present', 'present_before']);
  // Sums and counts arrive as text (pg's bigint), bigint or number depending on the driver; a student without rows has nulls.
  return rowsOf<Record<string, unknown>>(result).map((row) => {
    const numbers = Object.fromEntries(Object.entries(row).filter(([key]) => !texts.has(key)).map(([key, value]) => [key, Number(value ?? 0)]));
    return { ...numbers, id: row.id, student_id: row.student_id, name: row.name, grade: row.grade, present: row.present === true, present_before: row.present_before === true } as StudentRow;
  });
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

/** Méritus awarded, removed and transferred per day or week of the period, empty buckets as zeros. */
export async function reportTimeline(db: Db, scope: ReportScope): Promise<ReportTimeline> {
  const { p1, p2 } = bounds(scope);
  const starts = bucketStarts(scope.period);
  // Each bucket's first instant, in order: width_bucket places a row by comparing instants, far
  // cheaper than converting every row's time to the school's calendar.
  const thresholds = sql`ARRAY[${sql.join(
    starts.map((day) => dayStart(day, scope.school.timeZone)),
    sql`, `,
  )}]`;
  const rows = rowsOf<{ bucket: number; awarded: string | number; removed: string | number; transferred: string | number }>(
    await db.execute(sql`
      SELECT width_bucket(e.created_at, ${thresholds}) AS bucket,
             coalesce(sum(e.amount) FILTER (WHERE e.type IN ('admin_add', 'reward')), 0) AS awarded,
             coalesce(sum(e.amount) FILTER (WHERE e.type IN ('admin_remove', 'penalty')), 0) AS removed,
             coalesce(sum(e.amount) FILTER (WHERE e.type = 'transfer'), 0) AS transferred
        FROM ledger_entries e
       WHERE e.currency = 'meritus' AND e.created_at >= ${p1} AND e.created_at < ${p2}
         AND ${turmaFilter(scope, sql`coalesce(e.from_student_id, e.to_student_id)`)}
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
  const { p1, p2 } = bounds(scope);
  const [rows, presets] = await Promise.all([
    db.execute(sql`
      SELECT kind, description, operations, meritus, estelecas FROM (
        SELECT kind, description, count(*) AS operations,
               coalesce(sum(amount) FILTER (WHERE currency = 'meritus'), 0) AS meritus,
               coalesce(sum(amount) FILTER (WHERE currency = 'estelecas'), 0) AS estelecas,
               row_number() OVER (PARTITION BY kind ORDER BY count(*) DESC, coalesce(sum(amount) FILTER (WHERE currency = 'meritus'), 0) DESC,
                                  coalesce(sum(amount) FILTER (WHERE currency = 'estelecas'), 0) DESC, description) AS rank
          FROM (SELECT CASE WHEN e.type IN ('admin_add', 'reward') THEN 'award' ELSE 'penalty' END AS kind,
                       btrim(e.description) AS description, e.currency, e.amount
                  FROM ledger_entries e
                 WHERE e.type <> 'transfer' AND e.created_at >= ${p1} AND e.created_at < ${p2}
                   AND ${turmaFilter(scope, sql`coalesce(e.from_student_id, e.to_student_id)`)}) AS r
         GROUP BY kind, description
      ) AS ranked
      WHERE rank <= ${REPORT_TOP_LIMIT}
      ORDER BY kind, rank`),
    db.select({ label: reasonPresets.label }).from(reasonPresets),
  ]);
  const saved = new Set(presets.map((preset) => foldText(preset.label.trim())));
  const reasons = rowsOf<{ kind: 'award' | 'penalty'; description: string; operations: string | number; meritus: string | number; estelecas: string | number }>(rows);
  const of = (kind: 'award' | 'penalty'): ReasonRow[] =>
    reasons
      .filter((row) => row.kind === kind)
      .map((row) => ({
        description: row.description,
        preset: saved.has(foldText(row.description)),
        operations: Number(row.operations),
        meritus: Number(row.meritus),
        estelecas: Number(row.estelecas),
      }));
  return { period: scope.view, awards: of('award'), penalties: of('penalty') };
}
