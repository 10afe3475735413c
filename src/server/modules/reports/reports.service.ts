import type { Db } from '../../db/client.ts';
import { reasonPresets } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import {
  addDays,
  isReportPreset,
  periodOfDays,
  resolvePeriod,
  type ReasonRow,
  type ReportOverview,
  type ReportQuery,
  type ReportReasons,
  type ReportStore,
  type ReportTimeline,
  type ResolvedPeriod,
  type TimelinePoint,
} from '../../../shared/reports.ts';
import { REPORT_TEXTS } from '../../../shared/report-texts.ts';
import { reportSchool, type ReportScope } from './report-school.ts';
import { balanceRows, figuresOf, riserRows, studentTotals, turmaRows } from './report-overview.ts';
import { bounds, chosenIds, reversalSums, timelineSums, topReasons } from './reports.queries.ts';
import { storeSpending } from './report-store.queries.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import { turmaScopeOf, type AdminActor } from '../auth/actor.ts';
import { inScope, type TurmaScope } from '../../views/turma-scope.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { dayIn } from '../../../shared/format.ts';
import { assertStaffMember } from '../ledger/ledger-queries.service.ts';
import { dateRangeOf } from '../school-year/school-year.service.ts';
import { spanLabel } from '../../../shared/school-year.ts';

/**
 * The reports screen's reads: a query's scope resolved against the school, then the overview
 * (report-overview.ts), the timeline and the reasons, all summed from the ledger
 * (reports.queries.ts, decision 011).
 */

/** What the reports read: the database, and the school's settings through their cache. */
export type ReportDeps = { db: Db; settings: SettingsStore };

/** A read of a report for the filters a request sent, by a member of the staff: resolved first (reportScope), then read. */
export async function readReport<T>(
  { db, settings }: ReportDeps,
  admin: AdminActor,
  query: ReportQuery,
  read: (db: Db, scope: ReportScope) => Promise<T>,
): Promise<T> {
  return read(db, await reportScope({ db, settings }, query, turmaScopeOf(admin)));
}

/**
 * Resolves the query's period in the school's time zone and checks its turmas against the school's list and its author
 * against the staff (a name or an id the school does not have is refused, not silently matched to nothing). A teacher
 * (`turmaScope`) reports on their turmas: the school's list is theirs, no filter means all of theirs, and a turma of
 * someone else is refused.
 */
export async function reportScope(
  { db, settings }: ReportDeps,
  query: Pick<ReportQuery, 'period' | 'year' | 'from' | 'to' | 'turma'> & { authorId?: string | undefined },
  turmaScope: TurmaScope = null,
  now: Date = new Date(),
): Promise<ReportScope> {
  const school = await reportSchool(settings);
  const names = [...new Set(query.turma)];
  const turmas = names.map((name) => school.turmas.find((turma) => turma.name === name));
  const unknown = names.find((_, index) => turmas[index] === undefined);
  if (unknown !== undefined) {
    const message = REPORT_TEXTS.unknownTurma(unknown);
    throw new AppError('report_unknown_turma', { message, fields: { turma: message } });
  }
  const chosen = turmas.filter((turma) => turma !== undefined);
  if (chosen.some((turma) => !inScope(turmaScope, turma.id))) {
    throw new AppError('turma_outside_turmas', { fields: { turma: ERROR_MESSAGES.turma_outside_turmas } });
  }
  const authorId = query.authorId ?? null;
  if (authorId !== null) await assertStaffMember(db, authorId);
  const visible = school.turmas.filter((turma) => inScope(turmaScope, turma.id));
  const period = await periodOf({ db, settings }, query, dayIn(school.timeZone, now), now);
  return {
    period,
    turmas: chosen.length > 0 ? chosen : turmaScope === null ? null : visible,
    school: { ...school, turmas: visible },
    authorId,
    view: { ...period, turmas: names, availableTurmas: visible.map((turma) => turma.name), authorId },
  };
}

/**
 * The query's days: a preset's, or a school year's or period's (`year=`, `period=<id>|atual`) through the one
 * `dateRangeOf()` (decision 031), up to today while it runs. A year given makes the preset (the default '30d') moot.
 * The dashboard's period is this one too.
 */
export async function periodOf(
  deps: ReportDeps,
  query: Pick<ReportQuery, 'period' | 'year' | 'from' | 'to'>,
  today: string,
  now: Date,
): Promise<ResolvedPeriod> {
  const preset = isReportPreset(query.period) ? query.period : undefined;
  if (preset !== undefined && query.year === undefined) return resolvePeriod({ ...query, period: preset }, today);
  const span = (await dateRangeOf(deps, { year: query.year, period: preset === undefined ? query.period : undefined }, now))!;
  const to = span.from <= today && today < span.to ? today : span.to;
  return periodOfDays(query.period, { from: span.from, to }, spanLabel(span.year.name, span.period?.name ?? null));
}

/** Figures with the period before, the turma table, the balance distribution and the students who rose most. */
export async function reportOverview(db: Db, scope: ReportScope): Promise<ReportOverview> {
  const [rows, reversed] = await Promise.all([studentTotals(db, scope), reversalSums(db, scope)]);
  return {
    period: scope.view,
    figures: figuresOf(rows, reversed),
    turmas: turmaRows(rows, scope),
    balances: balanceRows(rows),
    risers: riserRows(rows),
  };
}

/** The buckets' first days: every day, or the period's first day and each Monday after it. */
function bucketStarts(period: ResolvedPeriod): string[] {
  const starts: string[] = [];
  for (let day = period.from; day <= period.to; day = addDays(day, 1)) {
    if (period.bucket === 'day' || day === period.from || new Date(`${day}T00:00:00Z`).getUTCDay() === 1) starts.push(day);
  }
  return starts;
}

/** Méritus awarded, removed, transferred and spent in the Loja per day or week of the period, empty buckets as zeros. */
export async function reportTimeline(db: Db, scope: ReportScope): Promise<ReportTimeline> {
  const starts = bucketStarts(scope.period);
  const byBucket = await timelineSums(db, scope, starts);
  const points: TimelinePoint[] = starts.map((start, index) => {
    const sums = byBucket.get(index + 1);
    return {
      start,
      awarded: sums?.awarded ?? 0,
      removed: sums?.removed ?? 0,
      transferred: sums?.transferred ?? 0,
      spent: sums?.spent ?? 0,
    };
  });
  return { period: scope.view, points };
}

/** The most frequent reasons of awards and of removals/penalties (both currencies), marked when they are saved presets. */
export async function reportReasons(db: Db, scope: ReportScope): Promise<ReportReasons> {
  const [reasons, presets] = await Promise.all([topReasons(db, scope), db.select({ label: reasonPresets.label }).from(reasonPresets)]);
  // A row is a reason written one way (the sums group on the exact text; texts arrive trimmed and in NFC): a saved preset
  // marks the row written as the preset is, so 'participação' beside a preset 'Participação' is not taken for it too.
  const saved = new Set(presets.map((preset) => preset.label.trim().normalize('NFC')));
  const of = (kind: 'award' | 'penalty'): ReasonRow[] =>
    reasons
      .filter((row) => row.kind === kind)
      .map((row) => ({
        description: row.description,
        preset: saved.has(row.description.normalize('NFC')),
        operations: row.operations,
        meritus: row.meritus,
        estelecas: row.estelecas,
      }));
  return { period: scope.view, awards: of('award'), penalties: of('penalty') };
}

/**
 * The Loja in the period (report-store.queries.ts): spending by item, the items sold out, the orders still to deliver. The
 * students' spending, whoever the author filter names.
 */
export async function reportStore(db: Db, scope: ReportScope): Promise<ReportStore> {
  const { p1, p2 } = bounds(scope);
  return { period: scope.view, ...(await storeSpending(db, { from: p1, to: p2, turmas: chosenIds(scope) })) };
}
