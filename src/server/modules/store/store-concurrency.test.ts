import { randomUUID } from 'node:crypto';
import { and, count, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addStudents, buildTestApp, type TestApp } from '../../test/test-app.ts';
import { ledgerEntries, storeItems, storeOrders } from '../../db/schema.ts';
import { reconcile, totalBalances } from '../ledger/reconciliation.service.ts';
import type { AdminStoreItem, StoreItemInput } from '../../../shared/store.ts';

/**
 * The races, on both databases: on PostgreSQL the requests really run at once (a pool of connections), which is
 * where a lock taken in the wrong order or a check made outside one would show. The schema's CHECKs would turn a
 * missed check into a 500; every answer here is the issue's.
 */
let t: TestApp;
let buyers: { id: string; cookie: string }[];

beforeAll(async () => {
  t = await buildTestApp();
  const added = await addStudents(
    t.db,
    Array.from({ length: 40 }, (_, index) => ({ studentId: `4100${String(index).padStart(3, '0')}`, name: `Comprador ${index + 1}` })),
  );
  buyers = [];
  for (const student of added) {
    await t.award(student.id, 500);
    buyers.push({ id: student.id, cookie: await t.loginStudent(student.studentId) });
  }
});
afterAll(async () => t.close());

async function createItem(input: Partial<StoreItemInput>): Promise<AdminStoreItem> {
  const response = await t.request('POST', '/admin/store/items', {
    payload: { name: `Item ${randomUUID().slice(0, 6)}`, price: 50, currency: 'meritus', category: 'material', ...input },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

function buy(itemId: string, cookie: string, key = randomUUID()) {
  return t.app.inject({ method: 'POST', url: `/api/store/items/${itemId}/orders`, headers: { cookie, 'idempotency-key': key } });
}

test('40 students buy an item with stock 10 at once: exactly 10 orders, 30 Esgotado, balances reconcile', async () => {
  const item = await createItem({ price: 50, stock: 10 });
  const before = await totalBalances(t.db);
  const responses = await Promise.all(buyers.map((buyer) => buy(item.id, buyer.cookie)));
  const sold = responses.filter((response) => response.statusCode === 201);
  const soldOut = responses.filter((response) => response.statusCode === 409);
  expect(sold).toHaveLength(10);
  expect(soldOut).toHaveLength(30);
  for (const response of soldOut) expect(response.json().error).toEqual({ code: 'store_sold_out', message: 'Esgotado' });
  const [orders] = await t.db.select({ n: count() }).from(storeOrders).where(eq(storeOrders.itemId, item.id));
  expect(orders!.n).toBe(10);
  const [row] = await t.db.select({ taken: storeItems.taken }).from(storeItems).where(eq(storeItems.id, item.id));
  expect(row!.taken).toBe(10);
  expect(await totalBalances(t.db)).toEqual({ ...before, meritus: before.meritus - 10 * 50 });
  expect(await reconcile(t.db)).toEqual([]);
});

test('one student with a limit of 1 sends 20 buys with different keys at once: 1 order', async () => {
  const item = await createItem({ price: 5, limit: { count: 1, period: 'week' } });
  const buyer = buyers[0]!;
  const responses = await Promise.all(Array.from({ length: 20 }, () => buy(item.id, buyer.cookie)));
  expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(1);
  for (const response of responses.filter((one) => one.statusCode !== 201)) {
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({ code: 'store_limit_reached', message: 'Limite de 1 por semana atingido' });
  }
  const [orders] = await t.db.select({ n: count() }).from(storeOrders).where(eq(storeOrders.itemId, item.id));
  expect(orders!.n).toBe(1);
  expect(await reconcile(t.db)).toEqual([]);
});

test('20 repeats of one Idempotency-Key at once: one order, every answer the first', async () => {
  const item = await createItem({ price: 7, stock: 100 });
  const buyer = buyers[1]!;
  const key = randomUUID();
  const responses = await Promise.all(Array.from({ length: 20 }, () => buy(item.id, buyer.cookie, key)));
  expect(new Set(responses.map((response) => response.statusCode))).toEqual(new Set([201]));
  expect(new Set(responses.map((response) => response.json().order.id)).size).toBe(1);
  const [orders] = await t.db.select({ n: count() }).from(storeOrders).where(eq(storeOrders.itemId, item.id));
  expect(orders!.n).toBe(1);
});

test('refuse and cancel racing on one order: one refund, the other Este pedido não está mais pendente', async () => {
  const item = await createItem({ price: 20, stock: 100 });
  const coordinator = await t.loginAdmin();
  for (const buyer of buyers.slice(0, 8)) {
    const order = (await buy(item.id, buyer.cookie)).json().order as { id: string };
    const [refused, cancelled] = await Promise.all([
      t.app.inject({
        method: 'POST',
        url: `/api/admin/store/orders/${order.id}/refuse`,
        headers: { cookie: coordinator, 'idempotency-key': randomUUID() },
        payload: { reason: 'Sem estoque na escola' },
      }),
      t.app.inject({
        method: 'POST',
        url: `/api/me/orders/${order.id}/cancel`,
        headers: { cookie: buyer.cookie, 'idempotency-key': randomUUID() },
      }),
    ]);
    expect([refused.statusCode, cancelled.statusCode].sort()).toEqual([200, 409]);
    const loser = refused.statusCode === 409 ? refused : cancelled;
    expect(loser.json().error).toEqual({ code: 'store_order_not_pending', message: 'Este pedido não está mais pendente' });
    const [row] = await t.db.select().from(storeOrders).where(eq(storeOrders.id, order.id));
    expect(row!.status).toBe(refused.statusCode === 200 ? 'refused' : 'cancelled');
  }
  const refunded = await t.db
    .select({ n: count() })
    .from(storeOrders)
    .where(and(eq(storeOrders.itemId, item.id), isNotNull(storeOrders.refundEntryId)));
  expect(refunded[0]!.n).toBe(8);
  const [rows] = await t.db
    .select({ n: count() })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.type, 'refund'), eq(ledgerEntries.description, `Devolução: ${item.name}`)));
  expect(rows!.n).toBe(8);
  expect(await reconcile(t.db)).toEqual([]);
});
