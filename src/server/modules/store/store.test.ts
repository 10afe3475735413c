import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { addAdmin, addStudents, buildTestApp, type TestApp, type TestStudent } from '../../test/test-app.ts';
import { auditLog, idempotencyKeys, ledgerEntries, storeItems, storeLimitUses, storeOrders, students } from '../../db/schema.ts';
import { reconcile } from '../ledger/reconciliation.service.ts';
import { png, upload } from '../archive/archive-test-kit.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { DEFAULT_TIME_ZONE, dayIn } from '../../../shared/format.ts';
import type { AdminStoreItem, StoreItemInput } from '../../../shared/store.ts';

/**
 * The Loja's items, purchases, orders and refunds (issue 35), through the API on both databases: every rule and text of
 * the issue, who may do what, and that the ledger reconciles after each test.
 */
let t: TestApp;
let coordinator: string;
let ana: TestStudent;
let bruno: TestStudent;
let anaCookie: string;
let brunoCookie: string;
let teacherOfAna: string;
let teacherOfOther: string;

beforeAll(async () => {
  t = await buildTestApp();
  coordinator = await t.loginAdmin();
  [ana, bruno] = t.students as [TestStudent, TestStudent];
  const prof = await addAdmin(t.db, { email: 'prof.loja@escola.test', name: 'Paula Professora', role: 'teacher', turmaIds: [ana.turmaId] });
  const other = await addAdmin(t.db, { email: 'outra.loja@escola.test', name: 'Olga Outra', role: 'teacher', turmaIds: [bruno.turmaId] });
  teacherOfAna = await t.loginAdmin(prof.email);
  teacherOfOther = await t.loginAdmin(other.email);
  anaCookie = await t.loginStudent(ana.studentId);
  brunoCookie = await t.loginStudent(bruno.studentId);
  await t.award(ana.id, 1000);
  await t.award(ana.id, 50, { currency: 'estelecas' });
  await t.award(bruno.id, 1000);
});
afterAll(async () => t.close());
beforeEach(async () => {
  expect(await reconcile(t.db)).toEqual([]);
});

const today = () => dayIn(DEFAULT_TIME_ZONE, new Date());
const shiftDay = (day: string, days: number) => new Date(Date.parse(`${day}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

async function createItem(input: Partial<StoreItemInput> = {}, cookie = coordinator): Promise<AdminStoreItem> {
  const response = await t.request('POST', '/admin/store/items', {
    payload: { name: `Item ${randomUUID().slice(0, 6)}`, price: 100, currency: 'meritus', category: 'privilege', ...input },
    cookie,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

function buy(itemId: string, cookie = anaCookie, key: string | null = randomUUID()) {
  return t.app.inject({
    method: 'POST',
    url: `/api/store/items/${itemId}/orders`,
    headers: { cookie, ...(key ? { 'idempotency-key': key } : {}) },
  });
}

async function bought(itemId: string, cookie = anaCookie) {
  const response = await buy(itemId, cookie);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().order as { id: string; price: number };
}

function cancel(orderId: string, cookie = anaCookie, key: string = randomUUID()) {
  return t.app.inject({ method: 'POST', url: `/api/me/orders/${orderId}/cancel`, headers: { cookie, 'idempotency-key': key } });
}

function refuse(orderId: string, reason: unknown, cookie = coordinator, key: string = randomUUID()) {
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/store/orders/${orderId}/refuse`,
    headers: { cookie, 'idempotency-key': key },
    payload: { reason },
  });
}

async function balanceOf(id: string) {
  const [row] = await t.db.select({ meritus: students.meritus, estelecas: students.estelecas }).from(students).where(eq(students.id, id));
  return row!;
}

const errorOf = (response: { json(): unknown }) => (response.json() as { error: { code: string; message: string } }).error;

describe('the catalogue', () => {
  test('the coordination creates an item; every field comes back as sent, at the end of the catalogue', async () => {
    const turmaIds = [ana.turmaId];
    const item = await createItem({
      name: 'Sentar onde quiser por um dia',
      description: 'Escolha seu lugar na sala',
      price: 150,
      stock: 5,
      limit: { count: 1, period: 'month' },
      availableFrom: today(),
      availableUntil: shiftDay(today(), 30),
      turmaIds,
    });
    expect(item).toMatchObject({
      name: 'Sentar onde quiser por um dia',
      description: 'Escolha seu lugar na sala',
      imageId: null,
      price: 150,
      currency: 'meritus',
      stock: 5,
      stockLeft: 5,
      limit: { count: 1, period: 'month' },
      availableFrom: today(),
      availableUntil: shiftDay(today(), 30),
      turmaIds,
      category: 'privilege',
      goal: null,
      deadline: null,
      active: true,
      orders: 0,
      pendingOrders: 0,
    });
    const list = (await t.request('GET', '/admin/store/items', { cookie: teacherOfOther })).json() as AdminStoreItem[];
    expect(list.at(-1)!.id).toBe(item.id);
    expect((await t.lastAudit('store.item.create'))?.details).toMatchObject({ itemId: item.id });
  });

  test('bad items are refused with the catalogue’s messages and change nothing', async () => {
    const [before] = await t.db.select({ n: count() }).from(storeItems);
    const cases: [object, string][] = [
      [{ name: '' }, 'store_name_required'],
      [{ name: 'x'.repeat(81) }, 'store_name_too_long'],
      [{ description: 'x'.repeat(501) }, 'store_description_too_long'],
      [{ price: 0 }, 'store_price_invalid'],
      [{ price: 1.5 }, 'store_price_invalid'],
      [{ stock: -1 }, 'store_stock_invalid'],
      [{ limit: { count: 0, period: 'week' } }, 'store_limit_invalid'],
      [{ limit: { count: 1, period: 'day' } }, 'store_limit_invalid'],
      [{ availableFrom: '2026-02-30' }, 'store_invalid_date'],
      [{ availableFrom: '2026-05-02', availableUntil: '2026-05-01' }, 'store_period_order'],
      [{ category: 'food' }, 'store_category_invalid'],
      [{ category: 'turma' }, 'store_goal_invalid'],
      [{ goal: 3000 }, 'store_goal_fields'],
      [{ imageId: randomUUID() }, 'store_image_not_found'],
      [{ turmaIds: [randomUUID()] }, 'store_turmas_invalid'],
    ];
    for (const [change, code] of cases) {
      const response = await t.request('POST', '/admin/store/items', {
        payload: { name: 'Caderno', price: 10, currency: 'meritus', category: 'material', ...change },
      });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(errorOf(response), JSON.stringify(change)).toMatchObject({
        code,
        message: ERROR_MESSAGES[code as keyof typeof ERROR_MESSAGES],
      });
    }
    const [after] = await t.db.select({ n: count() }).from(storeItems);
    expect(after!.n).toBe(before!.n);
  });

  test('a teacher reads the catalogue but never writes it', async () => {
    const item = await createItem();
    expect((await t.request('GET', '/admin/store/items', { cookie: teacherOfAna })).statusCode).toBe(200);
    for (const [method, url] of [
      ['POST', '/admin/store/items'],
      ['PATCH', `/admin/store/items/${item.id}`],
      ['DELETE', `/admin/store/items/${item.id}`],
    ] as const) {
      const response = await t.request(method, url, {
        payload: { name: 'Outro', price: 5, currency: 'meritus', category: 'material' },
        cookie: teacherOfAna,
      });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
    const [row] = await t.db.select().from(storeItems).where(eq(storeItems.id, item.id));
    expect(row!.name).toBe(item.name);
  });

  test('an edit changes what was sent; reordering moves the item and closes the others up', async () => {
    const first = await createItem({ name: 'Primeiro' });
    const second = await createItem({ name: 'Segundo' });
    const edited = await t.request('PATCH', `/admin/store/items/${second.id}`, { payload: { price: 70, stock: null, position: 0 } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Segundo', price: 70, stock: null, stockLeft: null });
    const order = ((await t.request('GET', '/admin/store/items')).json() as AdminStoreItem[]).map((item) => item.id);
    expect(order[0]).toBe(second.id);
    expect(order.indexOf(first.id)).toBeGreaterThan(0);
    const positions = await t.db.select({ position: storeItems.position }).from(storeItems).orderBy(storeItems.position);
    expect(positions.map((row) => row.position)).toEqual(positions.map((_, index) => index));
    const refused = await t.request('PATCH', `/admin/store/items/${second.id}`, { payload: { category: 'turma' } });
    expect(errorOf(refused).code).toBe('store_goal_invalid');
    expect((await t.request('PATCH', `/admin/store/items/${randomUUID()}`, { payload: { price: 3 } })).statusCode).toBe(404);
  });

  test('stock cannot be edited below what orders took (store_stock_below_orders)', async () => {
    const item = await createItem({ price: 10, stock: 3 });
    await bought(item.id);
    await bought(item.id);
    const refused = await t.request('PATCH', `/admin/store/items/${item.id}`, { payload: { stock: 1 } });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused)).toEqual({ code: 'store_stock_below_orders', message: ERROR_MESSAGES.store_stock_below_orders });
    const ok = await t.request('PATCH', `/admin/store/items/${item.id}`, { payload: { stock: 2 } });
    expect(ok.json()).toMatchObject({ stock: 2, stockLeft: 0, orders: 2, pendingOrders: 2 });
  });

  test('DELETE removes an item without orders, and only deactivates one with orders, which keeps its pending orders', async () => {
    const unused = await createItem();
    const deleted = await t.request('DELETE', `/admin/store/items/${unused.id}`);
    expect(deleted.json()).toEqual({ deleted: true, deactivated: false, message: `Item '${unused.name}' excluído` });
    expect(await t.db.select().from(storeItems).where(eq(storeItems.id, unused.id))).toEqual([]);

    const used = await createItem({ price: 10 });
    const order = await bought(used.id);
    const kept = await t.request('DELETE', `/admin/store/items/${used.id}`);
    expect(kept.json()).toEqual({ deleted: false, deactivated: true, message: `Item '${used.name}' desativado: ele já tem pedidos` });
    const items = (await t.request('GET', '/store/items', { cookie: anaCookie })).json() as { id: string }[];
    expect(items.map((item) => item.id)).not.toContain(used.id);
    expect(errorOf(await buy(used.id))).toEqual({ code: 'store_unavailable', message: 'Item indisponível' });
    const delivered = await t.request('POST', `/admin/store/orders/${order.id}/deliver`);
    expect(delivered.json()).toMatchObject({ message: 'Pedido entregue', order: { status: 'delivered' } });
  });

  test('an item’s image must exist in the archive; anyone signed in sees it through the store', async () => {
    const sent = await upload(t, [{ name: 'fone.png', bytes: await png(64, 48, [10, 120, 200]) }]);
    expect(sent.statusCode, sent.body).toBe(200);
    const [result] = (sent.json() as { results: { ok: boolean; item?: { id: string } }[] }).results;
    const imageId = result!.item!.id;
    const item = await createItem({ name: 'Fone de ouvido', imageId });
    expect(item.imageId).toBe(imageId);
    const image = await t.app.inject({ method: 'GET', url: `/api/store/items/${item.id}/image`, headers: { cookie: brunoCookie } });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toMatch(/^image\//);
    expect(image.rawPayload.length).toBeGreaterThan(0);
    expect((await t.app.inject({ method: 'GET', url: `/api/store/items/${item.id}/image` })).statusCode).toBe(401);
    const without = await createItem();
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/store/items/${without.id}/image`, headers: { cookie: anaCookie } })).statusCode,
    ).toBe(404);
  });
});

describe('what a student may buy', () => {
  test('the list holds only what this student may buy now, with the stock and the limit left', async () => {
    const open = await createItem({ price: 20, stock: 4, limit: { count: 2, period: 'week' } });
    const inactive = await createItem({ active: false });
    const later = await createItem({ availableFrom: shiftDay(today(), 1) });
    const over = await createItem({ availableUntil: shiftDay(today(), -1) });
    const lastDay = await createItem({ availableFrom: today(), availableUntil: today() });
    const otherTurma = await createItem({ turmaIds: [bruno.turmaId] });
    const mine = await createItem({ turmaIds: [ana.turmaId, bruno.turmaId] });
    await bought(open.id);

    const listed = (await t.request('GET', '/store/items', { cookie: anaCookie })).json() as {
      id: string;
      stockLeft: number | null;
      limitLeft: number | null;
      raised: null;
      myContribution: null;
    }[];
    const ids = listed.map((item) => item.id);
    expect(ids).toEqual(expect.arrayContaining([open.id, lastDay.id, mine.id]));
    for (const hidden of [inactive, later, over, otherTurma]) expect(ids).not.toContain(hidden.id);
    expect(listed.find((item) => item.id === open.id)).toMatchObject({ stockLeft: 3, limitLeft: 1, raised: null, myContribution: null });
    expect(listed.find((item) => item.id === mine.id)).toMatchObject({ stockLeft: null, limitLeft: null });
    const brunos = ((await t.request('GET', '/store/items', { cookie: brunoCookie })).json() as { id: string; limitLeft: number }[]).find(
      (item) => item.id === open.id,
    );
    expect(brunos?.limitLeft).toBe(2);
    expect((await t.request('GET', '/store/items', { cookie: coordinator })).statusCode).toBe(403);
  });

  test('items outside their days, inactive or of another turma are refused: Item indisponível', async () => {
    for (const input of [
      { active: false },
      { availableFrom: shiftDay(today(), 1) },
      { availableUntil: shiftDay(today(), -1) },
      { turmaIds: [bruno.turmaId] },
    ]) {
      const item = await createItem(input);
      const response = await buy(item.id);
      expect(response.statusCode, JSON.stringify(input)).toBe(409);
      expect(errorOf(response)).toEqual({ code: 'store_unavailable', message: 'Item indisponível' });
    }
    expect(errorOf(await buy(randomUUID()))).toEqual({ code: 'store_item_not_found', message: ERROR_MESSAGES.store_item_not_found });
    expect((await buy('nao-e-um-id')).statusCode).toBe(404);
  });
});

describe('a purchase', () => {
  test('one transaction: the purchase row, the order, the stock and the limit; 201 { order, message, balances }', async () => {
    const item = await createItem({ price: 120, stock: 2, limit: { count: 3, period: 'ever' } });
    const before = await balanceOf(ana.id);
    const response = await buy(item.id);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      message: 'Pedido realizado! Aguarde a entrega.',
      order: { itemId: item.id, studentId: ana.id, price: 120, currency: 'meritus', status: 'pending', reason: null, decidedAt: null },
      balances: { meritus: before.meritus - 120, estelecas: before.estelecas },
    });
    const [order] = await t.db.select().from(storeOrders).where(eq(storeOrders.id, body.order.id));
    const [entry] = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.id, order!.purchaseEntryId!));
    expect(entry).toMatchObject({
      type: 'purchase',
      amount: 120,
      fromStudentId: ana.id,
      toStudentId: null,
      description: `Compra: ${item.name}`,
    });
    const [row] = await t.db.select({ taken: storeItems.taken }).from(storeItems).where(eq(storeItems.id, item.id));
    expect(row!.taken).toBe(1);
    const [use] = await t.db.select().from(storeLimitUses).where(eq(storeLimitUses.itemId, item.id));
    expect(use).toMatchObject({ used: 1, allowed: 3, periodStart: '1970-01-01' });
    const mine = (await t.request('GET', '/me/orders', { cookie: anaCookie })).json() as { id: string; itemName: string; status: string }[];
    expect(mine[0]).toMatchObject({ id: body.order.id, itemName: item.name, status: 'pending' });
  });

  test('Estelecas pay for an item priced in Estelecas', async () => {
    const item = await createItem({ price: 20, currency: 'estelecas' });
    const before = await balanceOf(ana.id);
    const response = await buy(item.id);
    expect(response.json().balances).toMatchObject({ meritus: before.meritus, estelecas: before.estelecas - 20 });
  });

  test('Saldo insuficiente changes nothing and is recorded as a refused attempt', async () => {
    const item = await createItem({ price: 99_999, stock: 1 });
    const before = await balanceOf(ana.id);
    const response = await buy(item.id);
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toEqual({ code: 'insufficient_balance', message: 'Saldo insuficiente' });
    expect(await balanceOf(ana.id)).toEqual(before);
    expect(await t.db.select().from(storeOrders).where(eq(storeOrders.itemId, item.id))).toEqual([]);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'ledger.refused'), eq(auditLog.actorId, ana.id)))
      .orderBy(auditLog.id);
    expect(audit).toBeDefined();
    const last = await t.lastAudit('ledger.refused');
    expect(last?.details).toMatchObject({ type: 'purchase', code: 'insufficient_balance', reason: 'Saldo insuficiente', amount: 99_999 });
  });

  test('Esgotado once the stock is taken; a refusal or cancellation gives the unit back', async () => {
    const item = await createItem({ price: 10, stock: 1 });
    const order = await bought(item.id);
    const response = await buy(item.id, brunoCookie);
    expect(response.statusCode).toBe(409);
    expect(errorOf(response)).toEqual({ code: 'store_sold_out', message: 'Esgotado' });
    expect((await cancel(order.id)).statusCode).toBe(200);
    await bought(item.id, brunoCookie);
  });

  test('the limit per student and period: Limite de {n} por {período} atingido; a cancellation gives the place back', async () => {
    const texts = { week: 'semana', month: 'mês', year: 'ano letivo', ever: 'aluno' } as const;
    for (const [period, label] of Object.entries(texts)) {
      const item = await createItem({ price: 1, limit: { count: 2, period: period as keyof typeof texts } });
      const first = await bought(item.id);
      await bought(item.id);
      const response = await buy(item.id);
      expect(response.statusCode).toBe(409);
      expect(errorOf(response)).toMatchObject({ code: 'store_limit_reached', message: `Limite de 2 por ${label} atingido` });
      await bought(item.id, brunoCookie);
      expect((await cancel(first.id)).statusCode).toBe(200);
      await bought(item.id);
    }
  });

  test('a repeated Idempotency-Key replays the first answer; the same key for another item is a conflict', async () => {
    const item = await createItem({ price: 10, stock: 5 });
    const key = randomUUID();
    const first = await buy(item.id, anaCookie, key);
    const again = await buy(item.id, anaCookie, key);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await t.db.select({ n: count() }).from(storeOrders).where(eq(storeOrders.itemId, item.id))).toEqual([{ n: 1 }]);
    const other = await createItem({ price: 10 });
    const conflict = await buy(other.id, anaCookie, key);
    expect(conflict.statusCode).toBe(409);
    expect(errorOf(conflict).code).toBe('idempotency_conflict');
    const malformed = await buy(item.id, anaCookie, 'x');
    expect(malformed.statusCode).toBe(400);
    expect(errorOf(malformed).code).toBe('idempotency_key_invalid');
    const [stored] = await t.db.select({ n: count() }).from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(stored!.n).toBe(1);
  });

  test('only a student buys', async () => {
    const item = await createItem();
    expect((await buy(item.id, coordinator)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `/api/store/items/${item.id}/orders` })).statusCode).toBe(401);
  });
});

describe('orders', () => {
  test('the owner cancels a pending order: Pedido cancelado. {valor} devolvidos., once', async () => {
    const item = await createItem({ price: 35, stock: 3 });
    const order = await bought(item.id);
    const before = await balanceOf(ana.id);
    const key = randomUUID();
    const response = await cancel(order.id, anaCookie, key);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'Pedido cancelado. 35 M$ devolvidos.',
      order: { id: order.id, status: 'cancelled', reason: null },
      balances: { meritus: before.meritus + 35 },
    });
    expect((await cancel(order.id, anaCookie, key)).json()).toEqual(response.json());
    const twice = await cancel(order.id);
    expect(twice.statusCode).toBe(409);
    expect(errorOf(twice)).toEqual({ code: 'store_order_not_pending', message: 'Este pedido não está mais pendente' });
    const [row] = await t.db.select().from(storeOrders).where(eq(storeOrders.id, order.id));
    const [refund] = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.id, row!.refundEntryId!));
    expect(refund).toMatchObject({
      type: 'refund',
      amount: 35,
      toStudentId: ana.id,
      fromStudentId: null,
      description: `Devolução: ${item.name}`,
    });
    expect(await balanceOf(ana.id)).toEqual({ ...before, meritus: before.meritus + 35 });
  });

  test('another student’s order is not found to a student', async () => {
    const item = await createItem({ price: 5 });
    const order = await bought(item.id);
    expect(errorOf(await cancel(order.id, brunoCookie)).code).toBe('store_order_not_found');
    expect((await cancel(randomUUID())).statusCode).toBe(404);
    const mine = (await t.request('GET', '/me/orders', { cookie: brunoCookie })).json() as { id: string }[];
    expect(mine.map((row) => row.id)).not.toContain(order.id);
  });

  test('the staff refuse with a reason the student sees: Pedido recusado: {motivo}, the price back at once', async () => {
    const item = await createItem({ price: 40 });
    const order = await bought(item.id);
    const before = await balanceOf(ana.id);
    expect(errorOf(await refuse(order.id, '  ')).code).toBe('store_refuse_reason_required');
    expect(errorOf(await refuse(order.id, 'x'.repeat(201))).code).toBe('store_refuse_reason_too_long');
    const response = await refuse(order.id, 'Item em falta');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'Pedido recusado: Item em falta',
      order: { status: 'refused', reason: 'Item em falta' },
    });
    expect(await balanceOf(ana.id)).toEqual({ ...before, meritus: before.meritus + 40 });
    const mine = (await t.request('GET', '/me/orders', { cookie: anaCookie })).json() as { id: string; reason: string }[];
    expect(mine.find((row) => row.id === order.id)?.reason).toBe('Item em falta');
    expect((await t.lastAudit('store.order.refuse'))?.details).toMatchObject({ orderId: order.id, reason: 'Item em falta' });
    expect(errorOf(await refuse(order.id, 'De novo')).code).toBe('store_order_not_pending');
  });

  test('delivered is never refunded: Pedido entregue, then neither cancel nor refuse', async () => {
    const item = await createItem({ price: 15 });
    const order = await bought(item.id);
    const response = await t.request('POST', `/admin/store/orders/${order.id}/deliver`);
    expect(response.json()).toMatchObject({ message: 'Pedido entregue', order: { status: 'delivered' } });
    const before = await balanceOf(ana.id);
    expect(errorOf(await cancel(order.id)).code).toBe('store_order_not_pending');
    expect(errorOf(await refuse(order.id, 'Tarde demais')).code).toBe('store_order_not_pending');
    expect((await t.request('POST', `/admin/store/orders/${order.id}/deliver`)).statusCode).toBe(409);
    expect(await balanceOf(ana.id)).toEqual(before);
  });

  test('deliver several: the pending ones delivered, the others skipped and counted', async () => {
    const item = await createItem({ price: 2 });
    const a = await bought(item.id);
    const b = await bought(item.id, brunoCookie);
    const c = await bought(item.id);
    await cancel(c.id);
    const response = await t.request('POST', '/admin/store/orders/deliver', { payload: { ids: [a.id, b.id, c.id, randomUUID()] } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ delivered: 2, skipped: 2, message: '2 pedidos entregues; 2 não estavam pendentes' });
    const tooMany = await t.request('POST', '/admin/store/orders/deliver', {
      payload: { ids: Array.from({ length: 501 }, () => randomUUID()) },
    });
    expect(errorOf(tooMany).code).toBe('store_deliver_too_many');
  });

  test('a teacher sees and decides the orders of their turmas only; outside them 403 like other writes', async () => {
    const item = await createItem({ price: 3 });
    const anas = await bought(item.id);
    const brunos = await bought(item.id, brunoCookie);
    const read = await t.request('GET', `/admin/store/orders?item=${item.id}`, { cookie: teacherOfAna });
    expect(read.statusCode, read.body).toBe(200);
    const page = read.json() as {
      items: { id: string }[];
      total: number;
    };
    expect(page.items.map((row) => row.id)).toEqual([anas.id]);
    expect(page.total).toBe(1);
    const outside = await refuse(brunos.id, 'Não', teacherOfAna);
    expect(outside.statusCode).toBe(403);
    expect(errorOf(outside).code).toBe('student_outside_turmas');
    expect((await t.request('POST', `/admin/store/orders/${brunos.id}/deliver`, { cookie: teacherOfAna })).statusCode).toBe(403);
    expect(
      (await t.request('POST', '/admin/store/orders/deliver', { payload: { ids: [anas.id, brunos.id] }, cookie: teacherOfAna })).statusCode,
    ).toBe(403);
    expect((await refuse(anas.id, 'Acabou', teacherOfAna)).statusCode).toBe(200);
    expect((await t.request('POST', `/admin/store/orders/${brunos.id}/deliver`, { cookie: teacherOfOther })).statusCode).toBe(200);
  });

  test('the queue filters by status, turma, item, period and a search by name or matrícula', async () => {
    const item = await createItem({ price: 1 });
    const anas = await bought(item.id);
    const brunos = await bought(item.id, brunoCookie);
    await t.request('POST', `/admin/store/orders/${brunos.id}/deliver`);
    const ids = async (query: string) =>
      ((await t.request('GET', `/admin/store/orders?item=${item.id}&${query}`)).json() as { items: { id: string }[] }).items.map(
        (row) => row.id,
      );
    expect(await ids('status=pending')).toEqual([anas.id]);
    expect(await ids('status=delivered')).toEqual([brunos.id]);
    expect(await ids(`turma=${bruno.turmaId}`)).toEqual([brunos.id]);
    expect(await ids(`from=${today()}&to=${today()}`)).toEqual([brunos.id, anas.id]);
    expect(await ids(`to=${shiftDay(today(), -1)}`)).toEqual([]);
    expect(await ids('q=beatriz')).toEqual([anas.id]);
    expect(await ids(`q=${bruno.studentId}`)).toEqual([brunos.id]);
    const full = (await t.request('GET', `/admin/store/orders?item=${item.id}&status=delivered`)).json();
    expect(full.items[0]).toMatchObject({
      itemName: item.name,
      student: { id: bruno.id, studentId: bruno.studentId, name: bruno.name, turma: '1º EM - Turma B' },
      turmas: ['1º EM - Turma B'],
      decidedBy: 'Professora Helena Costa',
    });
    expect((await t.request('GET', '/admin/store/orders?status=lost')).statusCode).toBe(400);
  });

  test('a removed student’s pending orders are refused and refunded with the removal; delivered ones stay', async () => {
    const [carol] = await addStudents(t.db, [{ studentId: '3000099', name: 'Carolina Removida' }]);
    await t.award(carol!.id, 100);
    const cookie = await t.loginStudent(carol!.studentId);
    const item = await createItem({ price: 30, stock: 10, limit: { count: 5, period: 'week' } });
    const pending = await bought(item.id, cookie);
    const delivered = await bought(item.id, cookie);
    await t.request('POST', `/admin/store/orders/${delivered.id}/deliver`);
    const removed = await t.request('DELETE', `/admin/students/${carol!.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    const [order] = await t.db.select().from(storeOrders).where(eq(storeOrders.id, pending.id));
    expect(order).toMatchObject({ status: 'refused', reason: 'Estudante removido da escola' });
    expect(order!.refundEntryId).not.toBeNull();
    expect(await balanceOf(carol!.id)).toMatchObject({ meritus: 70 });
    const [row] = await t.db.select({ taken: storeItems.taken }).from(storeItems).where(eq(storeItems.id, item.id));
    expect(row!.taken).toBe(1);
  });
});
