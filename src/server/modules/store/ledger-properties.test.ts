import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestDatabase, addAdmin, addStudents, adminActor, studentActor, type TestDatabase } from '../../test/test-app.ts';
import { eq, isNull, sql } from 'drizzle-orm';
import { ledgerEntries, storeGoalContributions, storeItems, storeOrders, students } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { createEventBus, type EventBus } from '../../realtime/event-bus.ts';
import { adminOperation, studentTransfer, type LedgerDeps } from '../ledger/ledger.service.ts';
import type { AdminActor, StudentActor } from '../auth/actor.ts';
import { reconcile } from '../ledger/reconciliation.service.ts';
import { cancelOrder, deliverOrder, purchase, refuseOrder } from './store.service.ts';
import { contribute, expireGoals } from './store-goals.service.ts';
import { dayIn, DEFAULT_TIME_ZONE } from '../../../shared/format.ts';
import { adminOperationInputs, estelecasTransferInput, meritusTransferInput } from '../../../shared/ledger.ts';
import { issueCode } from '../../../shared/validation.ts';
import type { ErrorCode } from '../../../shared/errors.ts';

/**
 * Random sequences of valid and invalid operations straight against the domain, the Loja's included (purchases,
 * cancellations, refusals, deliveries; turma goals: new goals, contributions, their deadlines passing, their orders
 * refused): after each one the ledger reconciles, no balance is below zero, the sum of the balances is exactly what the
 * staff's operations, purchases, contributions and refunds moved, and a refused one changed nothing. It lives with the
 * Loja, the module that depends on the ledger, so the ledger's folder imports none of the modules built on it.
 */
let database: TestDatabase;
let events: EventBus;
let deps: LedgerDeps;
let admin: AdminActor;
let people: StudentActor[];
/** The Loja's items: Méritus with a little stock, Estelecas with a weekly limit, Méritus with neither. */
let items: string[];

beforeAll(async () => {
  database = await createTestDatabase();
  const silent = { warn: () => {} } as unknown as Parameters<typeof createEventBus>[1];
  events = await createEventBus(database, silent);
  deps = { db: database.db, events };
  const row = await addAdmin(database.db, { email: 'prop@escola.test', name: 'Prof. Propriedade' });
  admin = adminActor(row);
  people = (
    await addStudents(database.db, [
      { studentId: '4000001', name: 'Aluno Um' },
      { studentId: '4000002', name: 'Aluno Dois' },
      { studentId: '4000003', name: 'Aluno Três' },
    ])
  ).map(studentActor);
  items = (
    await database.db
      .insert(storeItems)
      .values([
        { name: 'Caneta', category: 'material', currency: 'meritus', price: 15, stock: 3 },
        { name: 'Figurinha', category: 'material', currency: 'estelecas', price: 4, limitCount: 2, limitPeriod: 'week' },
        { name: 'Passeio', category: 'experience', currency: 'meritus', price: 40 },
      ])
      .returning({ id: storeItems.id })
  ).map((row) => row.id);
});
afterAll(async () => {
  await events.close();
  await database.drop();
});

const who = fc.integer({ min: 0, max: 2 });
// Mostly sensible amounts, sometimes zero, negative, fractional or absurd.
const amount = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 60 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -3, 1.5, 1e9, Number.NaN) },
);
const currency = fc.constantFrom('meritus' as const, 'estelecas' as const);
const operation = fc.oneof(
  fc.record({ kind: fc.constant('transfer' as const), from: who, to: who, amount, currency }),
  fc.record({
    kind: fc.constant('admin' as const),
    student: who,
    type: fc.constantFrom('admin_add' as const, 'admin_remove' as const, 'reward' as const, 'penalty' as const),
    amount,
    currency,
  }),
  fc.record({ kind: fc.constant('purchase' as const), student: who, item: fc.integer({ min: 0, max: 2 }) }),
  fc.record({
    kind: fc.constantFrom('cancel' as const, 'refuse' as const, 'deliver' as const),
    student: who,
    order: fc.integer({ min: 0, max: 20 }),
  }),
);
/** Turma goals: a new goal, a contribution to one of the latest two, the deadline job run on a later day. */
const goalOperation = fc.oneof(
  fc.record({ kind: fc.constant('goal' as const), currency, goal: fc.integer({ min: 5, max: 80 }), days: fc.integer({ min: 0, max: 2 }) }),
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('contribute' as const), student: who, goal: fc.integer({ min: 0, max: 1 }), amount }),
  },
  fc.record({ kind: fc.constant('expire' as const), days: fc.integer({ min: 1, max: 3 }) }),
);

/** A turma goal for every turma, due `days` after today. */
async function newGoal(op: { currency: 'meritus' | 'estelecas'; goal: number; days: number }): Promise<void> {
  const deadline = new Date(Date.now() + op.days * 86_400_000);
  await database.db.insert(storeItems).values({
    name: `Meta ${op.goal}`,
    category: 'turma',
    currency: op.currency,
    goal: op.goal,
    deadline: dayIn(DEFAULT_TIME_ZONE, deadline),
  });
}

/** The latest goals, newest first. */
async function goalAt(index: number): Promise<string | undefined> {
  const goals = await database.db
    .select({ id: storeItems.id })
    .from(storeItems)
    .where(eq(storeItems.category, 'turma'))
    .orderBy(sql`${storeItems.createdAt} DESC`, storeItems.id)
    .limit(2);
  return goals[index]?.id;
}

/** What the contributions not given back hold, by currency. */
async function heldByGoals(): Promise<Moved> {
  const rows = await database.db
    .select({ currency: ledgerEntries.currency, held: sql<number>`coalesce(sum(${ledgerEntries.amount}), 0)::int` })
    .from(storeGoalContributions)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, storeGoalContributions.entryId))
    .where(isNull(storeGoalContributions.refundEntryId))
    .groupBy(ledgerEntries.currency);
  const held = { meritus: 0, estelecas: 0 };
  for (const row of rows) held[row.currency] = row.held;
  return held;
}

async function snapshot() {
  const balances = await database.db.select().from(students).orderBy(students.studentId);
  const rows = await database.db.select({ id: ledgerEntries.id }).from(ledgerEntries);
  return { balances: balances.map((s) => [s.meritus, s.totalEarned, s.estelecas]), rows: rows.length };
}

/** The sum of every balance in a snapshot. */
function sumOf(state: Awaited<ReturnType<typeof snapshot>>): Moved {
  return {
    meritus: state.balances.reduce((sum, [meritus]) => sum + meritus!, 0),
    estelecas: state.balances.reduce((sum, [, , estelecas]) => sum + estelecas!, 0),
  };
}

/** An order by its place among them all (any status, any student: a refusal of one not pending is part of the game). */
async function orderAt(index: number): Promise<string | undefined> {
  const orders = await database.db.select({ id: storeOrders.id }).from(storeOrders).orderBy(storeOrders.createdAt, storeOrders.id);
  return orders.length === 0 ? undefined : orders[index % orders.length]!.id;
}

/** The balances' sum a completed operation moved it by: staff operations, purchases (down) and refunds (up). */
type Moved = { meritus: number; estelecas: number };

/** Runs one store operation; answers what it moved the balances' sum by. */
async function storeOperation(op: { kind: 'purchase' | 'cancel' | 'refuse' | 'deliver'; student: number; item?: number; order?: number }) {
  const student = people[op.student]!;
  if (op.kind === 'purchase') {
    const { body } = await purchase(deps, student, items[op.item!]);
    return { [body.order.currency]: -body.order.price };
  }
  const orderId = await orderAt(op.order!);
  if (!orderId) return {};
  if (op.kind === 'deliver') {
    await deliverOrder(deps, admin, orderId);
    return {};
  }
  // A goal's order refused gives back its contributions, which added up to its price.
  const { body } =
    op.kind === 'cancel' ? await cancelOrder(deps, student, orderId) : await refuseOrder(deps, admin, orderId, { reason: 'propriedade' });
  return { [body.order.currency]: body.order.price };
}

/** The code the shared schema (the forms' and the routes') gives an amount, or undefined when it is valid. */
function amountRefusal(op: { kind: 'transfer' | 'admin'; currency: 'meritus' | 'estelecas'; amount: number }): ErrorCode | undefined {
  const rule =
    op.kind === 'admin' ? adminOperationInputs[op.currency] : op.currency === 'meritus' ? meritusTransferInput : estelecasTransferInput;
  const issue = rule.shape.amount.safeParse(op.amount).error?.issues[0];
  return issue && issueCode(issue);
}

test('any sequence of operations keeps the ledger reconciled; refusals, and every invalid amount, change nothing', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(operation, { minLength: 1, maxLength: 25 }),
      fc.array(goalOperation, { maxLength: 12 }),
      async (others, goals) => {
        // The goals' operations between the others, one after each of the first ones.
        const ops = others.flatMap((op, index) => (index < goals.length ? [op, goals[index]!] : [op]));
        for (const op of ops) {
          const before = await snapshot();
          let moved: Partial<Moved> = {};
          let refused: AppError | undefined;
          // The HTTP schema refuses bad amounts before the service; the domain must refuse them on its own too.
          try {
            if (op.kind === 'transfer') {
              await studentTransfer(deps, people[op.from]!, op.currency, { recipientId: people[op.to]!.id, amount: op.amount });
            } else if (op.kind === 'goal') {
              await newGoal(op);
            } else if (op.kind === 'contribute') {
              const goal = await goalAt(op.goal);
              if (goal) {
                const [item] = await database.db.select({ currency: storeItems.currency }).from(storeItems).where(eq(storeItems.id, goal));
                await contribute(deps, people[op.student]!, goal, { amount: op.amount });
                moved = { [item!.currency]: -op.amount };
              }
            } else if (op.kind === 'expire') {
              const held = await heldByGoals();
              await expireGoals(deps, new Date(Date.now() + op.days * 86_400_000));
              const after = await heldByGoals();
              moved = { meritus: held.meritus - after.meritus, estelecas: held.estelecas - after.estelecas };
            } else if (op.kind !== 'admin') {
              moved = await storeOperation(op);
            } else {
              const { body } = await adminOperation(deps, admin, op.currency, {
                id: people[op.student]!.id,
                type: op.type,
                amount: op.amount,
                description: 'propriedade',
              });
              moved = { [op.currency]: op.type === 'admin_add' || op.type === 'reward' ? body.entry.amount : -body.entry.amount };
            }
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            refused = error;
          }
          if (op.kind === 'transfer' || op.kind === 'admin') {
            const invalid = amountRefusal(op);
            if (invalid) expect(refused?.code, `amount ${op.amount}`).toBe(invalid);
          }
          expect(await reconcile(database.db)).toEqual([]);
          const after = await snapshot();
          expect(sumOf(after)).toEqual({
            meritus: sumOf(before).meritus + (moved.meritus ?? 0),
            estelecas: sumOf(before).estelecas + (moved.estelecas ?? 0),
          });
          if (refused) expect(after).toEqual(before);
        }
      },
    ),
    { numRuns: 40 },
  );
  // The Loja's operations did take place, not only their refusals.
  const orders = await database.db.select({ status: storeOrders.status }).from(storeOrders);
  expect(orders.length).toBeGreaterThan(0);
  expect(orders.some((order) => order.status === 'refused' || order.status === 'cancelled')).toBe(true);
  expect(await database.db.select({ id: storeGoalContributions.id }).from(storeGoalContributions)).not.toEqual([]);
}, 120_000);
