import { and, eq, inArray, sql, type Column, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/client.ts';
import { storeOrders, students } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, turmaScopeOf, type AdminActor, type StudentActor } from '../auth/actor.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import { idempotencyRecord, type Stored } from '../ledger/idempotency.ts';
import { attemptRecord, recordRefusal } from '../ledger/ledger-attempts.ts';
import { callLedger, formatTemplate } from '../ledger/ledger-call.ts';
import type { LedgerDeps, WriteContext } from '../ledger/ledger.service.ts';
import { studentInScope, turmaInScope } from '../../views/turma-scope.ts';
import type { ErrorCode } from '../../../shared/errors.ts';
import type { Currency } from '../../../shared/ledger-types.ts';
import {
  deliverOrdersInput,
  refuseOrderInput,
  STORE_ENTRY_TEXTS,
  STORE_TEXTS,
  storeItemParams,
  storeOrderParams,
  type DeliverOrdersResult,
  type OrderDecisionResult,
  type PurchaseResult,
  type StoreOrder,
} from '../../../shared/store.ts';
import { issueCode, issueFields } from '../../../shared/validation.ts';
import { isGoalOrder, refuseGoalOrder } from './store-goals.service.ts';
import { timeZoneOf } from './store-records.ts';
import { studentItemWrite } from './student-item-write.ts';
import { STORE_PURCHASE, STORE_REFUND, storeAnswer, type StoreAnswer, type StoreRefusal, type StoreWrite } from './store-answer.ts';

/**
 * The Loja's writes on orders (issue 35, decision 026). A purchase and a refund run in store.sql's functions (one round
 * trip: lock, check, ledger row, order, counters, Idempotency-Key); this service validates, renders the texts, records
 * refusals in the audit like the ledger's, checks a teacher's turmas and publishes the events. A delivery moves no
 * balance: it is one UPDATE of pending orders here.
 */
export type StoreDeps = LedgerDeps;

const REFUSAL_CODES: Record<StoreRefusal, ErrorCode> = {
  student_missing: 'unauthenticated',
  item_missing: 'store_item_not_found',
  is_goal: 'store_is_a_goal',
  unavailable: 'store_unavailable',
  sold_out: 'store_sold_out',
  limit_reached: 'store_limit_reached',
  insufficient: 'insufficient_balance',
  order_missing: 'store_order_not_found',
  not_pending: 'store_order_not_pending',
};

const PURCHASE_DESCRIPTION = formatTemplate((item) => STORE_ENTRY_TEXTS.purchase(item));
const REFUND_DESCRIPTION = formatTemplate((item) => STORE_ENTRY_TEXTS.refund(item));

/** The error a refusal is answered with: the limit's names its count and period ('Limite de 1 por semana atingido'). */
function refusalError(answer: Extract<StoreAnswer, { outcome: 'refused' }>): AppError {
  const code = REFUSAL_CODES[answer.reason];
  if (answer.reason === 'limit_reached' && answer.details) {
    return new AppError(code, { message: STORE_TEXTS.limitReached(answer.details.limit, answer.details.period), details: answer.details });
  }
  return new AppError(code);
}

/** Tells the student's screens (their balance, the feed's line, their orders) and the staff of their turma what a write changed. */
function publishWrite(events: EventBus, studentUuid: string, write: StoreWrite): void {
  events.publishAfterCommit({
    type: 'ledger',
    studentUuids: [studentUuid],
    status: 'completed',
    lines: { entryIds: [write.entryId], batchIds: [], refusedIds: [] },
  });
  events.publishAfterCommit({ type: 'store', studentUuids: [studentUuid], turmaIds: [write.turmaId], catalogue: false });
}

/** A student buys one unit of an item: 201 `{ order, message, balances }`. */
export async function purchase(
  deps: StoreDeps,
  student: StudentActor,
  id: unknown,
  context: WriteContext = {},
): Promise<Stored<PurchaseResult>> {
  const itemId = storeItemParams.shape.id.safeParse(id).data;
  const write = studentItemWrite(deps, student, context, {
    itemId,
    type: 'purchase',
    recorded: (item) => ({ amount: item?.price ?? undefined, description: item ? STORE_ENTRY_TEXTS.purchase(item.name) : undefined }),
  });
  if (!itemId) throw await write.refuse('store_item_not_found');
  const stored = await write.call(
    STORE_PURCHASE,
    storeAnswer,
    { op: 'purchase', itemId },
    { itemId, timeZone: await timeZoneOf(deps), descriptionTemplate: PURCHASE_DESCRIPTION },
    { completed: (body) => publishWrite(deps.events, student.id, body), refused: refusalError },
  );
  return { ...stored, body: purchaseBody(stored.body) };
}

const purchaseBody = ({ order, balances }: StoreWrite): PurchaseResult => ({ order, message: STORE_TEXTS.ordered, balances });

/** The message of an order given back: 'Pedido cancelado. {valor} devolvidos.' or 'Pedido recusado: {motivo}'. */
function refundMessage(order: StoreOrder): string {
  return order.status === 'refused' ? STORE_TEXTS.refused(order.reason ?? '') : STORE_TEXTS.cancelled(order.price, order.currency);
}

type RefundRequest = {
  orderId: string;
  mode: 'refuse' | 'cancel';
  studentId: string | null;
  reason: string | null;
  admin: AdminActor | null;
  ip: string | undefined;
  idempotency: ReturnType<typeof idempotencyRecord> | null;
  at?: Date | undefined;
};

function refundPayload(request: RefundRequest) {
  const { admin } = request;
  return {
    orderId: request.orderId,
    mode: request.mode,
    studentId: request.studentId,
    reason: request.reason,
    adminId: admin?.id ?? null,
    adminName: admin?.name ?? null,
    descriptionTemplate: REFUND_DESCRIPTION,
    audit: admin ? { action: 'store.order.refuse', ip: request.ip ?? null, details: { reason: request.reason } } : null,
    idempotency: request.idempotency ?? null,
    status: 200,
    createdAt: request.at?.toISOString() ?? null,
  };
}

/** Runs a refund and answers its order and balances, or throws its refusal (recorded in the audit like the ledger's). */
async function refund(
  deps: StoreDeps,
  actor: StudentActor | AdminActor,
  request: RefundRequest,
): Promise<Stored<StoreWrite & { message: string }>> {
  const answer = await callLedger(deps.db, STORE_REFUND, storeAnswer, refundPayload(request), false);
  switch (answer.outcome) {
    case 'completed':
    case 'replayed': {
      if (answer.outcome === 'completed') publishWrite(deps.events, answer.body.order.studentId!, answer.body);
      const body = { ...answer.body, message: refundMessage(answer.body.order) };
      return { status: answer.status, body, replayed: answer.outcome === 'replayed' };
    }
    case 'conflict':
      throw new AppError('idempotency_conflict');
    case 'refused': {
      const error = refusalError(answer);
      const [order] = await deps.db
        .select({ currency: storeOrders.currency, price: storeOrders.price, studentUuid: storeOrders.studentUuid })
        .from(storeOrders)
        .where(eq(storeOrders.id, request.orderId));
      const attempt = attemptRecord(
        actor,
        order?.currency ?? 'meritus',
        { amount: order?.price },
        { type: 'refund', fromStudentId: null, toStudentId: order?.studentUuid },
        request.ip,
      );
      await recordRefusal(deps, attempt, error.code);
      throw error;
    }
  }
}

function keyFor(actorKey: string, context: WriteContext, request: unknown) {
  return idempotencyRecord({ actorKey, key: context.idempotencyKey, request }) ?? null;
}

/** The owner cancels a pending order: 'Pedido cancelado. {valor} devolvidos.', the price back at once. */
export async function cancelOrder(deps: StoreDeps, student: StudentActor, id: unknown, context: WriteContext = {}) {
  const orderId = storeOrderParams.shape.id.safeParse(id).data;
  if (!orderId) throw new AppError('store_order_not_found');
  const idempotency = keyFor(`student:${student.id}`, context, { op: 'cancel', orderId });
  const result = await refund(deps, student, {
    orderId,
    mode: 'cancel',
    studentId: student.id,
    reason: null,
    admin: null,
    ip: context.ip,
    idempotency,
  });
  const { order, message, balances } = result.body;
  return { ...result, body: { order, message, balances } };
}

/** An order as a member of the staff may act on it: missing (404), or of a student outside a teacher's turmas (403). */
async function orderForStaff(db: DbOrTx, admin: AdminActor, orderId: string) {
  const scope = turmaScopeOf(admin);
  const [order] = await db
    .select({
      id: storeOrders.id,
      inScope: sql<boolean>`${studentInScope(storeOrders.studentUuid, scope)} OR (${storeOrders.studentUuid} IS NULL AND ${goalInScope(scope)})`,
    })
    .from(storeOrders)
    .where(eq(storeOrders.id, orderId));
  if (!order) throw new AppError('store_order_not_found');
  if (!order.inScope) throw new AppError('student_outside_turmas');
  return order;
}

/** A turma goal's order (its item: `itemId`) is seen by the staff of its turmas (every turma when it names none). */
export function goalInScope(scope: readonly string[] | null, itemId: SQL | Column = storeOrders.itemId) {
  if (scope === null) return sql`TRUE`;
  return sql`(NOT EXISTS (SELECT 1 FROM store_item_turmas t WHERE t.item_id = ${itemId})
    OR EXISTS (SELECT 1 FROM store_item_turmas t WHERE t.item_id = ${itemId} AND ${turmaInScope(sql`t.turma_id`, scope)}))`;
}

function parsedOrRefused<T>(
  result: { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } },
): T {
  if (result.success) return result.data;
  const { issues } = result.error;
  throw new AppError(issueCode(issues[0]!), { status: 400, fields: issueFields(issues) });
}

/** The staff refuse a pending order with a reason the student sees: 'Pedido recusado: {motivo}', the price back at once. */
export async function refuseOrder(
  deps: StoreDeps,
  admin: AdminActor,
  id: unknown,
  input: unknown,
  context: WriteContext = {},
): Promise<Stored<OrderDecisionResult>> {
  const orderId = storeOrderParams.shape.id.safeParse(id).data;
  if (!orderId) throw new AppError('store_order_not_found');
  const { reason } = parsedOrRefused(refuseOrderInput.safeParse(input));
  await orderForStaff(deps.db, admin, orderId);
  // A turma goal's order gives back every contribution (decision 026).
  if (await isGoalOrder(deps.db, orderId)) return refuseGoalOrder(deps, admin, orderId, reason, context);
  const idempotency = keyFor(`admin:${admin.id}`, context, { op: 'refuse', orderId, reason });
  const result = await refund(deps, admin, { orderId, mode: 'refuse', studentId: null, reason, admin, ip: context.ip, idempotency });
  return { ...result, body: { order: result.body.order, message: result.body.message } };
}

/** Tells the staff of the orders' turmas (and their students) that orders were decided without moving a balance. */
async function publishDecided(deps: StoreDeps, orderIds: string[]): Promise<void> {
  if (orderIds.length === 0) return;
  const rows = rowsOf<{ student_id: string | null; turma_id: string | null }>(
    await deps.db.execute(sql`SELECT DISTINCT o.student_id, s.turma_id FROM store_orders o LEFT JOIN students s ON s.id = o.student_id
      WHERE o.id IN (${sql.join(
        orderIds.map((orderId) => sql`${orderId}`),
        sql`, `,
      )})`),
  );
  const studentUuids = rows.flatMap((row) => (row.student_id ? [row.student_id] : []));
  // A turma goal's order names no student: every staff screen that may see it is told.
  const turmaIds = rows.some((row) => row.turma_id === null) ? 'all' : [...new Set(rows.map((row) => row.turma_id!))];
  deps.events.publishAfterCommit({ type: 'store', studentUuids, turmaIds, catalogue: false });
}

/** Delivers one pending order: 'Pedido entregue'. */
export async function deliverOrder(
  deps: StoreDeps,
  admin: AdminActor,
  id: unknown,
  context: WriteContext = {},
): Promise<OrderDecisionResult> {
  const orderId = storeOrderParams.shape.id.safeParse(id).data;
  if (!orderId) throw new AppError('store_order_not_found');
  await orderForStaff(deps.db, admin, orderId);
  const [order] = await deliverPending(deps, admin, [orderId], context);
  if (!order) throw new AppError('store_order_not_pending');
  return { order, message: STORE_TEXTS.delivered };
}

/** Delivers the pending orders among `ids` in one statement, with one audit record; answers them as delivered. */
async function deliverPending(deps: StoreDeps, admin: AdminActor, ids: string[], context: WriteContext): Promise<StoreOrder[]> {
  const delivered = await deps.db.transaction(async (tx) => {
    const rows = await tx
      .update(storeOrders)
      .set({ status: 'delivered', decidedAt: context.at ?? new Date(), decidedBy: admin.id })
      .where(and(inArray(storeOrders.id, ids), eq(storeOrders.status, 'pending')))
      .returning();
    if (rows.length > 0) {
      await recordAudit(tx, {
        actor: auditActor(admin),
        action: 'store.order.deliver',
        ip: context.ip,
        details: { orderIds: rows.map((row) => row.id), count: rows.length },
      });
    }
    return rows;
  });
  await publishDecided(
    deps,
    delivered.map((row) => row.id),
  );
  return delivered.map(orderView);
}

/** An order row as the API shows it. */
function orderView(row: typeof storeOrders.$inferSelect): StoreOrder {
  return {
    id: row.id,
    itemId: row.itemId,
    studentId: row.studentUuid,
    price: row.price,
    currency: row.currency as Currency,
    status: row.status,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

/**
 * Delivers several orders at once (a turma's day of hand-outs): the pending ones are delivered, the others (decided
 * already, or unknown) left as they are and counted. One order of a student outside a teacher's turmas refuses all.
 */
export async function deliverOrders(
  deps: StoreDeps,
  admin: AdminActor,
  input: unknown,
  context: WriteContext = {},
): Promise<DeliverOrdersResult> {
  const ids = [...new Set(parsedOrRefused(deliverOrdersInput.safeParse(input)).ids)];
  const scope = turmaScopeOf(admin);
  if (scope !== null) {
    const [outside] = await deps.db
      .select({ id: storeOrders.id })
      .from(storeOrders)
      .where(
        and(
          inArray(storeOrders.id, ids),
          sql`NOT (${studentInScope(storeOrders.studentUuid, scope)} OR (${storeOrders.studentUuid} IS NULL AND ${goalInScope(scope)}))`,
        ),
      )
      .limit(1);
    if (outside) throw new AppError('student_outside_turmas');
  }
  const delivered = (await deliverPending(deps, admin, ids, context)).length;
  const skipped = ids.length - delivered;
  return { delivered, skipped, message: STORE_ENTRY_TEXTS.deliveredMany(delivered, skipped) };
}

/**
 * A student being removed (admin-students.service.ts, inside its transaction, with the student's row locked): each of
 * their pending orders is refused and refunded, 'Estudante removido da escola', in the same transaction as the removal.
 */
export async function refuseOrdersOfRemovedStudent(
  tx: Tx,
  events: EventBus,
  admin: AdminActor,
  studentUuid: string,
  ip: string | undefined,
): Promise<void> {
  const pending = await tx
    .select({ id: storeOrders.id })
    .from(storeOrders)
    .where(and(eq(storeOrders.studentUuid, studentUuid), eq(storeOrders.status, 'pending')))
    .orderBy(storeOrders.id);
  const entryIds: string[] = [];
  for (const { id } of pending) {
    const payload = refundPayload({
      orderId: id,
      mode: 'refuse',
      studentId: null,
      reason: STORE_ENTRY_TEXTS.studentRemoved,
      admin,
      ip,
      idempotency: null,
    });
    const answer = await callLedger(tx, STORE_REFUND, storeAnswer, payload, true);
    if (answer.outcome !== 'completed') throw new AppError('internal');
    entryIds.push(answer.body.entryId);
  }
  if (entryIds.length === 0) return;
  const [student] = await tx.select({ turmaId: students.turmaId }).from(students).where(eq(students.id, studentUuid));
  await events.publish(tx, {
    type: 'ledger',
    studentUuids: [studentUuid],
    status: 'completed',
    lines: { entryIds, batchIds: [], refusedIds: [] },
  });
  await events.publish(tx, { type: 'store', studentUuids: [studentUuid], turmaIds: student ? [student.turmaId] : 'all', catalogue: false });
}
