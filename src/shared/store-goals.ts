import { formatAmount } from './format.ts';
import type { Currency } from './ledger-types.ts';

/**
 * Turma goals (issue 35, decision 026): why a goal's contributions are given back, and the pt-BR texts of it. The
 * contribution's own texts are the (STORE_TEXTS.contributed, STORE_TEXTS.goalReached in ./store.ts).
 */

/** Why every contribution of a goal was given back: its deadline passed before it was reached, or its order was refused. */
export const GOAL_REFUND_REASONS = ['deadline', 'order_refused'] as const;
export type GoalRefundReason = (typeof GOAL_REFUND_REASONS)[number];

export const GOAL_TEXTS = {
  /** The refund row's description, which the student's history shows. */
  refundDescription: {
    deadline: (goal: string) => `Devolução: a meta ${goal} não foi atingida no prazo`,
    order_refused: (goal: string) => `Devolução: o pedido da meta ${goal} foi recusado`,
  },
  /** What each contributor is told, with what they get back. */
  refunded: {
    deadline: (amount: number, currency: Currency, goal: string) =>
      `A meta ${goal} não foi atingida no prazo: ${formatAmount(currency, amount)} devolvidos.`,
    order_refused: (amount: number, currency: Currency, goal: string) =>
      `O pedido da meta ${goal} foi recusado: ${formatAmount(currency, amount)} devolvidos.`,
  },
  /** store_goal_exceeds, with what is left. */
  exceeds: (left: number, currency: Currency) => `A contribuição passa do que falta para a meta: faltam ${formatAmount(currency, left)}`,
  /** store_goal_below_raised, with what was raised. */
  belowRaised: (raised: number, currency: Currency) =>
    `A meta deve ficar acima do que já foi arrecadado (${formatAmount(currency, raised)})`,
  /** Who the ledger names as the refund's author when the deadline gave it back. */
  refundActor: 'Loja',
} as const satisfies {
  refundDescription: Record<GoalRefundReason, (goal: string) => string>;
  refunded: Record<GoalRefundReason, (amount: number, currency: Currency, goal: string) => string>;
  [key: string]: unknown;
};

/** A goal's progress as a live event carries it to the students of its turmas and the staff. */
export type GoalProgress = {
  itemId: string;
  goal: number;
  raised: number;
  /** Reached: its order waits for the staff. */
  reached: boolean;
  /** Its contributions were given back (deadline or refused order): it takes no more. */
  refunded: boolean;
};
