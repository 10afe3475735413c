import { z } from 'zod';
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { rowsOf, type Db, type DbOrTx, type PreparedStatement } from '../../db/client.ts';
import { storeGoalContributions, storeGoalProgress, storeItems, storeOrders } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import type { AdminActor, StudentActor } from '../auth/actor.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import { idempotencyRecord, type Stored } from '../ledger/idempotency.ts';
import { callLedger, formatTemplate } from '../ledger/ledger-call.ts';
import type { LedgerDeps, WriteContext } from '../ledger/ledger.service.ts';
import type { ErrorCode } from '../../../shared/errors.ts';
import { dayIn } from '../../../shared/format.ts';
import type { Currency } from '../../../shared/ledger-types.ts';
import {
  contributionInput,
  contributionResult,
  STORE_TEXTS,
  storeItemParams,
  storeOrder,
  type ContributionResult,
  type OrderDecisionResult,
} from '../../../shared/store.ts';
import { itemForRecord, timeZoneOf } from './store-records.ts';
import { studentItemWrite } from './student-item-write.ts';
import { GOAL_TEXTS, type GoalRefundReason } from '../../../shared/store-goals.ts';
import { issueCode, issueFields } from '../../../shared/validation.ts';

/**
 * Turma goals (issue 35, decision 026): a student of the goal's turmas contributes any amount up to what is left; the
 * contribution that reaches the goal creates its one order for the staff; a goal whose deadline passes first, or whose
 * order is refused, gives every contribution back, each as its own `refund` ledger row. The atomic parts are
 * store-goals.sql's; this service validates, renders the texts, records refusals like the ledger's and publishes events.
 */
export type StoreGoalDeps = LedgerDeps;

const STORE_GOAL_CONTRIBUTE: PreparedStatement = {
  name: 'store_goal_contribute',
  text: 'SELECT store_goal_contribute($1::jsonb) AS answer',
};
const STORE_GOAL_REFUND: PreparedStatement = { name: 'store_goal_refund', text: 'SELECT store_goal_refund($1::jsonb) AS answer' };
const STORE_GOAL_REFUSE_ORDER: PreparedStatement = {
  name: 'store_goal_refuse_order',
  text: 'SELECT store_goal_refuse_order($1::jsonb) AS answer',
};

const turmaIdsOf = z.array(z.uuid()).nullable();

/** What store-goals.sql answers; a completed body is read with the shared schema plus what only the server uses. */
function goalAnswer<B extends z.ZodType, R extends readonly [string, ...string[]]>(body: B, reasons: R) {
  return z.discriminatedUnion('outcome', [
    z.object({ outcome: z.enum(['completed', 'replayed']), status: z.number().int(), body }),
    z.object({
      outcome: z.literal('refused'),
      reason: z.enum(reasons),
      details: z.object({ left: z.number().int().optional() }).nullable(),
    }),
    z.object({ outcome: z.literal('conflict') }),
  ]);
}

const contributionAnswer = goalAnswer(
  contributionResult.extend({ entryId: z.uuid(), orderId: z.uuid().nullable(), turmaIds: turmaIdsOf }),
  ['not_found', 'not_a_goal', 'student_missing', 'unavailable', 'reached', 'exceeds', 'insufficient'] as const,
);
const refundAnswer = goalAnswer(z.object({ entryIds: z.array(z.uuid()), studentUuids: z.array(z.uuid()), turmaIds: turmaIdsOf }), [
  'not_due',
] as const);
const refuseOrderAnswer = goalAnswer(
  z.object({
    order: storeOrder,
    message: z.string(),
    entryIds: z.array(z.uuid()),
    studentUuids: z.array(z.uuid()),
    turmaIds: turmaIdsOf,
  }),
  ['order_missing', 'not_pending'] as const,
);

const CONTRIBUTION_REFUSALS = {
  not_found: 'store_item_not_found',
  not_a_goal: 'store_not_a_goal',
  student_missing: 'unauthenticated',
  unavailable: 'store_unavailable',
  reached: 'store_goal_reached',
  exceeds: 'store_goal_exceeds',
  insufficient: 'insufficient_balance',
} as const satisfies Record<string, ErrorCode>;

const REFUND_DESCRIPTIONS: Record<GoalRefundReason, string> = {
  deadline: formatTemplate((goal) => GOAL_TEXTS.refundDescription.deadline(goal)),
  order_refused: formatTemplate((goal) => GOAL_TEXTS.refundDescription.order_refused(goal)),
};

/** The school's calendar day at `at`: a deadline's day is included, the next day it has passed. */
async function schoolDay(deps: StoreGoalDeps, at: Date): Promise<string> {
  return dayIn(await timeZoneOf(deps), at);
}

/**
 * What a goal's change tells: its contributors' balances and the live feed's lines at once; the students of its
 * turmas read their store again (progress), and the staff of those turmas their orders (a goal reached has one).
 */
function publishGoalChange(
  events: EventBus,
  change: { studentUuids: string[]; entryIds: string[]; turmaIds: string[] | null; itemId: string; refunded: boolean },
): void {
  if (change.entryIds.length > 0) {
    events.publishAfterCommit({
      type: 'ledger',
      studentUuids: change.studentUuids,
      status: 'completed',
      lines: { entryIds: change.entryIds, batchIds: [], refusedIds: [] },
    });
  }
  events.publishAfterCommit({ type: 'store', studentUuids: change.studentUuids, turmaIds: change.turmaIds ?? 'all', catalogue: true });
  if (change.refunded && change.studentUuids.length > 0) {
    events.publishAfterCommit({ type: 'goal_refunded', itemId: change.itemId, studentUuids: change.studentUuids });
  }
}

/**
 * A student contributes to a turma goal: 201 `{ message, balances, raised, myContribution, reached }`. A contribution
 * beyond what is left is refused (store_goal_exceeds, naming what is left), never capped: the student chose an amount.
 */
export async function contribute(
  deps: StoreGoalDeps,
  student: StudentActor,
  id: unknown,
  input: unknown,
  context: WriteContext = {},
): Promise<Stored<ContributionResult>> {
  const itemId = storeItemParams.shape.id.safeParse(id).data;
  const said = typeof input === 'object' && input !== null ? (input as { amount?: unknown }) : {};
  const write = studentItemWrite(deps, student, context, {
    itemId,
    type: 'contribution',
    recorded: (item) => {
      const amount = typeof said.amount === 'number' ? said.amount : undefined;
      return { amount, description: item && amount !== undefined ? STORE_TEXTS.contributed(amount, item.currency, item.name) : undefined };
    },
  });
  if (!itemId) throw await write.refuse('store_item_not_found');
  const parsed = contributionInput.safeParse(input);
  if (!parsed.success) {
    const { issues } = parsed.error;
    throw await write.refuse(issueCode(issues[0]!), new AppError(issueCode(issues[0]!), { status: 400, fields: issueFields(issues) }));
  }
  const { amount } = parsed.data;
  const item = await itemForRecord(deps.db, itemId);
  const currency: Currency = item?.currency ?? 'meritus';
  const stored = await write.call(
    STORE_GOAL_CONTRIBUTE,
    contributionAnswer,
    { op: 'contribution', itemId, amount },
    {
      itemId,
      amount,
      today: await schoolDay(deps, context.at ?? new Date()),
      descriptionTemplate: formatTemplate((goal) => STORE_TEXTS.contributed(amount, currency, goal)),
      messageTemplate: formatTemplate((goal) => STORE_TEXTS.contributed(amount, currency, goal)),
      reachedMessage: STORE_TEXTS.goalReached,
    },
    {
      completed: ({ entryId, turmaIds }) =>
        publishGoalChange(deps.events, { studentUuids: [student.id], entryIds: [entryId], turmaIds, itemId, refunded: false }),
      refused: ({ reason, details }) => {
        const code = CONTRIBUTION_REFUSALS[reason];
        const left = details?.left;
        return reason === 'exceeds' && left !== undefined
          ? new AppError(code, { message: GOAL_TEXTS.exceeds(left, currency), details: { left } })
          : new AppError(code);
      },
    },
  );
  const { entryId: _entryId, orderId: _orderId, turmaIds: _turmaIds, ...body } = stored.body;
  return { ...stored, body };
}

/**
 * Gives back every contribution of a goal, once: `deadline` when it passed before the goal was reached, `order_refused`
 * when its order was refused and the refusal's own transaction did not (refuseGoalOrder does it there). Answers how many
 * contributions it gave back; a goal with nothing due (refunded already by another instance or run, reached, not past
 * its deadline) answers 0.
 */
export async function refundGoal(deps: StoreGoalDeps, itemId: string, reason: GoalRefundReason, now: Date = new Date()): Promise<number> {
  const answer = await callLedger(
    deps.db,
    STORE_GOAL_REFUND,
    refundAnswer,
    {
      itemId,
      reason,
      today: await schoolDay(deps, now),
      descriptionTemplate: REFUND_DESCRIPTIONS[reason],
      adminId: null,
      actorName: GOAL_TEXTS.refundActor,
      idempotency: null,
    },
    false,
  );
  if (answer.outcome !== 'completed') return 0;
  publishGoalChange(deps.events, { ...answer.body, itemId, refunded: true });
  return answer.body.entryIds.length;
}

/**
 * The periodic job: every goal whose deadline passed before it was reached, or whose order was refused, gets its
 * contributions back (refundGoal, one transaction per goal). With two instances, or run again after a restart cut it
 * short, each goal is still given back once: its state is read and changed under its lock.
 */
export async function expireGoals(deps: StoreGoalDeps, now: Date = new Date()): Promise<number> {
  const today = await schoolDay(deps, now);
  const due = rowsOf<{ item_id: string; reason: GoalRefundReason }>(
    await deps.db.execute(sql`
      SELECT p.item_id, CASE WHEN p.reached_at IS NULL THEN 'deadline' ELSE 'order_refused' END AS reason
        FROM store_goal_progress p JOIN store_items i ON i.id = p.item_id
       WHERE p.refunded_at IS NULL
         AND ((p.reached_at IS NULL AND i.deadline < ${today}::date)
              OR EXISTS (SELECT 1 FROM store_orders o WHERE o.id = p.order_id AND o.status = 'refused'))
       ORDER BY i.deadline, p.item_id`),
  );
  let refunded = 0;
  for (const goal of due) refunded += await refundGoal(deps, goal.item_id, goal.reason, now);
  return refunded;
}

/**
 * The staff refuse a reached goal's order: the order is refused with its reason and every contribution given back in
 * the same transaction. Who may (a teacher: a goal of their turmas) is checked by the caller, as for any order.
 */
export async function refuseGoalOrder(
  deps: StoreGoalDeps,
  admin: AdminActor,
  orderId: string,
  reason: string,
  context: WriteContext = {},
): Promise<Stored<OrderDecisionResult>> {
  const idempotency = idempotencyRecord({
    actorKey: `admin:${admin.id}`,
    key: context.idempotencyKey,
    request: { op: 'refuse', orderId, reason },
  });
  const answer = await callLedger(
    deps.db,
    STORE_GOAL_REFUSE_ORDER,
    refuseOrderAnswer,
    {
      orderId,
      reason,
      adminId: admin.id,
      adminName: admin.name,
      today: await schoolDay(deps, context.at ?? new Date()),
      descriptionTemplate: REFUND_DESCRIPTIONS.order_refused,
      message: STORE_TEXTS.refused(reason),
      audit: { action: 'store.order.refuse', ip: context.ip ?? null, details: { reason } },
      idempotency: idempotency ?? null,
      status: 200,
      createdAt: context.at?.toISOString() ?? null,
    },
    false,
  );
  switch (answer.outcome) {
    case 'completed':
    case 'replayed': {
      const { order, message, entryIds, studentUuids, turmaIds } = answer.body;
      if (answer.outcome === 'completed')
        publishGoalChange(deps.events, { entryIds, studentUuids, turmaIds, itemId: order.itemId, refunded: true });
      return { status: answer.status, body: { order, message }, replayed: answer.outcome === 'replayed' };
    }
    case 'conflict':
      throw new AppError('idempotency_conflict');
    case 'refused':
      throw new AppError(answer.reason === 'order_missing' ? 'store_order_not_found' : 'store_order_not_pending');
  }
}

/** Whether an order is a turma goal's (it names no student). */
export async function isGoalOrder(db: Db, orderId: string): Promise<boolean> {
  const [order] = await db
    .select({ id: storeOrders.id })
    .from(storeOrders)
    .where(and(eq(storeOrders.id, orderId), isNull(storeOrders.studentUuid)));
  return order !== undefined;
}

export type GoalStanding = {
  /** Contributions not given back. */
  raised: number;
  /** This student's, when a student asks. */
  myContribution: number;
  reached: boolean;
  /** Its contributions were given back (deadline or refused order): it takes no more. */
  refunded: boolean;
};

/** The progress of some goals (all zero before the first contribution) and, for a student, their own contributions. */
export async function goalStandings(db: Db, itemIds: string[], studentUuid: string | null): Promise<Map<string, GoalStanding>> {
  const standings = new Map<string, GoalStanding>(
    itemIds.map((itemId) => [itemId, { raised: 0, myContribution: 0, reached: false, refunded: false }]),
  );
  if (itemIds.length === 0) return standings;
  const progress = await db
    .select({
      itemId: storeGoalProgress.itemId,
      raised: storeGoalProgress.raised,
      reached: isNotNull(storeGoalProgress.reachedAt),
      refunded: isNotNull(storeGoalProgress.refundedAt),
    })
    .from(storeGoalProgress)
    .where(inArray(storeGoalProgress.itemId, itemIds));
  for (const row of progress)
    Object.assign(standings.get(row.itemId)!, { raised: row.raised, reached: row.reached, refunded: row.refunded });
  if (studentUuid !== null) {
    const mine = await db
      .select({ itemId: storeGoalContributions.itemId, amount: sql<number>`coalesce(sum(${storeGoalContributions.amount}), 0)::integer` })
      .from(storeGoalContributions)
      .where(
        and(
          inArray(storeGoalContributions.itemId, itemIds),
          eq(storeGoalContributions.studentUuid, studentUuid),
          isNull(storeGoalContributions.refundEntryId),
        ),
      )
      .groupBy(storeGoalContributions.itemId);
    for (const row of mine) standings.get(row.itemId)!.myContribution = row.amount;
  }
  return standings;
}

/** What each contributor watching is told of a goal's refund: what they got back, with the goal's name. */
export async function goalRefundNotices(db: Db, itemId: string, studentUuids: string[]): Promise<Map<string, string>> {
  if (studentUuids.length === 0) return new Map();
  const rows = rowsOf<{ student_id: string; amount: number | string; currency: Currency; name: string; reason: GoalRefundReason | null }>(
    await db.execute(sql`
      SELECT c.student_id, sum(c.amount) AS amount, e.currency, i.name, p.refund_reason AS reason
        FROM store_goal_contributions c
        JOIN ledger_entries e ON e.id = c.refund_entry_id
        JOIN store_items i ON i.id = c.item_id
        JOIN store_goal_progress p ON p.item_id = c.item_id
       WHERE c.item_id = ${itemId} AND c.student_id IN (${sql.join(
         studentUuids.map((uuid) => sql`${uuid}`),
         sql`, `,
       )})
       GROUP BY c.student_id, e.currency, i.name, p.refund_reason`),
  );
  return new Map(
    rows
      .filter((row) => row.reason !== null)
      .map((row) => [row.student_id, GOAL_TEXTS.refunded[row.reason!](Number(row.amount), row.currency, row.name)]),
  );
}

/**
 * Why an edit of a goal is refused once it has contributions (decision 026), or null; the schema refuses the same
 * (store_goal_progress's foreign key and CHECKs), this names why: it stays a goal in its currency (its contributions were
 * made in it), a reached goal keeps its amount (its order's price), an open one stays above what it raised.
 */
export async function goalEditRefusal(
  db: DbOrTx,
  itemId: string,
  after: { category: string; currency: Currency; goal: number | null },
): Promise<AppError | null> {
  const [progress] = await db
    .select({
      goal: storeGoalProgress.goal,
      raised: storeGoalProgress.raised,
      currency: storeItems.currency,
      reached: isNotNull(storeGoalProgress.reachedAt),
      refunded: isNotNull(storeGoalProgress.refundedAt),
    })
    .from(storeGoalProgress)
    .innerJoin(storeItems, eq(storeItems.id, storeGoalProgress.itemId))
    .where(eq(storeGoalProgress.itemId, itemId));
  if (!progress) return null;
  if (after.category !== 'turma' || after.currency !== progress.currency) return new AppError('store_goal_locked');
  if (after.goal === progress.goal || progress.refunded) return null;
  if (progress.reached) return new AppError('store_goal_reached');
  if (after.goal !== null && after.goal <= progress.raised) {
    return new AppError('store_goal_below_raised', {
      message: GOAL_TEXTS.belowRaised(progress.raised, progress.currency),
      details: { raised: progress.raised },
    });
  }
  return null;
}

/** Whether a goal has contributions: deleting it only deactivates it, like an item with orders. */
export async function hasContributions(db: DbOrTx, itemId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: storeGoalContributions.id })
    .from(storeGoalContributions)
    .where(eq(storeGoalContributions.itemId, itemId))
    .limit(1);
  return row !== undefined;
}
