import { z } from 'zod';
import { GOAL_IDS } from './dashboard-definitions.ts';
import { textInput } from './validation.ts';
import { CURRENCIES } from './ledger-types.ts';
import { schoolPeriodFilter, schoolYearFilter } from './school-year.ts';

/**
 * The administrator dashboard (/admin). Every figure is computed from the database;
 * each card carries the same figure for the previous period so the change is real.
 */

export const statChange = z.object({
  /** The same figure at the end of the previous period. */
  previous: z.number().int(),
  delta: z.number().int(),
  /** Change in percent, one decimal; null when the previous figure was 0. */
  percent: z.number().nullable(),
});
export type StatChange = z.infer<typeof statChange>;

export const dashboardStat = z.object({ value: z.number().int(), change: statChange });
export type DashboardStat = z.infer<typeof dashboardStat>;

export const goalView = z.object({
  id: z.enum(GOAL_IDS),
  label: z.string(),
  description: z.string(),
  unit: z.enum(['percent', 'count', 'meritus']),
  target: z.number().int(),
  /** Where the school stands now, computed from the data. */
  current: z.number(),
  /** current / target in percent, capped at 100. */
  progress: z.number(),
  /** null while the default target is in use. */
  updatedAt: z.string().nullable(),
});
export type GoalView = z.infer<typeof goalView>;

export const activityDay = z.object({
  /** Calendar day in Brasília time, YYYY-MM-DD. */
  date: z.string(),
  count: z.number().int(),
});
export type ActivityDay = z.infer<typeof activityDay>;

/** How many of the Loja's best sellers the card lists. */
export const DASHBOARD_TOP_ITEMS = 3;

/** The Loja's card (decision 026): the period's days, over the dashboard's students (a teacher's turmas). */
export const dashboardStore = z.object({
  /** Spent in the Loja (purchases and contributions), less refunds, per currency. */
  spent: z.object({ meritus: z.number().int(), estelecas: z.number().int() }),
  /** Méritus awarded by the staff in the same days: what the economy put in, beside what it spent. */
  awarded: z.number().int(),
  /** Orders to deliver now, and since when the oldest waits. */
  openOrders: z.number().int(),
  oldestOrderAt: z.string().nullable(),
  soldOut: z.array(z.object({ itemId: z.uuid(), name: z.string() })),
  /** The most spent on, with what was spent in its currency and units bought. */
  topItems: z.array(
    z.object({ itemId: z.uuid(), name: z.string(), currency: z.enum(CURRENCIES), spent: z.number().int(), units: z.number().int() }),
  ),
});
export type DashboardStore = z.infer<typeof dashboardStore>;

/**
 * GET /api/admin/dashboard?year=&period=: the period of the figures that have one (operations, awards, the Loja, the
 * activity chart), a school year or period as the reports take it (decision 036); the last 7 days without either.
 */
export const dashboardQuery = z.object({ year: schoolYearFilter.optional(), period: schoolPeriodFilter.optional() });
export type DashboardQuery = z.infer<typeof dashboardQuery>;

/** The days the period's figures cover (the school's calendar), and the days of equal length before them. */
export const dashboardPeriod = z.object({
  /** '1º bimestre de 2026', 'Ano letivo 2025'; null for the last 7 days. */
  label: z.string().nullable(),
  from: z.string(),
  /** Today while the period runs. */
  to: z.string(),
  previousFrom: z.string(),
  previousTo: z.string(),
  /** The activity chart's bars: a day each up to two weeks, a week (the first day, then each Monday) up to 15, else a month. */
  bucket: z.enum(['day', 'week', 'month']),
});
export type DashboardPeriod = z.infer<typeof dashboardPeriod>;

export const dashboardSummary = z.object({
  period: dashboardPeriod,
  totalStudents: dashboardStat,
  meritusInCirculation: dashboardStat,
  /** Méritus operations in the period (the last 7 days by default), against the days before it. */
  transactions7d: dashboardStat,
  activeStudents: dashboardStat,
  overview: z.object({
    /** Students with a Méritus balance above 0 over all students, percent with one decimal. */
    participationRate: z.number(),
    studentsWithBalance: z.number().int(),
    /** Méritus in circulation divided by the number of students, rounded. */
    averagePerStudent: z.number().int(),
    /** Méritus operations per day (or week, see `period.bucket`) of the period, oldest first: the last 7 days by default. */
    weeklyActivity: z.array(activityDay),
  }),
  goals: z.array(goalView),
  store: dashboardStore,
  generatedAt: z.string(),
});
export type DashboardSummary = z.infer<typeof dashboardSummary>;

/** Any text is accepted here so an unknown goal answers 404, not a validation error. */
export const goalParams = z.object({ id: textInput({ max: 50, trim: false }) });

/** PUT /api/admin/dashboard/goals/:id */
export const updateGoalInput = z.object({
  target: z.number({ error: 'goal_invalid_target' }).int({ error: 'goal_invalid_target' }).min(1, { error: 'goal_invalid_target' }),
});
export type UpdateGoalInput = z.input<typeof updateGoalInput>;

export const goalTarget = z.object({ id: z.enum(GOAL_IDS), label: z.string(), target: z.number().int(), updatedAt: z.string() });
export type GoalTarget = z.infer<typeof goalTarget>;
