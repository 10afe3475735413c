import { randomUUID } from 'node:crypto';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { addStudents, buildTestApp, type TestApp, type TestStudent } from '../../test/test-app.ts';
import { auditLog, ledgerEntries, storeGoalContributions, storeGoalProgress, storeItems, storeOrders, students } from '../../db/schema.ts';
import { reconcile, totalBalances } from '../ledger/reconciliation.service.ts';
import { openStream } from '../../realtime/sse-test-client.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { dayIn, DEFAULT_TIME_ZONE } from '../../../shared/format.ts';
import { STORE_TEXTS, type AdminStoreItem, type StudentStoreItem } from '../../../shared/store.ts';
import { GOAL_TEXTS } from '../../../shared/store-goals.ts';
import type { StudentOperation } from '../../../shared/ledger.ts';

/**
 * Turma goals (issue 35, decision 026): contributions and their rules and texts, the one order of a goal reached, the
 * deadline's refunds (once, whoever runs them), a refused goal order, edits of a goal with contributions, and races.
 * On both databases (on PostgreSQL the races are real).
 */
let t: TestApp;
let ana: TestStudent; // 1º EM - Turma A
let bruno: TestStudent; // 1º EM - Turma B
const cookies = new Map<string, string>();

const today = () => dayIn(DEFAULT_TIME_ZONE, new Date());
function dayAfter(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
/** Noon of a school day, as a Date: the fake clock of the deadline job. */
const noonOf = (day: string) => new Date(`${day}T15:00:00Z`);

beforeAll(async () => {
  t = await buildTestApp();
  [ana, bruno] = t.students as [TestStudent, TestStudent];
  await t.award(ana.id, 1000);
  await t.award(bruno.id, 1000);
});
afterAll(async () => t.close());
beforeEach(async () => {
  expect(await reconcile(t.db)).toEqual([]);
});

async function cookieOf(student: TestStudent): Promise<string> {
  let cookie = cookies.get(student.id);
  if (!cookie) {
    cookie = await t.loginStudent(student.studentId);
    cookies.set(student.id, cookie);
  }
  return cookie;
}

let goals = 0;
/** A turma goal for Ana's turma (unless told otherwise), created by the coordination. */
async function createGoal(overrides: Record<string, unknown> = {}): Promise<AdminStoreItem> {
  goals += 1;
  const response = await t.request('POST', '/admin/store/items', {
    payload: {
      name: `Sessão de cinema ${goals}`,
      currency: 'meritus',
      category: 'turma',
      goal: 300,
      deadline: dayAfter(today(), 7),
      turmaIds: [ana.turmaId],
      ...overrides,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function contribute(student: TestStudent, itemId: string, payload: unknown, key?: string) {
  return t.app.inject({
    method: 'POST',
    url: `/api/store/items/${itemId}/contributions`,
    headers: { cookie: await cookieOf(student), ...(key ? { 'idempotency-key': key } : {}) },
    payload: payload as object,
  });
}

async function balanceOf(id: string): Promise<number> {
  const [row] = await t.db.select({ meritus: students.meritus }).from(students).where(eq(students.id, id));
  return row!.meritus;
}

/** Everything a refusal must leave as it was. */
async function state() {
  const [rows] = await t.db.select({ n: count() }).from(ledgerEntries);
  const [contributions] = await t.db.select({ n: count() }).from(storeGoalContributions);
  const [orders] = await t.db.select({ n: count() }).from(storeOrders);
  const progress = await t.db.select().from(storeGoalProgress).orderBy(storeGoalProgress.itemId);
  const balances = await t.db
    .select({ id: students.id, meritus: students.meritus, estelecas: students.estelecas })
    .from(students)
    .orderBy(students.id);
  return { rows: rows!.n, contributions: contributions!.n, orders: orders!.n, progress, balances };
}

async function expectRefused(response: Awaited<ReturnType<typeof contribute>>, status: number, message: string, before: unknown) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json().error.message).toBe(message);
  expect(await state()).toEqual(before);
}

async function studentList(student: TestStudent): Promise<StudentStoreItem[]> {
  const response = await t.app.inject({ method: 'GET', url: '/api/store/items', headers: { cookie: await cookieOf(student) } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function progressOf(itemId: string) {
  const [row] = await t.db.select().from(storeGoalProgress).where(eq(storeGoalProgress.itemId, itemId));
  return row;
}

describe('contributing', () => {
  test("a student of the goal's turma contributes: one ledger row, the progress, 'Contribuição de {valor} para {meta}'", async () => {
    const goal = await createGoal();
    const before = await balanceOf(ana.id);
    const response = await contribute(ana, goal.id, { amount: 50 }, randomUUID());
    expect(response.statusCode, response.body).toBe(201);
    const message = STORE_TEXTS.contributed(50, 'meritus', goal.name);
    expect(message).toBe(`Contribuição de 50 M$ para ${goal.name}`);
    expect(response.json()).toEqual({
      message,
      balances: expect.objectContaining({ meritus: before - 50 }),
      raised: 50,
      myContribution: 50,
      reached: false,
    });
    const [row] = await t.db
      .select()
      .from(ledgerEntries)
      .innerJoin(storeGoalContributions, eq(storeGoalContributions.entryId, ledgerEntries.id))
      .where(eq(storeGoalContributions.itemId, goal.id));
    expect(row!.ledger_entries).toMatchObject({
      type: 'contribution',
      amount: 50,
      description: message,
      fromStudentId: ana.id,
      toStudentId: null,
      currency: 'meritus',
    });
    expect(await balanceOf(ana.id)).toBe(before - 50);

    // The student's list: the goal with its progress and the student's own share; the staff's with what it raised.
    const listed = (await studentList(ana)).find((item) => item.id === goal.id);
    expect(listed).toMatchObject({ goal: 300, raised: 50, myContribution: 50, price: null });
    const admin = (await t.request('GET', '/admin/store/items')).json() as AdminStoreItem[];
    expect(admin.find((item) => item.id === goal.id)?.raised).toBe(50);
    // The history shows it with its sign.
    const history = await t.app.inject({ method: 'GET', url: '/api/me/operations', headers: { cookie: await cookieOf(ana) } });
    const operations = (history.json() as { items: StudentOperation[] }).items;
    expect(operations.find((line) => line.id === row!.ledger_entries.id)).toMatchObject({ signedAmount: -50, description: message });
  });

  test('an Idempotency-Key repeated replays the first answer; another request under it is a conflict', async () => {
    const goal = await createGoal();
    const key = randomUUID();
    const first = await contribute(ana, goal.id, { amount: 20 }, key);
    expect(first.statusCode, first.body).toBe(201);
    const before = await state();
    const again = await contribute(ana, goal.id, { amount: 20 }, key);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await state()).toEqual(before);
    await expectRefused(await contribute(ana, goal.id, { amount: 21 }, key), 409, ERROR_MESSAGES.idempotency_conflict, before);
  });

  test('each refusal has its message and changes nothing', async () => {
    const goal = await createGoal({ goal: 100 });
    const item = await createGoal({ category: 'privilege', price: 10, goal: null, deadline: null, turmaIds: null });
    await contribute(ana, goal.id, { amount: 40 });
    const before = await state();
    // Not a goal, no such item, a malformed id.
    await expectRefused(await contribute(ana, item.id, { amount: 5 }), 409, ERROR_MESSAGES.store_not_a_goal, before);
    await expectRefused(await contribute(ana, randomUUID(), { amount: 5 }), 404, ERROR_MESSAGES.store_item_not_found, before);
    await expectRefused(await contribute(ana, 'não-é-id', { amount: 5 }), 404, ERROR_MESSAGES.store_item_not_found, before);
    // Amounts: missing, zero, negative, fractional, text, absurd.
    await expectRefused(await contribute(ana, goal.id, {}), 400, ERROR_MESSAGES.missing_fields, before);
    await expectRefused(await contribute(ana, goal.id, { amount: 0 }), 400, ERROR_MESSAGES.amount_not_positive, before);
    await expectRefused(await contribute(ana, goal.id, { amount: -5 }), 400, ERROR_MESSAGES.amount_not_positive, before);
    await expectRefused(await contribute(ana, goal.id, { amount: 1.5 }), 400, ERROR_MESSAGES.amount_not_integer, before);
    await expectRefused(await contribute(ana, goal.id, { amount: '10' }), 400, ERROR_MESSAGES.amount_not_integer, before);
    await expectRefused(await contribute(ana, goal.id, { amount: 1e12 }), 400, ERROR_MESSAGES.amount_too_large, before);
    // A student of another turma.
    await expectRefused(await contribute(bruno, goal.id, { amount: 5 }), 409, ERROR_MESSAGES.store_unavailable, before);
    // More than what is left: refused (not capped), saying what is left.
    const over = await contribute(ana, goal.id, { amount: 61 });
    await expectRefused(over, 409, GOAL_TEXTS.exceeds(60, 'meritus'), before);
    expect(over.json().error.message).toBe('A contribuição passa do que falta para a meta: faltam 60 M$');
    expect(over.json().error.details).toEqual({ left: 60 });
    // More than the balance.
    const [poor] = await addStudents(t.db, [{ studentId: '3100001', name: 'Paula Pobre' }]);
    await t.award(poor!.id, 5);
    const poorBefore = await state();
    await expectRefused(await contribute(poor!, goal.id, { amount: 6 }), 400, STORE_TEXTS.insufficient, poorBefore);
    // Refusals are recorded like the ledger's, for the staff's feed.
    expect((await t.lastAudit('ledger.refused'))?.details).toMatchObject({ type: 'contribution', code: 'insufficient_balance' });
  });

  test('a goal inactive, not yet available, or past its deadline takes nothing; the deadline day itself is included', async () => {
    const inactive = await createGoal({ active: false });
    const later = await createGoal({ availableFrom: dayAfter(today(), 2) });
    const past = await createGoal({ deadline: dayAfter(today(), -1) });
    const lastDay = await createGoal({ deadline: today() });
    const before = await state();
    for (const goal of [inactive, later, past]) {
      await expectRefused(await contribute(ana, goal.id, { amount: 5 }), 409, STORE_TEXTS.unavailable, before);
    }
    const ids = (await studentList(ana)).map((item) => item.id);
    expect(ids).toContain(lastDay.id);
    for (const goal of [inactive, later, past]) expect(ids).not.toContain(goal.id);
    expect((await contribute(ana, lastDay.id, { amount: 5 })).statusCode).toBe(201);
  });

  test("the contribution that reaches the goal makes its one order (no student, price = goal) and answers 'Meta atingida!'", async () => {
    const goal = await createGoal({ goal: 120 });
    await contribute(ana, goal.id, { amount: 70 });
    const [carla] = await addStudents(t.db, [{ studentId: '3100002', name: 'Clara Colega' }]);
    await t.award(carla!.id, 100);
    const reached = await contribute(carla!, goal.id, { amount: 50 });
    expect(reached.statusCode, reached.body).toBe(201);
    expect(reached.json()).toMatchObject({ message: STORE_TEXTS.goalReached, raised: 120, myContribution: 50, reached: true });
    expect(STORE_TEXTS.goalReached).toBe('Meta atingida!');
    const orders = await t.db.select().from(storeOrders).where(eq(storeOrders.itemId, goal.id));
    expect(orders).toEqual([expect.objectContaining({ studentUuid: null, price: 120, currency: 'meritus', status: 'pending' })]);
    expect(await progressOf(goal.id)).toMatchObject({ raised: 120, orderId: orders[0]!.id, reachedAt: expect.any(Date) });
    // The staff's queue has it, for the turma.
    const queue = await t.request('GET', `/admin/store/orders?item=${goal.id}`);
    expect(queue.json().items).toEqual([expect.objectContaining({ id: orders[0]!.id, student: null, price: 120 })]);
    // No more contributions.
    const before = await state();
    await expectRefused(await contribute(ana, goal.id, { amount: 1 }), 409, ERROR_MESSAGES.store_goal_reached, before);
  });
});

describe('editing a goal with contributions', () => {
  test('its amount stays above what it raised; it keeps its currency and its category; a reached one keeps its amount', async () => {
    const goal = await createGoal({ goal: 200 });
    await contribute(ana, goal.id, { amount: 80 });
    const patch = (payload: object) => t.request('PATCH', `/admin/store/items/${goal.id}`, { payload });
    const below = await patch({ goal: 80 });
    expect(below.statusCode, below.body).toBe(409);
    expect(below.json().error.message).toBe(GOAL_TEXTS.belowRaised(80, 'meritus'));
    expect((await patch({ currency: 'estelecas' })).json().error.message).toBe(ERROR_MESSAGES.store_goal_locked);
    expect((await patch({ category: 'experience', goal: null, deadline: null, price: 10 })).json().error.message).toBe(
      ERROR_MESSAGES.store_goal_locked,
    );
    // Above it: the progress follows.
    expect((await patch({ goal: 81 })).statusCode).toBe(200);
    expect(await progressOf(goal.id)).toMatchObject({ goal: 81, raised: 80 });
    // The schema holds it too, whatever the code does.
    await expect(t.db.update(storeItems).set({ goal: 80 }).where(eq(storeItems.id, goal.id))).rejects.toThrow();
    await contribute(ana, goal.id, { amount: 1 });
    const reached = await patch({ goal: 100 });
    expect(reached.json().error.message).toBe(ERROR_MESSAGES.store_goal_reached);
    expect(await progressOf(goal.id)).toMatchObject({ goal: 81, raised: 81 });
  });

  test('deactivated, it keeps its contributions and takes no more; deleted, it is only deactivated', async () => {
    const goal = await createGoal();
    await contribute(ana, goal.id, { amount: 30 });
    const removed = await t.request('DELETE', `/admin/store/items/${goal.id}`);
    expect(removed.json()).toMatchObject({ deleted: false, deactivated: true });
    const before = await state();
    await expectRefused(await contribute(ana, goal.id, { amount: 5 }), 409, STORE_TEXTS.unavailable, before);
    expect(await progressOf(goal.id)).toMatchObject({ raised: 30 });
    // A goal nobody contributed to is deleted.
    const empty = await createGoal();
    expect((await t.request('DELETE', `/admin/store/items/${empty.id}`)).json()).toMatchObject({ deleted: true });
  });
});

/** Three contributions to a fresh goal (Ana twice, Bruno's turma included), with the balances before them. */
async function fundedGoal(options: { goal?: number; deadline?: string } = {}) {
  const goal = await createGoal({ goal: options.goal ?? 300, deadline: options.deadline ?? today(), turmaIds: null });
  const balances = { ana: await balanceOf(ana.id), bruno: await balanceOf(bruno.id) };
  for (const [student, amount] of [
    [ana, 10],
    [bruno, 25],
    [ana, 15],
  ] as const) {
    expect((await contribute(student, goal.id, { amount })).statusCode).toBe(201);
  }
  return { goal, balances };
}

async function refundsOf(itemId: string) {
  return t.db
    .select({ contribution: storeGoalContributions, refund: ledgerEntries })
    .from(storeGoalContributions)
    .leftJoin(ledgerEntries, eq(ledgerEntries.id, storeGoalContributions.refundEntryId))
    .where(eq(storeGoalContributions.itemId, itemId));
}

describe('the deadline', () => {
  // Other tests' goals due tomorrow are given back first: each test counts its own.
  beforeEach(async () => {
    await t.app.expireStoreGoals(noonOf(dayAfter(today(), 1)));
  });

  test('passed before the goal was reached: each contribution comes back as its own refund row, once, and the goal closes', async () => {
    const { goal, balances } = await fundedGoal();
    const totals = await totalBalances(t.db);
    // On its last day nothing is due.
    expect(await t.app.expireStoreGoals(noonOf(today()))).toBe(0);
    const tomorrow = noonOf(dayAfter(today(), 1));
    expect(await t.app.expireStoreGoals(tomorrow)).toBe(3);
    const refunds = await refundsOf(goal.id);
    expect(refunds).toHaveLength(3);
    for (const { contribution, refund } of refunds) {
      expect(refund).toMatchObject({
        type: 'refund',
        amount: contribution.amount,
        toStudentId: contribution.studentUuid,
        fromStudentId: null,
        currency: 'meritus',
        description: GOAL_TEXTS.refundDescription.deadline(goal.name),
        actorKind: 'system',
      });
    }
    expect(await balanceOf(ana.id)).toBe(balances.ana);
    expect(await balanceOf(bruno.id)).toBe(balances.bruno);
    expect(await totalBalances(t.db)).toEqual({ ...totals, meritus: totals.meritus + 50 });
    expect(await progressOf(goal.id)).toMatchObject({ raised: 0, refundReason: 'deadline', refundedAt: expect.any(Date) });
    expect(await reconcile(t.db)).toEqual([]);
    // Again, and twice at once: nothing more.
    const before = await state();
    expect(await t.app.expireStoreGoals(tomorrow)).toBe(0);
    expect(await Promise.all([t.app.expireStoreGoals(tomorrow), t.app.expireStoreGoals(tomorrow)])).toEqual([0, 0]);
    expect(await state()).toEqual(before);
    // Closed: it takes nothing more, even if its deadline moves, and leaves the student's list.
    await t.request('PATCH', `/admin/store/items/${goal.id}`, { payload: { deadline: dayAfter(today(), 30) } });
    await expectRefused(await contribute(ana, goal.id, { amount: 1 }), 409, STORE_TEXTS.unavailable, before);
    expect((await studentList(ana)).map((item) => item.id)).not.toContain(goal.id);
    // The history shows the refund with the goal's name.
    const history = await t.app.inject({ method: 'GET', url: '/api/me/operations', headers: { cookie: await cookieOf(bruno) } });
    expect(JSON.stringify(history.json())).toContain(GOAL_TEXTS.refundDescription.deadline(goal.name));
  });

  test('run by two at once (two instances), every contribution is given back exactly once', async () => {
    const goals = [await fundedGoal(), await fundedGoal(), await fundedGoal()];
    const tomorrow = noonOf(dayAfter(today(), 1));
    const runs = await Promise.all([t.app.expireStoreGoals(tomorrow), t.app.expireStoreGoals(tomorrow), t.app.expireStoreGoals(tomorrow)]);
    expect(runs.reduce((sum, n) => sum + n, 0)).toBe(9);
    for (const { goal } of goals) {
      const refunds = await refundsOf(goal.id);
      expect(refunds.every(({ refund }) => refund !== null)).toBe(true);
    }
    const [rows] = await t.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, 'store.goal_refunded'));
    expect(rows!.n).toBeGreaterThanOrEqual(3);
    expect(await reconcile(t.db)).toEqual([]);
  });

  test('a contribution racing the deadline job: given back with the rest, or refused; never kept, never twice', async () => {
    for (let round = 0; round < 4; round++) {
      const { goal } = await fundedGoal();
      const before = await balanceOf(ana.id);
      const [contribution] = await Promise.all([
        contribute(ana, goal.id, { amount: 7 }),
        t.app.expireStoreGoals(noonOf(dayAfter(today(), 1))),
      ]);
      expect([201, 409]).toContain(contribution.statusCode);
      if (contribution.statusCode === 409) {
        // The job's day is tomorrow, the contribution's today: it came after the goal closed.
        expect(contribution.json().error.message).toBe(STORE_TEXTS.unavailable);
      }
      await t.app.expireStoreGoals(noonOf(dayAfter(today(), 1)));
      const [kept] = await t.db
        .select({ n: count() })
        .from(storeGoalContributions)
        .where(and(eq(storeGoalContributions.itemId, goal.id), isNull(storeGoalContributions.refundEntryId)));
      expect(kept!.n).toBe(0);
      expect(await balanceOf(ana.id)).toBe(before + 25);
      expect(await reconcile(t.db)).toEqual([]);
    }
  });

  test('the contributors watching are told, each with what they got back', async () => {
    const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { goal } = await fundedGoal();
    const streams = { ana: await openStream(baseUrl, await cookieOf(ana)), bruno: await openStream(baseUrl, await cookieOf(bruno)) };
    const [outsider] = await addStudents(t.db, [{ studentId: '3100003', name: 'Otávio Outro' }]);
    const other = await openStream(baseUrl, await t.loginStudent(outsider!.studentId));
    try {
      await Promise.all(
        [...Object.values(streams), other].map((stream) => stream.waitFor((events) => events.some((e) => e.event === 'ready'))),
      );
      expect(await t.app.expireStoreGoals(noonOf(dayAfter(today(), 1)))).toBe(3);
      const notice = (name: keyof typeof streams, amount: number) =>
        streams[name].waitFor((events) =>
          events.some(
            (event) =>
              event.event === 'notice' &&
              (event.data as { message: string }).message === GOAL_TEXTS.refunded.deadline(amount, 'meritus', goal.name),
          ),
        );
      await Promise.all([notice('ana', 25), notice('bruno', 25)]);
      expect(GOAL_TEXTS.refunded.deadline(25, 'meritus', goal.name)).toBe(
        `A meta ${goal.name} não foi atingida no prazo: 25 M$ devolvidos.`,
      );
      // Their balances too, at once.
      await streams.ana.waitFor((events) => events.some((event) => event.event === 'balance'));
      await t.app.liveHub.tick();
      expect(other.received.filter((event) => event.event === 'notice')).toEqual([]);
    } finally {
      await Promise.all([...Object.values(streams), other].map((stream) => stream.close()));
    }
  });
});

describe("a reached goal's order", () => {
  test('refused: the order is refused with its reason and every contribution comes back at once', async () => {
    const { goal, balances } = await fundedGoal({ goal: 50 });
    const [order] = await t.db.select().from(storeOrders).where(eq(storeOrders.itemId, goal.id));
    const key = randomUUID();
    const cookie = await t.loginAdmin();
    const refuse = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/store/orders/${order!.id}/refuse`,
        headers: { cookie, 'idempotency-key': key },
        payload: { reason: 'Cinema fechado' },
      });
    const response = await refuse();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      message: STORE_TEXTS.refused('Cinema fechado'),
      order: { id: order!.id, status: 'refused', reason: 'Cinema fechado', studentId: null },
    });
    expect(await balanceOf(ana.id)).toBe(balances.ana);
    expect(await balanceOf(bruno.id)).toBe(balances.bruno);
    const refunds = await refundsOf(goal.id);
    expect(refunds.map(({ refund }) => refund?.description)).toEqual(Array(3).fill(GOAL_TEXTS.refundDescription.order_refused(goal.name)));
    expect(refunds.every(({ refund }) => refund?.actorKind === 'admin')).toBe(true);
    expect(await progressOf(goal.id)).toMatchObject({ raised: 0, refundReason: 'order_refused' });
    // Replayed by its key; refused again without it: not pending. The deadline job finds nothing to do.
    const before = await state();
    expect((await refuse()).json()).toEqual(response.json());
    const again = await t.request('POST', `/admin/store/orders/${order!.id}/refuse`, { payload: { reason: 'De novo' } });
    expect(again.json().error.message).toBe(ERROR_MESSAGES.store_order_not_pending);
    expect(await t.app.expireStoreGoals(noonOf(dayAfter(today(), 2)))).toBe(0);
    expect(await state()).toEqual(before);
  });

  test('delivered: nothing comes back, at the deadline or after', async () => {
    const { goal } = await fundedGoal({ goal: 50 });
    const [order] = await t.db.select().from(storeOrders).where(eq(storeOrders.itemId, goal.id));
    expect((await t.request('POST', `/admin/store/orders/${order!.id}/deliver`)).statusCode).toBe(200);
    expect(await t.app.expireStoreGoals(noonOf(dayAfter(today(), 3)))).toBe(0);
    expect(await progressOf(goal.id)).toMatchObject({ raised: 50, refundedAt: null });
  });
});

describe('races', () => {
  test('many students at once across the goal: one order, raised equals the goal, every refused one changed nothing', async () => {
    const crowd = await addStudents(
      t.db,
      Array.from({ length: 24 }, (_, index) => ({ studentId: `32000${String(index).padStart(2, '0')}`, name: `Aluno Corrida ${index}` })),
    );
    for (const student of crowd) await t.award(student.id, 100);
    const cookiesOf = await Promise.all(crowd.map((student) => cookieOf(student)));
    expect(cookiesOf).toHaveLength(24);
    // 24 × 30 = 720 offered for a goal of 500: some are refused (what is left is less), one reaches it.
    const goal = await createGoal({ goal: 500 });
    const totals = await totalBalances(t.db);
    const responses = await Promise.all(crowd.map((student) => contribute(student, goal.id, { amount: 30 }, randomUUID())));
    const accepted = responses.filter((response) => response.statusCode === 201);
    const refused = responses.filter((response) => response.statusCode !== 201);
    for (const response of refused) {
      expect(response.statusCode, response.body).toBe(409);
      expect([ERROR_MESSAGES.store_goal_reached, GOAL_TEXTS.exceeds(20, 'meritus')]).toContain(response.json().error.message);
    }
    expect(accepted).toHaveLength(16);
    expect(accepted.filter((response) => response.json().reached)).toHaveLength(0);
    // 16 × 30 = 480: 20 left; one more of 20 reaches it, and only one of two at once does.
    const [first, second] = crowd.slice(0, 2) as [TestStudent, TestStudent];
    const last = await Promise.all([contribute(first, goal.id, { amount: 20 }), contribute(second, goal.id, { amount: 20 })]);
    expect(last.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    expect(last.find((response) => response.statusCode === 201)!.json()).toMatchObject({ reached: true, raised: 500 });
    expect(last.find((response) => response.statusCode === 409)!.json().error.message).toBe(ERROR_MESSAGES.store_goal_reached);
    const orders = await t.db.select().from(storeOrders).where(eq(storeOrders.itemId, goal.id));
    expect(orders).toHaveLength(1);
    expect(await progressOf(goal.id)).toMatchObject({ raised: 500, goal: 500 });
    const [sum] = await t.db
      .select({ total: sql<number>`sum(${storeGoalContributions.amount})::int` })
      .from(storeGoalContributions)
      .where(eq(storeGoalContributions.itemId, goal.id));
    expect(sum!.total).toBe(500);
    expect(await totalBalances(t.db)).toEqual({ ...totals, meritus: totals.meritus - 500 });
    expect(await reconcile(t.db)).toEqual([]);
  });
});

describe('reconciliation and Debug & Diagnóstico', () => {
  test('know contributions and their refunds: a goal or a row changed behind them is reported, and left as it is', async () => {
    const { goal } = await fundedGoal();
    await t.app.expireStoreGoals(noonOf(dayAfter(today(), 1)));
    const open = await createGoal();
    await contribute(ana, open.id, { amount: 9 });
    const run = async () => {
      const response = await t.request('POST', '/admin/diagnostics/run');
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { logs: { category: string; status: string; message: string; details: Record<string, unknown> }[] }).logs;
    };
    const clean = (await run()).filter((log) => log.category === 'TRANSACTIONS');
    expect(clean.filter((log) => log.status === 'error')).toEqual([]);
    expect(clean.map((log) => log.message)).toContain(
      'Metas da turma: o arrecadado de cada uma é a soma das suas contribuições não devolvidas',
    );

    // The open goal's progress raised behind its contributions; a refund row changed behind the contribution it gives back.
    const [refunded] = await refundsOf(goal.id);
    await t.db.execute(sql`UPDATE store_goal_progress SET raised = raised + 1 WHERE item_id = ${open.id}`);
    await t.db.execute(sql`UPDATE ledger_entries SET amount = amount + 1 WHERE id = ${refunded!.refund!.id}`);
    try {
      const found = await reconcile(t.db);
      expect(found).toEqual(
        expect.arrayContaining([
          { kind: 'goal_mismatch', itemId: open.id, name: open.name, raised: 10, fromContributions: 9 },
          { kind: 'invalid_entry', entryId: refunded!.refund!.id, problem: 'devolução diferente da contribuição que devolve' },
        ]),
      );
      const errors = (await run()).filter((log) => log.category === 'TRANSACTIONS' && log.status === 'error').map((log) => log.message);
      expect(errors).toContain('1 meta da turma difere da soma das suas contribuições não devolvidas');
      expect(errors).toContain('1 linha inválida no razão');
    } finally {
      await t.db.execute(sql`UPDATE store_goal_progress SET raised = raised - 1 WHERE item_id = ${open.id}`);
      await t.db.execute(sql`UPDATE ledger_entries SET amount = amount - 1 WHERE id = ${refunded!.refund!.id}`);
    }
    expect(await reconcile(t.db)).toEqual([]);
  });
});
