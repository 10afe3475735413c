import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestDatabase, addAdmin, addStudents, adminActor, studentActor, type TestDatabase } from '../../test/test-app.ts';
import { ledgerEntries, students } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { createEventBus, type EventBus } from '../../realtime/event-bus.ts';
import { adminOperation, studentTransfer, type LedgerDeps } from './ledger.service.ts';
import type { AdminActor, StudentActor } from '../auth/actor.ts';
import { reconcile } from './reconciliation.service.ts';
import { adminOperationInputs, estelecasTransferInput, meritusTransferInput } from '../../../shared/ledger.ts';
import { issueCode } from '../../../shared/validation.ts';
import type { ErrorCode } from '../../../shared/errors.ts';

/**
 * Random sequences of valid and invalid operations straight against the domain:
 * after each one the ledger reconciles, and a refused one changed nothing.
 */
let database: TestDatabase;
let events: EventBus;
let deps: LedgerDeps;
let admin: AdminActor;
let people: StudentActor[];

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
);

async function snapshot() {
  const balances = await database.db.select().from(students).orderBy(students.studentId);
  const rows = await database.db.select({ id: ledgerEntries.id }).from(ledgerEntries);
  return { balances: balances.map((s) => [s.meritus, s.totalEarned, s.estelecas]), rows: rows.length };
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
        let refused: AppError | undefined;
        // The HTTP schema refuses bad amounts before the service; the domain must refuse them on its own too.
        try {
          if (op.kind === 'transfer') {
            await studentTransfer(deps, people[op.from]!, op.currency, { recipientId: people[op.to]!.id, amount: op.amount });
          } else {
            await adminOperation(deps, admin, op.currency, {
              id: people[op.student]!.id,
              type: op.type,
              amount: op.amount,
              description: 'propriedade',
            });
          }
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          refused = error;
        }
        const invalid = amountRefusal(op);
        if (invalid) expect(refused?.code, `amount ${op.amount}`).toBe(invalid);
        expect(await reconcile(database.db)).toEqual([]);
        if (refused) expect(await snapshot()).toEqual(before);
      }
    }),
    { numRuns: 40 },
  );
});
