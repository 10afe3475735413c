import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  addAdmin,
  addStudents,
  buildTestApp,
  TEST_ADMIN,
  TEST_PASSWORD,
  turmaIdOf,
  type TestApp,
  type TestStudent,
} from '../../test/test-app.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { dayIn } from '../../../shared/format.ts';
import type { AdminStoreItem, PurchaseResult } from '../../../shared/store.ts';
import { PICK_LIST_TEXTS } from './pick-list.service.ts';

/**
 * The 'Lista de entrega' (GET /api/admin/store/orders/pick-list.pdf?turma=): a turma's pending orders by student, read
 * back from the PDF's text; a teacher only for their turmas.
 */
let t: TestApp;
let turmaA: string;
let turmaB: string;
let emptyTurma: string;
let alvaro: TestStudent;
let ana: TestStudent;
let bruno: TestStudent;
let items: { pencil: AdminStoreItem; seat: AdminStoreItem };

const TURMA_A = '1º EM - Turma A';

async function createItem(name: string, price: number): Promise<AdminStoreItem> {
  const response = await t.request('POST', '/admin/store/items', { payload: { name, price, currency: 'meritus', category: 'material' } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function buy(student: TestStudent, item: AdminStoreItem): Promise<PurchaseResult> {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/store/items/${item.id}/orders`,
    headers: { cookie: await t.loginStudent(student.studentId), 'idempotency-key': randomUUID() },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const pickList = (turma: string, cookie?: string) =>
  t.request('GET', `/admin/store/orders/pick-list.pdf?turma=${turma}`, cookie ? { cookie } : {});

beforeAll(async () => {
  t = await buildTestApp();
  [turmaA, turmaB, emptyTurma] = await Promise.all([
    turmaIdOf(t.db, TURMA_A),
    turmaIdOf(t.db, '1º EM - Turma B'),
    turmaIdOf(t.db, '3º EM - Turma C'),
  ]);
  ana = t.students.find((student) => student.studentId === '3000001')!;
  bruno = t.students.find((student) => student.studentId === '3000002')!;
  // Accented, to be listed before Ana as a Brazilian reader expects (not after Z, as bytes compare).
  alvaro = (await addStudents(t.db, [{ studentId: '3000010', name: 'Álvaro Nogueira', grade: TURMA_A }]))[0]!;
  for (const student of [ana, bruno, alvaro]) await t.award(student.id, 100);
  items = { pencil: await createItem('Lápis de cor', 5), seat: await createItem('Sentar onde quiser por um dia', 10) };
  await buy(ana, items.pencil);
  await buy(ana, items.pencil);
  await buy(ana, items.seat);
  await buy(alvaro, items.seat);
  await buy(bruno, items.seat);
  // Delivered and refused orders are no longer to hand out.
  const delivered = await buy(alvaro, items.pencil);
  expect((await t.request('POST', `/admin/store/orders/${delivered.order.id}/deliver`)).statusCode).toBe(200);
  const refused = await buy(ana, items.seat);
  const refusal = await t.app.inject({
    method: 'POST',
    url: `/api/admin/store/orders/${refused.order.id}/refuse`,
    headers: { cookie: await t.loginAdmin(), 'idempotency-key': randomUUID() },
    payload: { reason: 'Sem vaga hoje' },
  });
  expect(refusal.statusCode, refusal.body).toBe(200);
});

afterAll(async () => t.close());

describe('pick list', () => {
  test("a turma's pending orders by student, in name order, with quantities, the school, the turma and the day; audited", async () => {
    const response = await pickList(turmaA);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['cache-control']).toBe('no-store');
    const today = dayIn('America/Sao_Paulo', new Date());
    expect(response.headers['content-disposition']).toContain(`lista-de-entrega-1-em-turma-a-${today}.pdf`);
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(response.rawPayload);
    const [year, month, day] = today.split('-');
    expect(text).toContain(PICK_LIST_TEXTS.heading);
    expect(text).toContain(PICK_LIST_TEXTS.turma(TURMA_A));
    expect(text).toContain(PICK_LIST_TEXTS.date(`${day}/${month}/${year}`));
    expect(text).toContain(PICK_LIST_TEXTS.summary(4, 2));
    // Each column's header on one line: a narrow column once broke 'Entregue' in two.
    expect(text).toContain(Object.values(PICK_LIST_TEXTS.columns).join(' '));
    // Álvaro (one seat), then Ana (two pencils, one seat): each student's name and matrícula once, each item with its quantity.
    expect(text).toContain('Álvaro Nogueira 3000010 Sentar onde quiser por um dia 1');
    expect(text).toContain('Ana Beatriz Souza 3000001 Lápis de cor 2 Sentar onde quiser por um dia 1');
    expect(text.indexOf('Álvaro Nogueira')).toBeLessThan(text.indexOf('Ana Beatriz Souza'));
    expect(text.match(/Ana Beatriz Souza/g)).toHaveLength(1);
    // Another turma's student is not on it.
    expect(text).not.toContain('Bruno Henrique Lima');
    expect(text).toContain(`por ${TEST_ADMIN.name}`);
    const audit = await t.lastAudit('store.pick_list');
    expect(audit?.details).toMatchObject({ turma: turmaA, orders: 4 });
  });

  test('a turma without pending orders says so', async () => {
    const response = await pickList(emptyTurma);
    expect(response.statusCode).toBe(200);
    const text = await pdfText(response.rawPayload);
    expect(text).toContain(PICK_LIST_TEXTS.empty);
    expect(text).toContain(PICK_LIST_TEXTS.summary(0, 0));
  });

  test("a teacher gets their turmas' lists only; a student none; an unknown turma is refused", async () => {
    const teacher = await addAdmin(t.db, { email: 'prof.a@escola.test', name: 'Prof. Turma A', role: 'teacher', turmaIds: [turmaA] });
    const cookie = await t.loginAdmin(teacher.email, TEST_PASSWORD);
    const own = await pickList(turmaA, cookie);
    expect(own.statusCode).toBe(200);
    expect(await pdfText(own.rawPayload)).toContain('Ana Beatriz Souza');

    const other = await pickList(turmaB, cookie);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ error: { code: 'turma_outside_turmas', message: 'Esta turma não é uma das suas turmas' } });

    const student = await pickList(turmaA, await t.loginStudent(ana.studentId));
    expect(student.statusCode).toBe(403);

    const unknown = await pickList(randomUUID());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: { code: 'turma_not_found', message: 'Turma não encontrada' } });
    const malformed = await pickList('abc');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ error: { code: 'turma_not_found' } });
    const missing = await t.request('GET', '/admin/store/orders/pick-list.pdf');
    expect(missing.statusCode).toBe(400);
  });
});
