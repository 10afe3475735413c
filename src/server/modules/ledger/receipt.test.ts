import { afterAll, beforeAll, expect, test } from 'vitest';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { receiptCode } from '../../../shared/receipt-code.ts';
import { buildTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let ana: string;
let bruno: string;
let carla: string;
beforeAll(async () => {
  t = await buildTestApp();
  ana = await t.loginStudent('3000001');
  bruno = await t.loginStudent('3000002');
  carla = await t.loginStudent('3000003');
});
afterAll(async () => t.close());

const student = (index: number) => t.students[index]!;

async function transfer(cookie: string, currency: 'meritus' | 'estelecas', payload: object) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/${currency}/transfers`,
    headers: { cookie, 'idempotency-key': crypto.randomUUID() },
    payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().entry as { id: string };
}

const receipt = (cookie: string, code: string) => t.request('GET', `/me/receipts/${encodeURIComponent(code)}`, { cookie });

test("a transfer's Comprovante is found by its short code by both sides, with the parties' names, turmas and the details", async () => {
  await t.award(student(0).id, 100);
  const entry = await transfer(ana, 'meritus', { recipientId: student(1).id, amount: 30, description: 'Lanche' });
  const code = receiptCode(entry.id);
  expect(code).toMatch(/^[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}$/);

  const sent = await receipt(ana, code);
  expect(sent.statusCode, sent.body).toBe(200);
  expect(sent.json()).toMatchObject({
    id: entry.id,
    code,
    currency: 'meritus',
    amount: 30,
    description: 'Lanche',
    sent: true,
    from: { name: 'Ana Beatriz Souza', studentId: '3000001', grade: student(0).grade, photo: null },
    to: { name: 'Bruno Henrique Lima', studentId: '3000002', grade: '1º EM - Turma B', photo: null },
    reversedBy: null,
  });
  // The recipient reopens it too; the code is read whatever its case and dashes.
  const received = await receipt(bruno, code.toLowerCase().replaceAll('-', ''));
  expect(received.statusCode).toBe(200);
  expect(received.json()).toMatchObject({ id: entry.id, sent: false });
});

test('an Estelecas transfer has its Comprovante too', async () => {
  await t.award(student(0).id, 5, { currency: 'estelecas' });
  const entry = await transfer(ana, 'estelecas', { recipientId: student(2).id, amount: 2 });
  const found = await receipt(carla, receiptCode(entry.id));
  expect(found.json()).toMatchObject({ currency: 'estelecas', amount: 2, sent: false, to: { name: 'Carla Dias Ferreira' } });
});

test("another student's transfer, a staff operation, an unknown or malformed code: 'Comprovante não encontrado', alike", async () => {
  await t.award(student(1).id, 50);
  const theirs = await transfer(bruno, 'meritus', { recipientId: student(2).id, amount: 10 });
  const award = await t.award(student(0).id, 10);
  const refusals = await Promise.all([
    receipt(ana, receiptCode(theirs.id)),
    receipt(ana, receiptCode(award.entry.id)),
    receipt(ana, '0000-0000-0000'),
    receipt(ana, 'nada'),
    receipt(ana, 'A'.repeat(60)),
  ]);
  for (const refused of refusals) {
    expect(refused.statusCode, refused.body).toBe(404);
    expect(refused.json().error).toMatchObject({ code: 'receipt_not_found', message: ERROR_MESSAGES.receipt_not_found });
  }
  // The staff have no student's receipts (they see the code in the live feed).
  expect((await receipt(await t.loginAdmin(), receiptCode(theirs.id))).statusCode).toBe(403);
});
