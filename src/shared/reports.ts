import { z } from 'zod';
import { calendarDate, rowId, textInput } from './validation.ts';
import { formatDate } from './format.ts';
import { authorIdParam } from './ledger.ts';
import { CURRENCIES } from './ledger-types.ts';
import { STORE_CATEGORIES } from './store.ts';
import { CURRENT, schoolYearFilter } from './school-year.ts';

export const REPORT_PERIODS = ['today', '7d', '30d', 'month', 'bimester', 'year', 'custom'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];
export const DEFAULT_REPORT_PERIOD: ReportPeriod = '30d';

export const REPORT_PERIOD_LABELS: Record<ReportPeriod, string> = {
  today: 'Hoje',
  '7d': '7 dias',
  '30d': '30 dias',
  month: 'Este mês',
  bimester: 'Bimestre',
  year: 'Ano letivo',
  custom: 'Personalizado',
};

/** The longest period a report covers: a whole year, so a custom range cannot ask for decades of rows. */
export const MAX_REPORT_DAYS = 366;
/** Periods up to this many days are drawn day by day; longer ones week by week (weeks start on Monday). */
export const DAILY_BUCKET_MAX_DAYS = 62;
export const MAX_REPORT_TURMAS = 100;
/** Rows of the top reasons and of the students who rose most. */
export const REPORT_TOP_LIMIT = 10;

/**
 * The school calendar of a Brazilian school, written once: the ano letivo runs from 1 February
 * to 31 December (in January, the reports' "ano letivo" is the one that just ended), and its four
 * bimestres cover it without gaps, each recess inside the bimestre it ends (July's in the 2nd).
 * Months and days, 1-based.
 */
export const SCHOOL_YEAR = { start: [2, 1], end: [12, 31] } as const;
export const BIMESTERS = [
  { start: [2, 1], end: [4, 15] },
  { start: [4, 16], end: [7, 31] },
  { start: [8, 1], end: [9, 30] },
  { start: [10, 1], end: [12, 31] },
] as const;

/** In place of the report while its custom period is missing a day, reversed or too long. */
export const REPORT_WAITS_FOR_PERIOD = 'O relatório aparece assim que o período for válido.';

export const PERIOD_HINTS: Partial<Record<ReportPeriod, string>> = {
  bimester:
    'Bimestre atual até hoje. 1º bimestre: 1º/fev a 15/abr · 2º: 16/abr a 31/jul (com o recesso de julho) · ' +
    '3º: 1º/ago a 30/set · 4º: 1º/out a 31/dez. Em janeiro, o 4º bimestre do ano anterior.',
  year: 'Ano letivo até hoje: de 1º de fevereiro a 31 de dezembro. Em janeiro, o ano letivo anterior.',
};

/** What each figure counts, shown beside it on the screen and in the exports. */
export const FIGURE_DEFINITIONS = {
  meritusAwarded: 'Soma das adições e recompensas de Méritus no período.',
  meritusRemoved: 'Soma das remoções e penalidades de Méritus no período.',
  meritusTransferred: 'Soma dos Méritus enviados em transferências pelos alunos das turmas escolhidas.',
  estelecasAwarded: 'Soma das adições e recompensas de Estelecas no período.',
  estelecasRemoved: 'Soma das remoções e penalidades de Estelecas no período.',
  meritusSpent: 'Méritus gastos na Loja no período (compras e contribuições para metas), menos as devoluções.',
  estelecasSpent: 'Estelecas gastas na Loja no período (compras e contribuições para metas), menos as devoluções.',
  meritusReversed: 'Soma dos estornos de Méritus no período. Uma operação estornada deixa de contar nas somas acima, na data do estorno.',
  estelecasReversed:
    'Soma dos estornos de Estelecas no período. Uma operação estornada deixa de contar nas somas acima, na data do estorno.',
  activeStudents: 'Alunos que enviaram ao menos uma transferência (Méritus ou Estelecas) no período.',
  participation: 'Alunos com ao menos uma operação no período (recebida ou enviada), em % dos alunos matriculados nas turmas escolhidas.',
} as const;
export type FigureId = keyof typeof FIGURE_DEFINITIONS;
export const FIGURE_IDS = Object.keys(FIGURE_DEFINITIONS) as FigureId[];
export const FIGURE_LABELS: Record<FigureId, string> = {
  meritusAwarded: 'Méritus concedidos',
  meritusRemoved: 'Méritus removidos',
  meritusTransferred: 'Méritus transferidos',
  estelecasAwarded: 'Estelecas concedidas',
  estelecasRemoved: 'Estelecas removidas',
  meritusSpent: 'Méritus gastos na Loja',
  estelecasSpent: 'Estelecas gastas na Loja',
  meritusReversed: 'Méritus estornados',
  estelecasReversed: 'Estelecas estornadas',
  activeStudents: 'Alunos ativos',
  participation: 'Participação',
};

/** Balance ranges of the distribution chart, in M$ (the last one open-ended). */
export const BALANCE_BUCKETS = [
  { min: 0, max: 0 },
  { min: 1, max: 99 },
  { min: 100, max: 249 },
  { min: 250, max: 499 },
  { min: 500, max: 999 },
  { min: 1000, max: 1999 },
  { min: 2000, max: null },
] as const;

export function balanceBucketLabel(bucket: { min: number; max: number | null }): string {
  const n = (value: number) => value.toLocaleString('pt-BR');
  if (bucket.max === null) return `${n(bucket.min)} M$ ou mais`;
  if (bucket.min === bucket.max) return `${n(bucket.min)} M$`;
  return `${n(bucket.min)} a ${n(bucket.max)} M$`;
}

// ---------------------------------------------------------------- query and its rules

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseDay(value: string): Date | null {
  const match = isoDate.exec(value);
  return match ? calendarDate(Number(match[1]), Number(match[2]), Number(match[3])) : null;
}

const DAY_MS = 86_400_000;

function dayText(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** A calendar day `days` after `day` (negative: before). */
export function addDays(day: string, days: number): string {
  return dayText(new Date(parseDay(day)!.getTime() + days * DAY_MS));
}

/** Days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((parseDay(to)!.getTime() - parseDay(from)!.getTime()) / DAY_MS) + 1;
}

const dayField = textInput({ max: 10, error: 'report_invalid_date', maxError: 'report_invalid_date' }).refine(
  (value) => parseDay(value) !== null,
  { error: 'report_invalid_date' },
);

/**
 * The filters of every report: the period, the turmas (none = all) and the author (a member of the
 * staff: only their operations count). A turma may be sent repeated (`turma=A&turma=B`), as the
 * screen's URL keeps them.
 */
/** A school year or period named by its id, or 'atual' (the one containing today): `dateRangeOf()` turns it into days (decision 031). */
const schoolSpan = z.union([z.literal(CURRENT), z.uuid({ error: 'report_invalid_period' })], { error: 'report_invalid_period' });

/** A preset, or a school period (`period=<id>|atual`, 'Este bimestre'), whose days the server resolves. */
export function isReportPreset(period: string): period is ReportPeriod {
  return (REPORT_PERIODS as readonly string[]).includes(period);
}

const reportFilters = z.object({
  period: z.union([z.enum(REPORT_PERIODS), schoolSpan], { error: 'report_invalid_period' }).default(DEFAULT_REPORT_PERIOD),
  /** A school year (`year=<id>|atual`): its days, or with `period=` one of its periods. */
  year: schoolYearFilter.optional(),
  from: dayField.optional(),
  to: dayField.optional(),
  turma: z
    .preprocess(
      (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
      z
        .array(textInput({ max: 80, error: 'report_unknown_turma' }).min(1, { error: 'report_unknown_turma' }))
        .max(MAX_REPORT_TURMAS, { error: 'report_too_many_turmas' }),
    )
    .default([]),
  authorId: authorIdParam.optional(),
});

/** A custom period needs both days, in order, and at most MAX_REPORT_DAYS of them. */
function checkPeriod(query: { period: string; from?: string | undefined; to?: string | undefined }, context: z.RefinementCtx): void {
  if (query.period !== 'custom') return;
  // A day that is not a real date has its own issue already; zod still runs this check.
  if ((query.from && !parseDay(query.from)) || (query.to && !parseDay(query.to))) return;
  if (!query.from || !query.to) {
    context.addIssue({ code: 'custom', path: [query.from ? 'to' : 'from'], message: 'report_dates_required' });
    return;
  }
  if (query.from > query.to) context.addIssue({ code: 'custom', path: ['from'], message: 'report_from_after_to' });
  else if (daysBetween(query.from, query.to) > MAX_REPORT_DAYS)
    context.addIssue({ code: 'custom', path: ['to'], message: 'report_range_too_long' });
}

export const reportQuery = reportFilters.superRefine(checkPeriod);
export type ReportQuery = z.infer<typeof reportQuery>;
export type ReportQueryInput = z.input<typeof reportQuery>;

export type ResolvedPeriod = {
  /** The query's `period`: a preset, a school period's id or 'atual'. */
  period: string;
  /** A school year or period chosen ('1º bimestre de 2026', 'Ano letivo 2025'); null for a preset or custom days. */
  label: string | null;
  from: string;
  to: string;
  days: number;
  previousFrom: string;
  previousTo: string;
  bucket: 'day' | 'week';
};

function monthDay(year: number, [month, day]: readonly [number, number]): string {
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The school year and bimestre `today` falls in (January: the last ones of the year before). */
function schoolTerm(today: string): { year: { from: string; to: string }; bimester: { from: string; to: string } } {
  const calendarYear = Number(today.slice(0, 4));
  const year = today < monthDay(calendarYear, SCHOOL_YEAR.start) ? calendarYear - 1 : calendarYear;
  const bimesters = BIMESTERS.map((b) => ({ from: monthDay(year, b.start), to: monthDay(year, b.end) }));
  const bimester = [...bimesters].reverse().find((b) => b.from <= today) ?? bimesters[0]!;
  return { year: { from: monthDay(year, SCHOOL_YEAR.start), to: monthDay(year, SCHOOL_YEAR.end) }, bimester };
}

/**
 * The calendar days a report covers, given today in the school's time zone: presets end today
 * (or at the end of their term when it is over), and the period before is the same number of
 * days just before it.
 */
export function resolvePeriod(
  query: { period: ReportPeriod; from?: string | undefined; to?: string | undefined },
  today: string,
): ResolvedPeriod {
  const earliest = (a: string, b: string) => (a < b ? a : b);
  let range: { from: string; to: string };
  switch (query.period) {
    case 'today':
      range = { from: today, to: today };
      break;
    case '7d':
      range = { from: addDays(today, -6), to: today };
      break;
    case '30d':
      range = { from: addDays(today, -29), to: today };
      break;
    case 'month':
      range = { from: `${today.slice(0, 8)}01`, to: today };
      break;
    case 'bimester': {
      const { bimester } = schoolTerm(today);
      range = { from: bimester.from, to: earliest(bimester.to, today) };
      break;
    }
    case 'year': {
      const { year } = schoolTerm(today);
      range = { from: year.from, to: earliest(year.to, today) };
      break;
    }
    case 'custom':
      range = { from: query.from!, to: query.to! };
      break;
  }
  return periodOfDays(query.period, range, null);
}

/** The days chosen with the period before them (as many days, just before) and the timeline's bucket. */
export function periodOfDays(period: string, range: { from: string; to: string }, label: string | null): ResolvedPeriod {
  const days = daysBetween(range.from, range.to);
  return {
    period,
    label,
    ...range,
    days,
    previousFrom: addDays(range.from, -days),
    previousTo: addDays(range.from, -1),
    bucket: days <= DAILY_BUCKET_MAX_DAYS ? 'day' : 'week',
  };
}

/** The period's days, after the school period's name when one was chosen: '1º bimestre de 2026 (01/01/2026 a 31/03/2026)'. */
export function periodWords(period: Pick<ResolvedPeriod, 'label' | 'from' | 'to'>): string {
  const days = formatDayRange(period.from, period.to);
  return period.label === null ? days : `${period.label} (${days})`;
}

/** "25/10/2026 a 23/11/2026", or one day. */
export function formatDayRange(from: string, to: string): string {
  return from === to ? formatDate(from) : `${formatDate(from)} a ${formatDate(to)}`;
}

// ---------------------------------------------------------------- answers

export const reportPeriodView = z.object({
  period: z.string(),
  label: z.string().nullable(),
  from: z.string(),
  to: z.string(),
  days: z.number().int(),
  previousFrom: z.string(),
  previousTo: z.string(),
  bucket: z.enum(['day', 'week']),
  /** The turmas chosen; empty means all. */
  turmas: z.array(z.string()),
  /** Every turma the filter may name. */
  availableTurmas: z.array(z.string()),
  /** The member of the staff whose operations the figures count; null: everyone's. */
  authorId: z.uuid().nullable(),
});
export type ReportPeriodView = z.infer<typeof reportPeriodView>;

const figure = z.object({ current: z.number(), previous: z.number() });
export type ReportFigure = z.infer<typeof figure>;

export const reportFigures = z.object({
  meritusAwarded: figure,
  meritusRemoved: figure,
  meritusTransferred: figure,
  estelecasAwarded: figure,
  estelecasRemoved: figure,
  /** Spent in the Loja (purchases and contributions), less refunds: never awards or removals. */
  meritusSpent: figure,
  estelecasSpent: figure,
  meritusReversed: figure,
  estelecasReversed: figure,
  activeStudents: figure,
  /** Percent with one decimal. */
  participation: figure,
  /** Students enrolled in the chosen turmas during the period (participation's denominator). */
  enrolled: figure,
  /** Students with at least one operation (participation's numerator). */
  participants: figure,
});
export type ReportFigures = z.infer<typeof reportFigures>;

export const turmaRow = z.object({
  turma: z.string(),
  students: z.number().int(),
  awarded: z.number().int(),
  removed: z.number().int(),
  transferred: z.number().int(),
  /** Spent in the Loja, less refunds. */
  spent: z.number().int(),
  estelecasSpent: z.number().int(),
  /** Méritus held by the turma's students at the end of the period (from the ledger). */
  balance: z.number().int(),
  /** balance ÷ students, one decimal. */
  averageBalance: z.number(),
  participants: z.number().int(),
  participation: z.number(),
});
export type TurmaRow = z.infer<typeof turmaRow>;

export const balanceBucketRow = z.object({
  label: z.string(),
  min: z.number().int(),
  max: z.number().int().nullable(),
  students: z.number().int(),
});
export type BalanceBucketRow = z.infer<typeof balanceBucketRow>;

export const riserRow = z.object({
  id: z.uuid(),
  studentId: z.string(),
  name: z.string(),
  grade: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  change: z.number().int(),
});
export type RiserRow = z.infer<typeof riserRow>;

export const reportOverview = z.object({
  period: reportPeriodView,
  figures: reportFigures,
  turmas: z.array(turmaRow),
  balances: z.array(balanceBucketRow),
  risers: z.array(riserRow),
});
export type ReportOverview = z.infer<typeof reportOverview>;

export const timelinePoint = z.object({
  /** First day of the bucket (a day, or the Monday of a week; the first bucket may start later, on the period's first day). */
  start: z.string(),
  awarded: z.number().int(),
  removed: z.number().int(),
  transferred: z.number().int(),
  /** Spent in the Loja, less refunds. */
  spent: z.number().int(),
});
export type TimelinePoint = z.infer<typeof timelinePoint>;
export const reportTimeline = z.object({ period: reportPeriodView, points: z.array(timelinePoint) });
export type ReportTimeline = z.infer<typeof reportTimeline>;

export const reasonRow = z.object({
  description: z.string(),
  /** Whether the text is one of the saved reasons (Motivos rápidos). */
  preset: z.boolean(),
  operations: z.number().int(),
  meritus: z.number().int(),
  estelecas: z.number().int(),
});
export type ReasonRow = z.infer<typeof reasonRow>;
export const reportReasons = z.object({ period: reportPeriodView, awards: z.array(reasonRow), penalties: z.array(reasonRow) });
export type ReportReasons = z.infer<typeof reportReasons>;

/** An item of the Loja in a period (decision 026): what was spent on it, less refunds, in its own currency. */
export const storeItemSpending = z.object({
  itemId: z.uuid(),
  name: z.string(),
  category: z.enum(STORE_CATEGORIES),
  currency: z.enum(CURRENCIES),
  /** Units bought in the period less those refunded in it (a turma goal: 0). */
  units: z.number().int(),
  /** Purchases and contributions of the period, less its refunds. */
  spent: z.number().int(),
  /** Given back in the period (orders refused or cancelled, goals whose deadline passed). */
  refunded: z.number().int(),
  /** Units left now; null: ilimitado; 0: esgotado. */
  stockLeft: z.number().int().nullable(),
  /** Orders still to deliver now. */
  pendingOrders: z.number().int(),
  /** When its last unit was taken (its latest order not given back), for an item sold out now. */
  soldOutAt: z.string().nullable(),
});
export type StoreItemSpending = z.infer<typeof storeItemSpending>;

/** The Loja over a scope's students: spending by item, the items sold out, the orders still to deliver. */
export const storeSpending = z.object({
  /** Items with spending or refunds in the period, pending orders or sold out; most spent first. */
  items: z.array(storeItemSpending),
  soldOut: z.array(storeItemSpending),
  openOrders: z.object({
    count: z.number().int(),
    meritus: z.number().int(),
    estelecas: z.number().int(),
    oldestAt: z.string().nullable(),
  }),
});
export type StoreSpending = z.infer<typeof storeSpending>;
export const reportStore = storeSpending.extend({ period: reportPeriodView });
export type ReportStore = z.infer<typeof reportStore>;

// ---------------------------------------------------------------- exports

export const REPORT_TABLES = ['figures', 'timeline', 'turmas', 'balances', 'awards', 'penalties', 'risers', 'store', 'students'] as const;
export type ReportTable = (typeof REPORT_TABLES)[number];
export const REPORT_TABLE_TITLES: Record<ReportTable, string> = {
  figures: 'Indicadores',
  timeline: 'Méritus ao longo do tempo',
  turmas: 'Comparação entre turmas',
  balances: 'Distribuição de saldos',
  awards: 'Principais motivos de premiação',
  penalties: 'Principais motivos de penalidade',
  risers: 'Alunos que mais subiram',
  store: 'Loja: gastos por item',
  students: 'Alunos: saldos e movimentos',
};
/** The tables' sheets in the workbook (at most 31 characters, as Excel allows). */
export const REPORT_TABLE_SHEETS: Record<ReportTable, string> = {
  figures: 'Indicadores',
  timeline: 'Méritus no tempo',
  turmas: 'Turmas',
  balances: 'Saldos',
  awards: 'Motivos de premiação',
  penalties: 'Motivos de penalidade',
  risers: 'Alunos que mais subiram',
  store: 'Loja',
  students: 'Alunos',
};
/** File names of the exports, without the period and extension. */
export const REPORT_TABLE_FILES: Record<ReportTable, string> = {
  figures: 'indicadores',
  timeline: 'meritus-no-tempo',
  turmas: 'turmas',
  balances: 'saldos',
  awards: 'motivos-premiacao',
  penalties: 'motivos-penalidade',
  risers: 'alunos-que-mais-subiram',
  store: 'loja-gastos-por-item',
  students: 'alunos',
};
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const reportExportQuery = reportFilters
  .extend({
    table: z.enum(REPORT_TABLES, { error: 'report_unknown_table' }),
    format: z.enum(EXPORT_FORMATS, { error: 'report_unknown_format' }),
  })
  .superRefine(checkPeriod);
export type ReportExportQuery = z.output<typeof reportExportQuery>;

/** A student's statement (extrato) for a period. */
export const statementQuery = reportFilters
  .pick({ period: true, year: true, from: true, to: true })
  .extend({ student: rowId({ error: 'student_not_found' }) })
  .superRefine(checkPeriod);
export type StatementQuery = z.output<typeof statementQuery>;
export const certificateQuery = z.object({ tag: rowId({ error: 'tag_not_found' }) });

// ---------------------------------------------------------------- end of bimestre (issue 36)

/** One turma's documents (its report, its students' statements): the period's days and the turma, by name. */
export const turmaDocumentQuery = reportFilters
  .pick({ period: true, year: true, from: true, to: true })
  .extend({ turma: textInput({ max: 80, error: 'report_turma_required' }).min(1, { error: 'report_turma_required' }) })
  .superRefine(checkPeriod);
export type TurmaDocumentQuery = z.output<typeof turmaDocumentQuery>;

/** Every table of the screen in one workbook, for the page's filters. */
export const reportWorkbookQuery = reportQuery;

/** Certificates come for this many top students at most (ties at the last place included). */
export const TOP_CERTIFICATES = { default: 3, max: 10 } as const;

/** Certificates of the period's top students by Méritus earned: of one turma, or of every turma the member sees. */
export const topCertificatesQuery = reportFilters
  .pick({ period: true, year: true, from: true, to: true })
  .extend({
    turma: textInput({ max: 80, error: 'report_unknown_turma' }).min(1, { error: 'report_unknown_turma' }).optional(),
    count: z.coerce
      .number({ error: 'report_invalid_top_count' })
      .int({ error: 'report_invalid_top_count' })
      .min(1, { error: 'report_invalid_top_count' })
      .max(TOP_CERTIFICATES.max, { error: 'report_invalid_top_count' })
      .default(TOP_CERTIFICATES.default),
  })
  .superRefine(checkPeriod);
export type TopCertificatesQuery = z.output<typeof topCertificatesQuery>;

export type ReportFilterValues = {
  period: string;
  year?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  turma: readonly string[];
  authorId?: string | undefined;
};

/** The filters as the report routes take them: the days only for a custom period. */
export function reportQueryOf(filters: ReportFilterValues): ReportFilterValues {
  const custom = filters.period === 'custom';
  return {
    period: filters.period,
    ...(filters.year ? { year: filters.year } : {}),
    ...(custom && filters.from ? { from: filters.from } : {}),
    ...(custom && filters.to ? { to: filters.to } : {}),
    turma: filters.turma,
    ...(filters.authorId ? { authorId: filters.authorId } : {}),
  };
}

/** The search string of a report's URL (the screen keeps its filters there, so a report can be bookmarked). */
export function reportSearch(filters: ReportFilterValues): URLSearchParams {
  const { period, year, from, to, turma, authorId } = reportQueryOf(filters);
  const params = new URLSearchParams({ period });
  if (year) params.set('year', year);
  if (from) params.set('from', from);
  if (to) params.set('to', to);
  for (const name of turma) params.append('turma', name);
  if (authorId) params.set('authorId', authorId);
  return params;
}
