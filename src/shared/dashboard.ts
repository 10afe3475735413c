import { z } from 'zod';
import { textInput } from './validation.ts';

/**
 * The administrator dashboard (/admin). Every figure is computed from the database;
 * each card carries the same figure for the previous period so the change is real.
 */

/** How a card's change is measured, shown under each card. */
export const DASHBOARD_PERIODS = {
  totalStudents: 'vs. 30 dias atrás',
  meritusInCirculation: 'vs. 7 dias atrás',
  transactions7d: 'vs. 7 dias anteriores',
  activeStudents: 'vs. 24 h anteriores',
} as const;

/** Longer explanations for the cards' tooltips. */
export const DASHBOARD_DEFINITIONS = {
  totalStudents: 'Estudantes cadastrados hoje comparados com os cadastrados há 30 dias.',
  meritusInCirculation: 'Soma dos saldos de Méritus dos estudantes atuais, comparada com a mesma soma há 7 dias.',
  transactions7d: 'Operações de Méritus (transferências, adições e remoções) nos últimos 7 dias, comparadas com os 7 dias anteriores.',
  activeStudents: 'Estudantes que entraram no portal nas últimas 24 horas, comparados com as 24 horas anteriores.',
} as const;

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

export const GOAL_IDS = ['participation', 'weekly_transactions', 'monthly_awarded'] as const;
export type GoalId = (typeof GOAL_IDS)[number];
export type GoalUnit = 'percent' | 'count' | 'meritus';

/** What each goal measures; targets live in the `goals` table, these are the defaults. */
export const GOAL_DEFINITIONS: Record<GoalId, { label: string; description: string; unit: GoalUnit; defaultTarget: number; max: number }> = {
  participation: {
    label: 'Participação',
    description: 'Estudantes com saldo de Méritus acima de zero, em % do total',
    unit: 'percent',
    defaultTarget: 95,
    max: 100,
  },
  weekly_transactions: {
    label: 'Transações na semana',
    description: 'Operações de Méritus nos últimos 7 dias',
    unit: 'count',
    defaultTarget: 100,
    max: 1_000_000,
  },
  monthly_awarded: {
    label: 'Méritus concedidos no mês',
    description: 'Adições e recompensas de Méritus desde o dia 1º deste mês',
    unit: 'meritus',
    defaultTarget: 5_000,
    max: 100_000_000,
  },
};

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

export const dashboardSummary = z.object({
  totalStudents: dashboardStat,
  meritusInCirculation: dashboardStat,
  transactions7d: dashboardStat,
  activeStudents: dashboardStat,
  overview: z.object({
    /** Students with a Méritus balance above 0 over all students, percent with one decimal. */
    participationRate: z.number(),
    studentsWithBalance: z.number().int(),
    /** Méritus in circulation divided by the number of students, rounded. */
    averagePerStudent: z.number().int(),
    /** Méritus operations per day, the last 7 days (oldest first, today last). */
    weeklyActivity: z.array(activityDay),
  }),
  goals: z.array(goalView),
  generatedAt: z.string(),
});
export type DashboardSummary = z.infer<typeof dashboardSummary>;

/** Any text is accepted here so an unknown goal answers 404, not a validation error. */
export const goalParams = z.object({ id: textInput({ max: 50, trim: false }) });

export function isGoalId(value: string): value is GoalId {
  return (GOAL_IDS as readonly string[]).includes(value);
}

/** PUT /api/admin/dashboard/goals/:id */
export const updateGoalInput = z.object({
  target: z
    .number({ error: 'goal_invalid_target' })
    .int({ error: 'goal_invalid_target' })
    .min(1, { error: 'goal_invalid_target' }),
});
export type UpdateGoalInput = z.input<typeof updateGoalInput>;

export const goalTarget = z.object({ id: z.enum(GOAL_IDS), label: z.string(), target: z.number().int(), updatedAt: z.string() });
export type GoalTarget = z.infer<typeof goalTarget>;

/** Change in percent with one decimal, or null when there is nothing to compare with. */
export function percentChange(value: number, previous: number): number | null {
  if (previous === 0) return null;
  return Math.round(((value - previous) / previous) * 1000) / 10;
}
