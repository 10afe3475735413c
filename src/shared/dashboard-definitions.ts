/**
 * What the administrator dashboard's figures and goals mean: the cards' periods and explanations,
 * the goals with their defaults. Plain values without zod, so the admin area's home screen loads
 * without the schema library (its answers' shapes are in dashboard.ts).
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
  transactions7d:
    'Operações de Méritus (transferências, adições e remoções) de hoje e dos 6 dias anteriores, ' +
    'como no gráfico de atividade semanal, comparadas com os 7 dias antes deles.',
  activeStudents: 'Estudantes que entraram no portal nas últimas 24 horas, comparados com as 24 horas anteriores.',
} as const;

export const GOAL_IDS = ['participation', 'weekly_transactions', 'monthly_awarded'] as const;
export type GoalId = (typeof GOAL_IDS)[number];
export type GoalUnit = 'percent' | 'count' | 'meritus';

/** What each goal measures; targets live in the `goals` table, these are the defaults. */
export const GOAL_DEFINITIONS: Record<GoalId, { label: string; description: string; unit: GoalUnit; defaultTarget: number; max: number }> =
  {
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

export function isGoalId(value: string): value is GoalId {
  return (GOAL_IDS as readonly string[]).includes(value);
}

/** Change in percent with one decimal, or null when there is nothing to compare with. */
export function percentChange(value: number, previous: number): number | null {
  if (previous === 0) return null;
  return Math.round(((value - previous) / previous) * 1000) / 10;
}
