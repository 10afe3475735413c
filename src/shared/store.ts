import { z } from 'zod';
import type { ErrorCode } from './errors.ts';
import { CURRENCIES } from './ledger-types.ts';
import { LIMIT_PERIODS, ORDER_STATUSES, STORE_CATEGORIES, STORE_LIMITS, type StoreCategory } from './store-texts.ts';
import { amountSchema, calendarDate, optionalText, requiredText, rowId, textInput } from './validation.ts';

/**
 * The Loja (issue 35, decision 026): items bought with Méritus or Estelecas, orders the staff deliver or refuse, and turma
 * goals every student of a turma contributes to. One schema for the screens, the API and the demo school.
 */

export * from './store-texts.ts';

/** A calendar day 'YYYY-MM-DD' (the school's time zone gives it its hours), or null. */
const calendarDay = (code: ErrorCode) =>
  textInput({ max: 10, error: code, maxError: code })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: code })
    .refine((value) => calendarDate(Number(value.slice(0, 4)), Number(value.slice(5, 7)), Number(value.slice(8, 10))) !== null, {
      error: code,
    });

export const storeLimit = z.object(
  {
    count: z
      .number({ error: 'store_limit_invalid' })
      .int({ error: 'store_limit_invalid' })
      .min(1, { error: 'store_limit_invalid' })
      .max(STORE_LIMITS.limitCountMax, { error: 'store_limit_invalid' }),
    period: z.enum(LIMIT_PERIODS, { error: 'store_limit_invalid' }),
  },
  { error: 'store_limit_invalid' },
);
export type StoreLimit = z.infer<typeof storeLimit>;

/** An item as the staff see it and as the student's list starts it. */
export const storeItem = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  /** An image of the Data-Base archive (its picker), or null. */
  imageId: z.uuid().nullable(),
  /** Null for a turma goal. */
  price: z.number().int().nullable(),
  currency: z.enum(CURRENCIES),
  /** Units in stock when created or last edited, all orders included; null: ilimitado. */
  stock: z.number().int().nullable(),
  limit: storeLimit.nullable(),
  availableFrom: z.string().nullable(),
  availableUntil: z.string().nullable(),
  /** Null: every turma may buy. */
  turmaIds: z.array(z.uuid()).nullable(),
  category: z.enum(STORE_CATEGORIES),
  /** A turma goal's amount to reach (category 'turma'); null for an item with a price. */
  goal: z.number().int().nullable(),
  /** The last day a turma goal takes contributions (school's time zone); null for an item with a price. */
  deadline: z.string().nullable(),
  active: z.boolean(),
});
export type StoreItem = z.infer<typeof storeItem>;

/** What the staff's catalogue shows beside an item. */
export const adminStoreItem = storeItem.extend({
  /** Units left (stock minus pending and delivered orders); null: ilimitado. */
  stockLeft: z.number().int().nullable(),
  /** Orders not refused nor cancelled; an item with any order is deactivated, never deleted. */
  orders: z.number().int(),
  pendingOrders: z.number().int(),
  /** A turma goal's progress (contributions not refunded); null for an item with a price. */
  raised: z.number().int().nullable(),
});
export type AdminStoreItem = z.infer<typeof adminStoreItem>;

/** An item as a student may buy it now: GET /api/store/items answers only these. */
export const studentStoreItem = storeItem.extend({
  stockLeft: z.number().int().nullable(),
  /** What this student may still buy under the item's limit in the current period; null: no limit. */
  limitLeft: z.number().int().nullable(),
  raised: z.number().int().nullable(),
  myContribution: z.number().int().nullable(),
});
export type StudentStoreItem = z.infer<typeof studentStoreItem>;

const nameField = requiredText('store_name_required', STORE_LIMITS.nameMax, { maxError: 'store_name_too_long' });
const descriptionField = textInput({ max: STORE_LIMITS.descriptionMax, maxError: 'store_description_too_long' });
const imageField = rowId({ error: 'store_image_not_found' }).nullable();
const priceField = amountSchema({
  missing: 'store_price_invalid',
  notPositive: 'store_price_invalid',
  notInteger: 'store_price_invalid',
}).nullable();
const currencyField = z.enum(CURRENCIES, { error: 'validation' });
const stockField = z
  .number({ error: 'store_stock_invalid' })
  .int({ error: 'store_stock_invalid' })
  .min(0, { error: 'store_stock_invalid' })
  .max(STORE_LIMITS.stockMax, { error: 'store_stock_invalid' })
  .nullable();
const dayField = calendarDay('store_invalid_date').nullable();
const turmasField = z
  .array(rowId({ error: 'store_turmas_invalid' }), { error: 'store_turmas_invalid' })
  .min(1, { error: 'store_turmas_invalid' })
  .max(200, { error: 'store_turmas_invalid' })
  .nullable();
const categoryField = z.enum(STORE_CATEGORIES, { error: 'store_category_invalid' });
const goalField = amountSchema({
  missing: 'store_goal_invalid',
  notPositive: 'store_goal_invalid',
  notInteger: 'store_goal_invalid',
}).nullable();
const activeField = z.boolean({ error: 'validation' });

/**
 * The rules an item's fields hold together, for a creation and for an edit merged onto the item: a turma goal has a goal
 * and a deadline and no price, stock or limit; any other item a price and no goal; the period's days in order.
 */
export function storeItemRefusal(item: {
  category: StoreCategory;
  price: number | null;
  goal: number | null;
  deadline: string | null;
  stock: number | null;
  limit: StoreLimit | null;
  availableFrom: string | null;
  availableUntil: string | null;
}): ErrorCode | null {
  if (item.category === 'turma') {
    if (item.goal === null) return 'store_goal_invalid';
    if (item.deadline === null) return 'store_deadline_required';
    if (item.price !== null || item.stock !== null || item.limit !== null) return 'store_goal_fields';
  } else {
    if (item.price === null) return 'store_price_invalid';
    if (item.goal !== null || item.deadline !== null) return 'store_goal_fields';
  }
  if (item.availableFrom !== null && item.availableUntil !== null && item.availableFrom > item.availableUntil) return 'store_period_order';
  return null;
}

/** POST /api/admin/store/items. */
export const storeItemInput = z
  .object({
    name: nameField,
    description: descriptionField.default(''),
    imageId: imageField.default(null),
    price: priceField.default(null),
    currency: currencyField,
    stock: stockField.default(null),
    limit: storeLimit.nullable().default(null),
    availableFrom: dayField.default(null),
    availableUntil: dayField.default(null),
    turmaIds: turmasField.default(null),
    category: categoryField,
    goal: goalField.default(null),
    deadline: dayField.default(null),
    active: activeField.default(true),
  })
  .superRefine((item, context) => {
    const refusal = storeItemRefusal(item);
    if (refusal) context.addIssue({ code: 'custom', message: refusal, path: [] });
  });
export type StoreItemInput = z.input<typeof storeItemInput>;

/** PATCH /api/admin/store/items/:id: what changes (the service checks storeItemRefusal on the merged item). */
export const storeItemUpdate = z.object({
  name: nameField.optional(),
  description: descriptionField.optional(),
  imageId: imageField.optional(),
  price: priceField.optional(),
  currency: currencyField.optional(),
  stock: stockField.optional(),
  limit: storeLimit.nullable().optional(),
  availableFrom: dayField.optional(),
  availableUntil: dayField.optional(),
  turmaIds: turmasField.optional(),
  category: categoryField.optional(),
  goal: goalField.optional(),
  deadline: dayField.optional(),
  active: activeField.optional(),
  /** The item's place in the catalogue (0 first); the others move to make room. */
  position: z.number({ error: 'validation' }).int({ error: 'validation' }).min(0, { error: 'validation' }).max(10_000).optional(),
});
export type StoreItemUpdate = z.input<typeof storeItemUpdate>;

export const storeItemParams = z.object({ id: rowId({ error: 'store_item_not_found' }) });
export const storeOrderParams = z.object({ id: rowId({ error: 'store_order_not_found' }) });

/** POST /api/store/items/:id/contributions. */
export const contributionInput = z.object(
  { amount: amountSchema({ missing: 'missing_fields', notPositive: 'amount_not_positive' }) },
  { error: 'missing_fields' },
);
export type ContributionInput = z.input<typeof contributionInput>;

/** POST /api/admin/store/orders/:id/refuse: why, which the student sees. */
export const refuseOrderInput = z.object(
  { reason: requiredText('store_refuse_reason_required', STORE_LIMITS.refuseReasonMax, { maxError: 'store_refuse_reason_too_long' }) },
  { error: 'store_refuse_reason_required' },
);
export type RefuseOrderInput = z.input<typeof refuseOrderInput>;

/** POST /api/admin/store/orders/deliver: several orders at once (those not pending are left as they are, and counted). */
export const deliverOrdersInput = z.object(
  {
    ids: z
      .array(rowId({ error: 'store_order_not_found' }), { error: 'validation' })
      .min(1, { error: 'validation' })
      .max(STORE_LIMITS.deliverManyMax, { error: 'store_deliver_too_many' }),
  },
  { error: 'validation' },
);
export const deliverOrdersResult = z.object({ delivered: z.number().int(), skipped: z.number().int(), message: z.string() });
export type DeliverOrdersResult = z.infer<typeof deliverOrdersResult>;

export const storeOrder = z.object({
  id: z.uuid(),
  itemId: z.uuid(),
  /** Null for a turma goal's order (the turma's, not one student's). */
  studentId: z.uuid().nullable(),
  price: z.number().int(),
  currency: z.enum(CURRENCIES),
  status: z.enum(ORDER_STATUSES),
  /** Why it was refused (the student sees it), else null. */
  reason: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type StoreOrder = z.infer<typeof storeOrder>;

/** An order in the student's 'Meus pedidos'. */
export const myOrder = storeOrder.extend({ itemName: z.string(), imageId: z.uuid().nullable() });
export type MyOrder = z.infer<typeof myOrder>;

/** An order in the staff's queue: who bought what, in which turma, and who decided it. */
export const adminOrder = storeOrder.extend({
  itemName: z.string(),
  student: z.object({ id: z.uuid(), studentId: z.string(), name: z.string(), turma: z.string() }).nullable(),
  /** The turma goal's turmas, for an order of a goal. */
  turmas: z.array(z.string()),
  decidedBy: z.string().nullable(),
});
export type AdminOrder = z.infer<typeof adminOrder>;

export const adminOrdersQuery = z.object({
  status: z.enum(ORDER_STATUSES, { error: 'validation' }).optional(),
  /** A turma's id. */
  turma: rowId({ error: 'turma_not_found' }).optional(),
  item: rowId({ error: 'store_item_not_found' }).optional(),
  /** The period, calendar days of the school's time zone, both included. */
  from: calendarDay('report_invalid_date').optional(),
  to: calendarDay('report_invalid_date').optional(),
  /** A student's name or matrícula. */
  q: optionalText(100),
  page: z.coerce.number({ error: 'validation' }).int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number({ error: 'validation' }).int().min(1).max(200).default(50),
});
export type AdminOrdersQuery = z.input<typeof adminOrdersQuery>;
export const adminOrdersPage = z.object({ items: z.array(adminOrder), total: z.number().int(), page: z.number().int() });
export type AdminOrdersPage = z.infer<typeof adminOrdersPage>;

export const pickListQuery = z.object({ turma: rowId({ error: 'turma_not_found' }) });

const storeBalances = z.object({ meritus: z.number().int(), totalEarned: z.number().int(), estelecas: z.number().int() });

/** A purchase's answer (201), like the ledger's operations: the order, the message, the balances after it. */
export const purchaseResult = z.object({ order: storeOrder, message: z.string(), balances: storeBalances });
export type PurchaseResult = z.infer<typeof purchaseResult>;

/** A cancellation's answer: the order (cancelled), 'Pedido cancelado. {valor} devolvidos.', the balances after it. */
export const cancelResult = purchaseResult;

/** A contribution's answer: the goal's progress after it. */
export const contributionResult = z.object({
  message: z.string(),
  balances: storeBalances,
  raised: z.number().int(),
  myContribution: z.number().int(),
  /** The goal was reached by this contribution: its order exists now. */
  reached: z.boolean(),
});
export type ContributionResult = z.infer<typeof contributionResult>;

/** A staff decision's answer (deliver, refuse): the order after it and the message. */
export const orderDecisionResult = z.object({ order: storeOrder, message: z.string() });
export type OrderDecisionResult = z.infer<typeof orderDecisionResult>;
