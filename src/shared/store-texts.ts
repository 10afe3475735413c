import { formatAmount } from './format.ts';
import type { Currency } from './ledger-types.ts';

/**
 * The Loja's words and constants (issue 35), without its zod schemas (store.ts), so a screen that only shows them, such
 * as the staff dashboard's card, loads no zod.
 */

export const STORE_CATEGORIES = ['privilege', 'material', 'experience', 'turma'] as const;
export type StoreCategory = (typeof STORE_CATEGORIES)[number];
export const STORE_CATEGORY_LABELS = {
  privilege: 'Privilégios',
  material: 'Materiais',
  experience: 'Experiências',
  turma: 'Turma',
} as const satisfies Record<StoreCategory, string>;

/** A per-student limit's period: a week (Monday to Sunday), a month, the school year, or ever; in the school's time zone. */
export const LIMIT_PERIODS = ['week', 'month', 'year', 'ever'] as const;
export type LimitPeriod = (typeof LIMIT_PERIODS)[number];
/** How 'Limite de {n} por {período} atingido' and the card's 'esta semana' name each period. */
export const LIMIT_PERIOD_LABELS = {
  week: { per: 'semana', current: 'esta semana' },
  month: { per: 'mês', current: 'este mês' },
  year: { per: 'ano letivo', current: 'neste ano letivo' },
  ever: { per: 'aluno', current: '' },
} as const satisfies Record<LimitPeriod, { per: string; current: string }>;

export const ORDER_STATUSES = ['pending', 'delivered', 'refused', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ORDER_STATUS_LABELS = {
  pending: 'Pendente',
  delivered: 'Entregue',
  refused: 'Recusado',
  cancelled: 'Cancelado',
} as const satisfies Record<OrderStatus, string>;

export const STORE_LIMITS = {
  nameMax: 80,
  descriptionMax: 500,
  refuseReasonMax: 200,
  /** Units any one item may hold in stock, and the most a per-student limit counts. */
  stockMax: 100_000,
  limitCountMax: 1_000,
  /** Orders delivered by one request (`ids`): a turma's day of hand-outs, never a whole school at once. */
  deliverManyMax: 500,
  /** Items a catalogue holds; beyond, creating one is refused. */
  itemsMax: 500,
} as const;

/** The stock left at which a card warns 'Últimas N unidades'. */
export const STORE_LOW_STOCK = 3;

/** The exact texts of the issue, with their particulars. */
export const STORE_TEXTS = {
  insufficient: 'Saldo insuficiente',
  soldOut: 'Esgotado',
  limitReached: (count: number, period: LimitPeriod) => `Limite de ${count} por ${LIMIT_PERIOD_LABELS[period].per} atingido`,
  unavailable: 'Item indisponível',
  ordered: 'Pedido realizado! Aguarde a entrega.',
  cancelled: (price: number, currency: Currency) => `Pedido cancelado. ${formatAmount(currency, price)} devolvidos.`,
  refused: (reason: string) => `Pedido recusado: ${reason}`,
  delivered: 'Pedido entregue',
  goalReached: 'Meta atingida!',
  contributed: (amount: number, currency: Currency, goal: string) => `Contribuição de ${formatAmount(currency, amount)} para ${goal}`,
  lowStock: (left: number) => (left === 1 ? 'Última unidade' : `Últimas ${left} unidades`),
  /** 'Você pode comprar mais 1 esta semana'; for `ever`, 'Você pode comprar mais 1'. */
  limitLeft: (left: number, period: LimitPeriod) =>
    `Você pode comprar mais ${left}${LIMIT_PERIOD_LABELS[period].current ? ` ${LIMIT_PERIOD_LABELS[period].current}` : ''}`,
  missing: (amount: number, currency: Currency) => `Faltam ${formatAmount(currency, amount)}`,
} as const;

/** The store's other texts: its ledger rows' descriptions and the staff's answers. */
export const STORE_ENTRY_TEXTS = {
  purchase: (item: string) => `Compra: ${item}`,
  refund: (item: string) => `Devolução: ${item}`,
  /** The reason a removed student's pending orders are refused with. */
  studentRemoved: 'Estudante removido da escola',
  itemCreated: (name: string) => `Item '${name}' criado`,
  itemUpdated: (name: string) => `Item '${name}' atualizado`,
  itemDeleted: (name: string) => `Item '${name}' excluído`,
  itemDeactivated: (name: string) => `Item '${name}' desativado: ele já tem pedidos`,
  deliveredMany: (delivered: number, skipped: number) =>
    `${delivered === 1 ? '1 pedido entregue' : `${delivered} pedidos entregues`}` +
    (skipped > 0 ? `; ${skipped === 1 ? '1 não estava pendente' : `${skipped} não estavam pendentes`}` : ''),
} as const;
