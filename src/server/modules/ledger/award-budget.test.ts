import { randomUUID } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addAdmin, addStudents, buildTestApp, turmaIdOf, type TestApp, type TestStudent } from '../../test/test-app.ts';
import { admins, auditLog, ledgerEntries } from '../../db/schema.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { startOfWeekIn } from '../../../shared/format.ts';
import type { AwardBudget, LiveOperation } from '../../../shared/ledger.ts';
import type { Currency } from '../../../shared/ledger-types.ts';
import { reconcile } from './reconciliation.service.ts';

/** Teachers' weekly award budget (issue 34): what counts, the refusal, its record, and two awards at once. Both databases. */
let t: TestApp;
let pupils: TestStudent[];
let turmaA: string;

beforeAll(async () => {
  t = await buildTestApp();
  turmaA = await turmaIdOf(t.db, '1º EM - Turma A');
  pupils = await addStudents(
    t.db,
    Array.from({ length: 4 }, (_, i) => ({ studentId: `310000${i}`, name: `Aluno Orçamento ${i}`, grade: '1º EM - Turma A' })),
  );
});
afterAll(async () => t.close());

/** A teacher of Turma A with these weekly budgets (null: no limit), signed in. */
async function teacher(budget: { meritus?: number | null; estelecas?: number | null }) {
  const email = `prof-${randomUUID().slice(0, 8)}@escola.test`;
  const row = await addAdmin(t.db, { email, name: `Professor ${email.slice(5, 13)}`, role: 'teacher', turmaIds: [turmaA] });
  await t.db
    .update(admins)
    .set({ weeklyBudgetMeritus: budget.meritus ?? null, weeklyBudgetEstelecas: budget.estelecas ?? null })
    .where(eq(admins.id, row.id));
  return { id: row.id, name: row.name, cookie: await t.loginAdmin(email) };
}

function operate(cookie: string, studentId: string, body: { type: string; amount: number; currency?: Currency }) {
  const { currency = 'meritus', ...rest } = body;
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/students/${studentId}/${currency}`,
    headers: { cookie, 'idempotency-key': randomUUID() },
    payload: { description: 'Participação', ...rest },
  });
}

async function budgetOf(cookie: string): Promise<AwardBudget> {
  const response = await t.request('GET', '/me/budget', { cookie });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function rowsBy(adminId: string): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(ledgerEntries).where(eq(ledgerEntries.actorAdminId, adminId));
  return row!.n;
}

describe('a teacher with a weekly budget', () => {
  test('sees what is left; awards take from it, deductions give nothing back; beyond it the award is refused, recorded and writes nothing', async () => {
    const helena = await teacher({ meritus: 500 });
    const ana = pupils[0]!;
    const fresh = await budgetOf(helena.cookie);
    expect(fresh).toEqual({
      weekStart: startOfWeekIn('America/Sao_Paulo', new Date()).toISOString(),
      meritus: { weeklyBudget: 500, spent: 0, remaining: 500 },
      estelecas: null,
    });

    expect((await operate(helena.cookie, ana.id, { type: 'admin_add', amount: 100 })).statusCode).toBe(201);
    expect((await operate(helena.cookie, ana.id, { type: 'reward', amount: 60 })).statusCode).toBe(201);
    expect((await operate(helena.cookie, ana.id, { type: 'penalty', amount: 50 })).statusCode).toBe(201);
    expect((await budgetOf(helena.cookie)).meritus).toEqual({ weeklyBudget: 500, spent: 160, remaining: 340 });

    const rows = await rowsBy(helena.id);
    const refused = await operate(helena.cookie, ana.id, { type: 'admin_add', amount: 341 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toMatchObject({
      code: 'award_budget_exceeded',
      message: 'Limite semanal de concessão atingido. Você ainda pode conceder 340 M$ esta semana.',
      details: { currency: 'meritus', limit: 500, spent: 160, remaining: 340 },
    });
    expect(await rowsBy(helena.id)).toBe(rows);
    const [record] = await t.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.action} = 'ledger.refused' AND ${auditLog.actorId} = ${helena.id}`);
    expect(record?.details).toMatchObject({
      code: 'award_budget_exceeded',
      reason: ERROR_MESSAGES.award_budget_exceeded,
      type: 'admin_add',
      amount: 341,
      toStudentId: ana.id,
    });

    // The refusal is a failed line of the live feed, by its author.
    const feed: LiveOperation[] = (await t.request('GET', `/admin/operations?authorId=${helena.id}`)).json();
    expect(feed.find((line) => line.status === 'failed')).toMatchObject({ actorName: helena.name, amount: 341, to: { id: ana.id } });

    expect((await operate(helena.cookie, ana.id, { type: 'admin_add', amount: 340 })).statusCode).toBe(201);
    expect((await budgetOf(helena.cookie)).meritus).toEqual({ weeklyBudget: 500, spent: 500, remaining: 0 });
    const none = await operate(helena.cookie, ana.id, { type: 'reward', amount: 1 });
    expect(none.json().error.message).toBe('Limite semanal de concessão atingido. Você não pode conceder mais M$ esta semana.');
    // Deductions are not awards: a teacher at the end of the budget still removes.
    expect((await operate(helena.cookie, ana.id, { type: 'admin_remove', amount: 10 })).statusCode).toBe(201);
    // No limit in Estelecas.
    expect((await operate(helena.cookie, ana.id, { type: 'admin_add', amount: 5000, currency: 'estelecas' })).statusCode).toBe(201);
    expect(await reconcile(t.db)).toEqual([]);
  });

  test("a whole turma's award counts every student's leg", async () => {
    const bia = await teacher({ estelecas: 10 });
    const bulk = (amount: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/operations/bulk',
        headers: { cookie: bia.cookie, 'idempotency-key': randomUUID() },
        payload: { currency: 'estelecas', studentUuids: pupils.slice(0, 3).map((p) => p.id), type: 'reward', amount, description: 'Feira' },
      });
    const refused = await bulk(4);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.message).toBe('Limite semanal de concessão atingido. Você ainda pode conceder 10 Estelecas esta semana.');
    expect(await rowsBy(bia.id)).toBe(0);
    expect((await bulk(3)).statusCode).toBe(201);
    expect((await budgetOf(bia.cookie)).estelecas).toEqual({ weeklyBudget: 10, spent: 9, remaining: 1 });
  });

  test("last week's awards do not count: the week begins on Monday at midnight in the school's time zone", async () => {
    const caio = await teacher({ meritus: 100 });
    const weekStart = startOfWeekIn('America/Sao_Paulo', new Date());
    const ana = pupils[1]!;
    // Written as if made just before the week began (only the demo history backdates through the API).
    await t.db.insert(ledgerEntries).values({
      currency: 'meritus',
      type: 'admin_add',
      amount: 90,
      description: 'Semana passada',
      toStudentId: ana.id,
      actorKind: 'admin',
      actorAdminId: caio.id,
      actorName: caio.name,
      createdAt: new Date(weekStart.getTime() - 1000),
    });
    await t.db.execute(sql`UPDATE students SET meritus = meritus + 90, total_earned = total_earned + 90 WHERE id = ${ana.id}`);
    expect((await budgetOf(caio.cookie)).meritus).toEqual({ weeklyBudget: 100, spent: 0, remaining: 100 });
    expect((await operate(caio.cookie, ana.id, { type: 'admin_add', amount: 100 })).statusCode).toBe(201);
  });

  test('a budget lowered by the coordination holds at once', async () => {
    const davi = await teacher({ meritus: 1000 });
    expect((await operate(davi.cookie, pupils[2]!.id, { type: 'admin_add', amount: 300 })).statusCode).toBe(201);
    await t.db.update(admins).set({ weeklyBudgetMeritus: 200 }).where(eq(admins.id, davi.id));
    const refused = await operate(davi.cookie, pupils[2]!.id, { type: 'admin_add', amount: 1 });
    expect(refused.json().error).toMatchObject({ code: 'award_budget_exceeded', details: { limit: 200, spent: 300, remaining: 0 } });
    expect((await budgetOf(davi.cookie)).meritus).toEqual({ weeklyBudget: 200, spent: 300, remaining: 0 });
  });

  test('a reversed award gives the budget back', async () => {
    const fabi = await teacher({ meritus: 100 });
    const award = await operate(fabi.cookie, pupils[3]!.id, { type: 'reward', amount: 80 });
    expect(award.statusCode).toBe(201);
    expect((await budgetOf(fabi.cookie)).meritus).toMatchObject({ spent: 80, remaining: 20 });
    expect((await operate(fabi.cookie, pupils[3]!.id, { type: 'reward', amount: 30 })).json().error.code).toBe('award_budget_exceeded');

    const reversal = await t.app.inject({
      method: 'POST',
      url: `/api/admin/operations/${award.json().entry.id}/reversal`,
      headers: { cookie: fabi.cookie, 'idempotency-key': randomUUID() },
      payload: { reason: 'Aluno errado' },
    });
    expect(reversal.statusCode).toBe(201);
    expect((await budgetOf(fabi.cookie)).meritus).toMatchObject({ spent: 0, remaining: 100 });
    expect((await operate(fabi.cookie, pupils[3]!.id, { type: 'reward', amount: 100 })).statusCode).toBe(201);
    expect(await reconcile(t.db)).toEqual([]);
  });

  test('20 awards at once against a budget that allows 5: exactly 5 pass', async () => {
    const eli = await teacher({ meritus: 50 });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => operate(eli.cookie, pupils[i % pupils.length]!.id, { type: 'reward', amount: 10 })),
    );
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(5);
    const refused = responses.filter((r) => r.statusCode !== 201);
    expect(refused).toHaveLength(15);
    for (const r of refused) expect(r.json().error.code).toBe('award_budget_exceeded');
    expect(await rowsBy(eli.id)).toBe(5);
    expect((await budgetOf(eli.cookie)).meritus).toEqual({ weeklyBudget: 50, spent: 50, remaining: 0 });
    expect(await reconcile(t.db)).toEqual([]);
  });
});

describe('no limit', () => {
  test('a teacher without a budget, and the coordination (even with a budget on its row), award freely', async () => {
    const free = await teacher({});
    expect(await budgetOf(free.cookie)).toMatchObject({ meritus: null, estelecas: null });
    expect((await operate(free.cookie, pupils[3]!.id, { type: 'admin_add', amount: 100_000 })).statusCode).toBe(201);

    await t.db.update(admins).set({ weeklyBudgetMeritus: 1 }).where(eq(admins.id, t.admin.id));
    expect(await budgetOf(await t.loginAdmin())).toMatchObject({ meritus: null, estelecas: null });
    expect((await operate(await t.loginAdmin(), pupils[3]!.id, { type: 'admin_add', amount: 500 })).statusCode).toBe(201);
    await t.db.update(admins).set({ weeklyBudgetMeritus: null }).where(eq(admins.id, t.admin.id));
  });

  test('a student may not read a budget', async () => {
    const response = await t.request('GET', '/me/budget', { cookie: await t.loginStudent(t.students[0]!.studentId) });
    expect(response.statusCode).toBe(403);
  });
});

describe("the live feed's author filter", () => {
  test('keeps the operations and refusals of one member of the staff; lists the authors; refuses an unknown or malformed id', async () => {
    const fabi = await teacher({ meritus: 20 });
    const ana = pupils[0]!;
    await operate(fabi.cookie, ana.id, { type: 'admin_add', amount: 15 });
    await operate(fabi.cookie, ana.id, { type: 'admin_add', amount: 15 });
    await t.award(ana.id, 7);

    const all: LiveOperation[] = (await t.request('GET', '/admin/operations?limit=500')).json();
    expect(new Set(all.map((line) => line.actorName))).toContain(t.admin.name);
    const mine: LiveOperation[] = (await t.request('GET', `/admin/operations?authorId=${fabi.id}`)).json();
    expect(mine.map((line) => [line.status, line.amount, line.actorName])).toEqual([
      ['failed', 15, fabi.name],
      ['completed', 15, fabi.name],
    ]);

    const authors = (await t.request('GET', '/admin/operations/authors')).json() as { id: string; name: string }[];
    expect(authors).toContainEqual({ id: fabi.id, name: fabi.name });
    expect(authors).toContainEqual({ id: t.admin.id, name: t.admin.name });

    for (const authorId of [randomUUID(), 'not-a-uuid']) {
      const response = await t.request('GET', `/admin/operations?authorId=${authorId}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe(ERROR_MESSAGES.author_not_found);
    }
  });
});
