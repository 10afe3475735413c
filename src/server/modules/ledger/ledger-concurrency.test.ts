import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addStudents, buildTestApp, type TestApp } from '../../test/test-app.ts';
import { ledgerEntries, students } from '../../db/schema.ts';
import { reconcile, totalBalances } from './reconciliation.service.ts';

/**
 * Runs on both databases; on PostgreSQL the requests really run in parallel
 * (a pool of 30 connections), which is where locking mistakes would show.
 */
let t: TestApp;
let group: { id: string; studentId: string; cookie: string }[];

beforeAll(async () => {
  t = await buildTestApp();
  const [extra] = await addStudents(t.db, [{ studentId: '3000005', name: 'Eva Nunes Prado' }]);
  const all = [...t.students, extra!];
  group = [];
  for (const s of all) group.push({ id: s.id, studentId: s.studentId, cookie: await t.loginStudent(s.studentId) });
});
afterAll(async () => t.close());

function transfer(from: (typeof group)[number], toId: string, amount: number, key = randomUUID()) {
  return t.app.inject({
    method: 'POST',
    url: '/api/meritus/transfers',
    headers: { cookie: from.cookie, 'idempotency-key': key },
    payload: { recipientId: toId, amount },
  });
}

test('200 simultaneous transfers among 5 students, asking for more than they have', async () => {
  for (const s of group) await t.award(s.id, 100);
  const totalBefore = await totalBalances(t.db);
  const rowsBefore = (await t.db.select({ id: ledgerEntries.id }).from(ledgerEntries)).length;

  // 200 transfers of 5–20 M$: about 2,500 M$ requested from 500 M$ in total.
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const requests = Array.from({ length: 200 }, () => {
    const from = group[Math.floor(random() * group.length)]!;
    let to = group[Math.floor(random() * group.length)]!;
    if (to.id === from.id) to = group[(group.indexOf(from) + 1) % group.length]!;
    return { from, to, amount: 5 + Math.floor(random() * 16) };
  });
  const responses = await Promise.all(requests.map((r) => transfer(r.from, r.to.id, r.amount)));

  const statuses = responses.map((r) => r.statusCode);
  expect(statuses.every((s) => s === 201 || s === 400)).toBe(true);
  const accepted = responses.filter((r) => r.statusCode === 201).map((r) => r.json().entry.id as string);
  const refused = responses.filter((r) => r.statusCode === 400);
  expect(accepted.length).toBeGreaterThan(0);
  expect(refused.length).toBeGreaterThan(0);
  for (const r of refused) expect(r.json().error.message).toBe('Saldo insuficiente');

  // every 201 is in the ledger exactly once, and nothing else was written
  const rows = await t.db.select({ id: ledgerEntries.id }).from(ledgerEntries).where(inArray(ledgerEntries.id, accepted));
  expect(rows.length).toBe(accepted.length);
  expect((await t.db.select({ id: ledgerEntries.id }).from(ledgerEntries)).length).toBe(rowsBefore + accepted.length);

  expect(await totalBalances(t.db)).toEqual(totalBefore);
  const balances = await t.db.select({ meritus: students.meritus }).from(students);
  expect(balances.every((b) => b.meritus >= 0)).toBe(true);
  expect(await reconcile(t.db)).toEqual([]);
});

test('20 simultaneous transfers of the whole balance: exactly one succeeds', async () => {
  const [sender, ...others] = group;
  const [row] = await t.db.select().from(students).where(eq(students.id, sender!.id));
  let balance = row!.meritus;
  if (balance === 0) {
    await t.award(sender!.id, 50);
    balance = 50;
  }
  const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => transfer(sender!, others[i % others.length]!.id, balance)));
  expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(1);
  expect(responses.filter((r) => r.statusCode === 400)).toHaveLength(19);
  const [after] = await t.db.select().from(students).where(eq(students.id, sender!.id));
  expect(after!.meritus).toBe(0);
  expect(await reconcile(t.db)).toEqual([]);
});

test('crossing transfers (A→B while B→A) never surface a deadlock to the client', async () => {
  const [a, b] = group as [(typeof group)[number], (typeof group)[number]];
  await t.award(a.id, 200);
  await t.award(b.id, 200);
  const totalBefore = await totalBalances(t.db);
  const responses = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? transfer(a, b.id, 1) : transfer(b, a.id, 1))));
  expect(responses.map((r) => r.statusCode)).toEqual(Array(60).fill(201));
  expect(await totalBalances(t.db)).toEqual(totalBefore);
  expect(await reconcile(t.db)).toEqual([]);
});

/** The request's answer, or 'still waiting' if it has none after `ms`. */
function answered<T>(request: Promise<T>, ms: number): Promise<T | 'still waiting'> {
  return Promise.race([request, new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), ms).unref())]);
}

test.skipIf(process.env.TEST_DB !== 'postgres')(
  "a transfer beyond the balance is refused at once, even while another operation holds the sender's lock; " +
    'one within it waits for that operation (PGlite: one connection, nothing runs at once)',
  async () => {
    const ana = group[0]!;
    const eva = group[4]!;
    await t.award(eva.id, 20);
    const [{ meritus: balance }] = (await t.db.select({ meritus: students.meritus }).from(students).where(eq(students.id, eva.id))) as [
      { meritus: number },
    ];
    let affordable: ReturnType<typeof transfer> | undefined;
    await t.db.transaction(async (tx) => {
      await tx.select().from(students).where(eq(students.id, eva.id)).for('update');
      const tooMuch = await answered(transfer(eva, ana.id, balance + 1), 10_000);
      expect(tooMuch === 'still waiting' ? tooMuch : [tooMuch.statusCode, tooMuch.json().error.code]).toEqual([
        400,
        'insufficient_balance',
      ]);
      affordable = transfer(eva, ana.id, 1);
      expect(await answered(affordable, 300)).toBe('still waiting');
    });
    expect((await affordable!).statusCode).toBe(201);
  },
);

test.skipIf(process.env.TEST_DB !== 'postgres')(
  "a transfer does not wait for a row that only names the student (a foreign key's check, " +
    "as the reports' fold takes on a new day) (PGlite: one connection, nothing runs at once)",
  async () => {
    const ana = group[0]!;
    const bruno = group[1]!;
    await t.award(ana.id, 5);
    await t.db.transaction(async (tx) => {
      await tx.select({ id: students.id }).from(students).where(eq(students.id, ana.id)).for('key share');
      const sent = await answered(transfer(ana, bruno.id, 1), 10_000);
      expect(sent === 'still waiting' ? sent : sent.statusCode).toBe(201);
    });
  },
);
