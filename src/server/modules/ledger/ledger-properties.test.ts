import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestDatabase, addAdmin, addStudents, adminActor, studentActor, type TestDatabase } from '../../test/test-app.ts';
import { ledgerEntries, storeItems, storeOrders, students } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { createEventBus, type EventBus } from '../../realtime/event-bus.ts';
import { adminOperation, studentTransfer, type LedgerDeps } from './ledger.service.ts';
import type { AdminActor, StudentActor } from '../auth/actor.ts';
import { reconcile, totalBalances } from './reconciliation.service.ts';
import { cancelOrder, deliverOrder, purchase, refuseOrder } from '../store/store.service.ts';
import { adminOperationInputs, estelecasTransferInput, meritusTransferInput } from '../../../shared/ledger.ts';
import { issueCode } from '../../../shared/validation.ts';
import type { ErrorCode } from '../../../shared/errors.ts';

/**
 * Random sequences of valid and invalid operations straight against the domain, the Loja's included (purchases,
 * cancellations, refusals, deliveries): after each one the ledger reconciles, no balance is below zero, the sum of the
 * balances is exactly what the staff's operations, purchases and refunds moved, and a refused one changed nothing.
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

async function snapshot() {
  const balances = await database.db.select().from(students).orderBy(students.studentId);
  const rows = await database.db.select({ id: ledgerEntries.id }).from(ledgerEntries);
  return { balances: balances.map((s) => [s.meritus, s.totalEarned, s.estelecas]), rows: rows.length };
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
    fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 25 }), async (ops) => {
      for (const op of ops) {
        const before = await snapshot();
        const sumBefore = await totalBalances(database.db);
        let moved: Partial<Moved> = {};
        let refused: AppError | undefined;
        // The HTTP schema refuses bad amounts before the service; the domain must refuse them on its own too.
        try {
          if (op.kind === 'transfer') {
            await studentTransfer(deps, people[op.from]!, op.currency, { recipientId: people[op.to]!.id, amount: op.amount });
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
        const sumAfter = await totalBalances(database.db);
        expect(sumAfter).toEqual({
          meritus: sumBefore.meritus + (moved.meritus ?? 0),
          estelecas: sumBefore.estelecas + (moved.estelecas ?? 0),
        });
        if (refused) expect(await snapshot()).toEqual(before);
      }
    }),
    { numRuns: 40 },
  );
  // The Loja's operations did take place, not only their refusals.
  const orders = await database.db.select({ status: storeOrders.status }).from(storeOrders);
  expect(new Set(orders.map((order) => order.status))).toEqual(new Set(['pending', 'delivered', 'refused', 'cancelled']));
});
