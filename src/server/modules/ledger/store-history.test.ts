import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/test-app.ts';
import type { StudentOperationsPage } from '../../../shared/ledger.ts';

let t: TestApp;
let ana: TestApp['students'][number];
let anaCookie: string;

beforeEach(async () => {
  t = await buildTestApp();
  ana = t.students[0]!;
  anaCookie = await t.loginStudent(ana.studentId);
});
afterEach(async () => t.close());

async function history(query: string): Promise<StudentOperationsPage['items']> {
  const response = await t.request('GET', `/me/operations?${query}`, { cookie: anaCookie });
  expect(response.statusCode).toBe(200);
  return (response.json() as StudentOperationsPage).items;
}

describe("the student's history of the Loja (GET /api/me/operations)", () => {
  test("purchases and refunds: their own kinds and signs, the 'store' filter, and never among the staff's credits and debits", async () => {
    await t.award(ana.id, 300, { description: 'Participação em aula' });
    const created = await t.request('POST', '/admin/store/items', {
      payload: { name: 'Fone de ouvido', price: 120, currency: 'meritus', category: 'material' },
    });
    expect(created.statusCode).toBe(201);
    const itemId = (created.json() as { id: string }).id;
    const bought = await t.app.inject({
      method: 'POST',
      url: `/api/store/items/${itemId}/orders`,
      headers: { cookie: anaCookie, 'idempotency-key': randomUUID() },
    });
    expect(bought.statusCode).toBe(201);
    const orderId = (bought.json() as { order: { id: string } }).order.id;
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/me/orders/${orderId}/cancel`,
      headers: { cookie: anaCookie, 'idempotency-key': randomUUID() },
    });
    expect(cancelled.statusCode).toBe(200);

    const store = await history('kind=store');
    expect(store.map(({ kind, signedAmount }) => ({ kind, signedAmount }))).toEqual([
      { kind: 'refund', signedAmount: 120 },
      { kind: 'purchase', signedAmount: -120 },
    ]);
    expect((await history('kind=credit')).map((row) => row.type)).toEqual(['admin_add']);
    expect(await history('kind=debit')).toEqual([]);
    expect((await history('')).map((row) => row.type)).toEqual(['refund', 'purchase', 'admin_add']);
  });
});
