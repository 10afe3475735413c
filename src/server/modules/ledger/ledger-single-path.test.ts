import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { adminActor, buildTestApp, studentActor, type TestApp } from '../../test/test-app.ts';
import { auditLog, ledgerEntries } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { adminOperation, bulkAdminOperation, studentTransfer } from './ledger.service.ts';
import { silentEvents } from '../../realtime/event-bus.ts';
import { reconcile } from './reconciliation.service.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';

/** Decision 007: every operation takes ledger.sql's path, validated by the service itself. */
let t: TestApp;
let adminCookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  adminCookie = await t.loginAdmin();
});
afterAll(async () => {
  await t.close();
});

const deps = () => ({ db: t.db, events: silentEvents });
const admin = () => adminActor(t.admin);

async function refusalOf(run: () => Promise<unknown>): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the operation was not refused');
}

test('a whole-turma deduction beyond some balances names every student who is short, and writes nothing', async () => {
  const [ana, bruno, carla] = t.students as [TestApp['students'][number], TestApp['students'][number], TestApp['students'][number]];
  for (const [student, amount] of [
    [ana, 50],
    [bruno, 10],
    [carla, 3],
  ] as const) {
    await adminOperation(deps(), admin(), 'meritus', { id: student.id, type: 'admin_add', amount, description: 'Saldo' });
  }
  const rowsBefore = (await t.db.select().from(ledgerEntries)).length;
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/admin/operations/bulk',
    headers: { cookie: adminCookie },
    payload: { currency: 'meritus', studentUuids: [ana.id, bruno.id, carla.id], type: 'penalty', amount: 20, description: 'Bagunça' },
  });
  expect(response.statusCode).toBe(400);
  expect(response.json().error).toEqual({
    code: 'remove_exceeds_balance',
    message: ERROR_MESSAGES.remove_exceeds_balance,
    details: {
      short: [
        { id: bruno.id, name: bruno.name, balance: 10 },
        { id: carla.id, name: carla.name, balance: 3 },
      ],
    },
  });
  expect((await t.db.select().from(ledgerEntries)).length).toBe(rowsBefore);
  expect(await reconcile(t.db)).toEqual([]);
});

test(
  'the services validate what they are given: ' +
    'amounts of 0, −3 or 1.5 and an unknown type are refused with their own message, never as a lack of balance',
  async () => {
    const [ana, bruno] = t.students as [TestApp['students'][number], TestApp['students'][number]];
    const cases: [() => Promise<unknown>, string][] = [
      [
        () => adminOperation(deps(), admin(), 'meritus', { id: ana.id, type: 'admin_add', amount: 0, description: 'x' }),
        'amount_not_positive',
      ],
      [
        () => adminOperation(deps(), admin(), 'meritus', { id: ana.id, type: 'penalty', amount: -3, description: 'x' }),
        'amount_not_positive',
      ],
      [
        () => adminOperation(deps(), admin(), 'meritus', { id: ana.id, type: 'admin_add', amount: 1.5, description: 'x' }),
        'amount_not_integer',
      ],
      [
        () => adminOperation(deps(), admin(), 'estelecas', { id: ana.id, type: 'admin_add', amount: 1.5, description: 'x' }),
        'missing_fields_short',
      ],
      [() => studentTransfer(deps(), studentActor(ana), 'meritus', { recipientId: bruno.id, amount: 1.5 }), 'amount_not_integer'],
      [
        () =>
          bulkAdminOperation(deps(), admin(), {
            currency: 'meritus',
            studentUuids: [ana.id],
            type: 'admin_add',
            amount: -3,
            description: 'x',
          }),
        'amount_not_positive',
      ],
      [() => adminOperation(deps(), admin(), 'meritus', { id: ana.id, type: 'gift', amount: 5, description: 'x' }), 'missing_fields_short'],
    ];
    const rowsBefore = (await t.db.select().from(ledgerEntries)).length;
    for (const [run, code] of cases) {
      const error = await refusalOf(run);
      expect(error.code).toBe(code);
      expect(error.status).toBe(400);
    }
    expect((await t.db.select().from(ledgerEntries)).length).toBe(rowsBefore);
  },
);

test('an unknown operation type is kept in the audit log without a type and never shown as an award in the live feed', async () => {
  const ana = t.students[0]!;
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/admin/students/${ana.id}/meritus`,
    headers: { cookie: adminCookie },
    payload: { type: 'presente', amount: 7, description: 'tipo desconhecido' },
  });
  expect(response.statusCode).toBe(400);
  const [record] = (await t.db.select().from(auditLog).where(eq(auditLog.action, 'ledger.refused'))).filter(
    (row) => (row.details as { description?: string }).description === 'tipo desconhecido',
  );
  expect(record?.details).toMatchObject({ type: null, amount: 7, code: 'missing_fields_short' });
  const feed = await t.app.inject({ url: '/api/admin/operations', headers: { cookie: adminCookie } });
  expect(feed.json().some((op: { description: string }) => op.description === 'tipo desconhecido')).toBe(false);
});
