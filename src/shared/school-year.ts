import { z } from 'zod';
import type { ErrorCode } from './errors.ts';
import { countOf, formatEstelecas, formatMeritus, formatNumber, plural } from './format.ts';
import { calendarDate, requiredText, rowId, textInput } from './validation.ts';
import { CURRENT } from './school-year-texts.ts';

export { CURRENT, spanLabel } from './school-year-texts.ts';

/**
 * The school year (issue 38, decision 031): years with their periods (bimestres or trimestres), and the rollover that
 * closes one. The settings form and the server validate a year with the same schema.
 */
export const PERIOD_KINDS = ['bimestre', 'trimestre'] as const;
export type PeriodKind = (typeof PERIOD_KINDS)[number];
/** How many periods a year of each kind has. */
export const PERIODS_OF_KIND = { bimestre: 4, trimestre: 3 } as const satisfies Record<PeriodKind, number>;
export const SCHOOL_YEAR_NAME_MAX = 60;

/**
 * A query's `year=`: 'atual' or a year's id (dateRangeOf looks it up; anything else is refused before). The UUID carries
 * the code too: when only one option of a union fails past its type, zod answers that option's issue, not the union's.
 */
export const schoolYearFilter = z.union([z.literal(CURRENT), z.uuid({ error: 'school_year_filter_invalid' })], {
  error: 'school_year_filter_invalid',
});
/** A query's `period=` naming a school period: 'atual' (this bimestre) or a period's id. */
export const schoolPeriodFilter = z.union([z.literal(CURRENT), z.uuid({ error: 'school_period_filter_invalid' })], {
  error: 'school_period_filter_invalid',
});

/** '1º bimestre', '3º trimestre'. */
export function periodName(kind: PeriodKind, position: number): string {
  return `${position}º ${kind}`;
}

const calendarDay = (code: ErrorCode) =>
  textInput({ max: 10, error: code, maxError: code })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: code })
    .refine((value) => calendarDate(Number(value.slice(0, 4)), Number(value.slice(5, 7)), Number(value.slice(8, 10))) !== null, {
      error: code,
    });

const periodInput = z.object({ startDate: calendarDay('school_year_invalid_date'), endDate: calendarDay('school_year_invalid_date') });

/**
 * POST /api/admin/school-years and PATCH /api/admin/school-years/:id (the whole year: its periods in their order). The
 * dates are calendar days (YYYY-MM-DD, both included); each refusal names its field for the form.
 */
export const schoolYearInput = z
  .object({
    name: requiredText('school_year_name_required', SCHOOL_YEAR_NAME_MAX, { maxError: 'school_year_name_too_long' }),
    startDate: calendarDay('school_year_invalid_date'),
    endDate: calendarDay('school_year_invalid_date'),
    periodKind: z.enum(PERIOD_KINDS, { error: 'school_year_period_kind' }),
    periods: z.array(periodInput, { error: 'school_year_period_count' }).max(4, { error: 'school_year_period_count' }),
  })
  .superRefine((year, context) => {
    const refuse = (code: ErrorCode, path: PropertyKey[]) => context.addIssue({ code: 'custom', message: code, path });
    if (year.startDate > year.endDate) return refuse('school_year_dates_order', ['endDate']);
    if (year.periods.length !== PERIODS_OF_KIND[year.periodKind]) return refuse('school_year_period_count', ['periods']);
    let previousEnd: string | undefined;
    for (const [index, period] of year.periods.entries()) {
      if (period.startDate > period.endDate) return refuse('school_period_dates_order', ['periods', index, 'endDate']);
      if (period.startDate < year.startDate || period.endDate > year.endDate)
        return refuse('school_period_outside_year', ['periods', index, 'startDate']);
      if (previousEnd !== undefined && period.startDate <= previousEnd)
        return refuse('school_period_overlap', ['periods', index, 'startDate']);
      previousEnd = period.endDate;
    }
  });
export type SchoolYearInput = z.input<typeof schoolYearInput>;

/**
 * 'Ano letivo {year}' from 1 January to 31 December in four bimestres of three months: the year an existing school's rows
 * were brought into (migration 0027 writes the same in SQL) and the demo school's.
 */
export function calendarYearInput(year: number): SchoolYearInput {
  const day = (month: number, date: number) => `${year}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`;
  return {
    name: `Ano letivo ${year}`,
    startDate: day(1, 1),
    endDate: day(12, 31),
    periodKind: 'bimestre',
    periods: [
      { startDate: day(1, 1), endDate: day(3, 31) },
      { startDate: day(4, 1), endDate: day(6, 30) },
      { startDate: day(7, 1), endDate: day(9, 30) },
      { startDate: day(10, 1), endDate: day(12, 31) },
    ],
  };
}

export const schoolYearParams = z.object({ id: textInput({ max: 60, trim: false }) });

export const schoolPeriod = z.object({
  id: z.uuid(),
  position: z.number().int(),
  name: z.string(),
  startDate: z.string(),
  endDate: z.string(),
});
export const schoolYear = z.object({
  id: z.uuid(),
  name: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  periodKind: z.enum(PERIOD_KINDS),
  periods: z.array(schoolPeriod),
  /** It contains today (the school's time zone). */
  current: z.boolean(),
  /** Its rollover was applied (an instant), or null. */
  closedAt: z.string().nullable(),
});
export type SchoolYear = z.infer<typeof schoolYear>;
export const schoolYearList = z.object({ years: z.array(schoolYear) });

// ---------------------------------------------------------------- the rollover

/** Where a student goes at the rollover: a turma (its id), or out of the school, graduated or leaving. */
export const LEAVINGS = ['graduated', 'left'] as const;
export type Leaving = (typeof LEAVINGS)[number];
export type Destination = string;
const destination = z.union([z.enum(LEAVINGS), rowId({ error: 'rollover_destination_invalid' })], {
  error: 'rollover_destination_invalid',
});
/** At most this many entries in a mapping (a school has a few thousand students). */
export const ROLLOVER_MAPPING_MAX = 20_000;
const destinations = z
  .record(rowId(), destination, { error: 'rollover_destination_invalid' })
  .refine((map) => Object.keys(map).length <= ROLLOVER_MAPPING_MAX, { error: 'rollover_destination_invalid' });

export const BALANCE_CHOICES = ['keep', 'close'] as const;
/**
 * POST /api/admin/rollover/preview: each turma's destination (a turma it names none for stays as it is), each student's
 * own (a repeater, a transfer out), and what happens to each currency's balances. Without `mapping`, the preview proposes
 * one from the turmas' names (proposeTurmaMapping).
 */
export const rolloverInput = z.object({
  mapping: z.object({ turmas: destinations, students: destinations.default({}) }, { error: 'rollover_destination_invalid' }).optional(),
  balances: z.object({ meritus: z.enum(BALANCE_CHOICES), estelecas: z.enum(BALANCE_CHOICES) }, { error: 'rollover_balances_required' }),
});
export type RolloverInput = z.input<typeof rolloverInput>;
/** POST /api/admin/rollover/apply: the preview's body and its token. */
export const rolloverApplyInput = rolloverInput.extend({ token: textInput({ max: 200, error: 'rollover_stale' }) });

const rolloverCounts = z.object({
  moving: z.number().int(),
  staying: z.number().int(),
  graduating: z.number().int(),
  leaving: z.number().int(),
  balancesClosed: z.number().int(),
  meritusClosed: z.number().int(),
  estelecasClosed: z.number().int(),
});
export type RolloverCounts = z.infer<typeof rolloverCounts>;

export const rolloverPreview = z.object({
  year: z.object({ id: z.uuid(), name: z.string() }),
  /** Binds an apply to the state this preview saw: a change since (a balance, a student, a turma) makes it stale. */
  token: z.string(),
  mapping: z.object({ turmas: z.record(z.string(), z.string()), students: z.record(z.string(), z.string()) }),
  balances: z.object({ meritus: z.enum(BALANCE_CHOICES), estelecas: z.enum(BALANCE_CHOICES) }),
  counts: rolloverCounts,
  summary: z.string(),
  turmas: z.array(z.object({ id: z.uuid(), name: z.string(), to: z.string().nullable(), students: z.number().int() })),
  students: z.array(
    z.object({
      id: z.uuid(),
      studentId: z.string(),
      name: z.string(),
      turmaId: z.uuid(),
      to: z.string(),
      meritus: z.number(),
      estelecas: z.number(),
    }),
  ),
});
export type RolloverPreview = z.infer<typeof rolloverPreview>;

export const rolloverOutcome = z.object({
  /** False: the year had been closed already, and this apply changed nothing. */
  applied: z.boolean(),
  year: z.object({ id: z.uuid(), name: z.string() }),
  appliedAt: z.string(),
  /** The automatic backup's file name in DATA_DIR/backups. */
  backupFile: z.string().nullable(),
  counts: rolloverCounts,
  summary: z.string(),
});
export type RolloverOutcome = z.infer<typeof rolloverOutcome>;

/** '312 alunos mudam de turma, 58 se formam, 370 saldos encerrados, total 41.230 M$'. */
export function rolloverSummary(counts: RolloverCounts): string {
  const parts = [
    `${countOf(counts.moving, 'aluno muda', 'alunos mudam')} de turma`,
    `${formatNumber(counts.graduating)} ${plural(counts.graduating, 'se forma', 'se formam')}`,
  ];
  if (counts.leaving > 0) parts.push(`${formatNumber(counts.leaving)} ${plural(counts.leaving, 'sai', 'saem')} da escola`);
  const totals = [
    ...(counts.meritusClosed > 0 ? [formatMeritus(counts.meritusClosed)] : []),
    ...(counts.estelecasClosed > 0 ? [formatEstelecas(counts.estelecasClosed)] : []),
  ];
  parts.push(
    `${countOf(counts.balancesClosed, 'saldo encerrado', 'saldos encerrados')}${totals.length > 0 ? `, total ${totals.join(' e ')}` : ''}`,
  );
  return parts.join(', ');
}

// ---------------------------------------------------------------- the proposed mapping

type Grade = { stage: 'ano' | 'em'; number: number; rest: string };
/** '6º ano B', '1º EM - Turma A', '2ª série A': the stage, its number and what follows (the turma's letter). */
const GRADE = /^\s*(\d{1,2})\s*[º°ªo]?\s*(ano|em|série|serie)\b(.*)$/i;

function gradeOf(name: string): Grade | null {
  const match = GRADE.exec(name.normalize('NFC'));
  if (!match) return null;
  const stage = match[2]!.toLowerCase() === 'ano' ? 'ano' : 'em';
  return { stage, number: Number(match[1]), rest: match[3]!.trim() };
}

const keyOf = (grade: Grade) => `${grade.stage}:${grade.number}:${grade.rest.toLowerCase().replace(/\s+/g, ' ')}`;

/**
 * The next turma of each turma, proposed from the names: '6º ano B' → '7º ano B', '9º ano A' → '1º EM A' (when the school
 * has it), '1º EM - Turma A' → '2º EM - Turma A', the last year of the Ensino Médio ('3º EM', '3ª série') → graduated. A
 * turma whose next one the school lacks, or whose name says nothing, is left out (its students stay; the coordination
 * decides). Only the active turmas are offered as destinations.
 */
export function proposeTurmaMapping(turmas: readonly { id: string; name: string; retired?: boolean }[]): Record<string, Destination> {
  const byKey = new Map<string, string>();
  for (const turma of turmas) {
    const grade = turma.retired ? null : gradeOf(turma.name);
    if (grade) byKey.set(keyOf(grade), turma.id);
  }
  const mapping: Record<string, Destination> = {};
  for (const turma of turmas) {
    const grade = turma.retired ? null : gradeOf(turma.name);
    if (!grade) continue;
    if (grade.stage === 'em' && grade.number >= 3) {
      mapping[turma.id] = 'graduated';
      continue;
    }
    const next: Grade =
      grade.stage === 'ano' && grade.number >= 9 ? { stage: 'em', number: 1, rest: grade.rest } : { ...grade, number: grade.number + 1 };
    const target = byKey.get(keyOf(next));
    if (target) mapping[turma.id] = target;
  }
  return mapping;
}
