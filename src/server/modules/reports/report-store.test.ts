import { randomUUID } from 'node:crypto';
import Papa from 'papaparse';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addAdmin, buildTestApp, type TestApp, type TestStudent } from '../../test/test-app.ts';
import type { DashboardSummary } from '../../../shared/dashboard.ts';
import type { ReportOverview, ReportStore, ReportTimeline } from '../../../shared/reports.ts';
import type { AdminStoreItem, StoreItemInput } from '../../../shared/store.ts';

/**
 * The Loja in the reports and the dashboard (decision 026), written through the store's own API: what each item took in,
 * less refunds, the items sold out, the orders to deliver; never an award or a removal; a teacher sees their turmas only.
 */
let t: TestApp;
let ana: TestStudent;
let bruno: TestStudent;
let anaCookie: string;
let brunoCookie: string;
let teacherOfBruno: string;

beforeAll(async () => {
  t = await buildTestApp();
  [ana, bruno] = t.students as [TestStudent, TestStudent];
  const teacher = await addAdmin(t.db, {
    email: 'prof.relatorio@escola.test',
    name: 'Rita Relatório',
    role: 'teacher',
    turmaIds: [bruno.turmaId],
  });
  teacherOfBruno = await t.loginAdmin(teacher.email);
  anaCookie = await t.loginStudent(ana.studentId);
  brunoCookie = await t.loginStudent(bruno.studentId);
  await t.award(ana.id, 500);
  await t.award(ana.id, 30, { currency: 'estelecas' });
  await t.award(bruno.id, 500);
});
afterAll(async () => t.close());

async function createItem(input: Partial<StoreItemInput>): Promise<AdminStoreItem> {
  const response = await t.request('POST', '/admin/store/items', {
    payload: { name: `Item ${randomUUID().slice(0, 6)}`, price: 100, currency: 'meritus', category: 'privilege', ...input },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function buy(itemId: string, cookie: string): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/store/items/${itemId}/orders`,
    headers: { cookie, 'idempotency-key': randomUUID() },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().order.id;
}

test('spending by item less refunds, items sold out, open orders; never awards or removals; a teacher sees their turmas', async () => {
  const seat = await createItem({ name: 'Sentar onde quiser por um dia', price: 80, stock: 2 });
  const pen = await createItem({ name: 'Caneta colorida', price: 30, category: 'material' });
  const sticker = await createItem({ name: 'Adesivo', price: 5, currency: 'estelecas', category: 'material' });

  // Ana: the seat (delivered), a pen (cancelled: refunded), a sticker in Estelecas (pending). Bruno: the last seat (pending),
  // a pen refused (refunded).
  const anaSeat = await buy(seat.id, anaCookie);
  expect((await t.request('POST', `/admin/store/orders/${anaSeat}/deliver`)).statusCode).toBe(200);
  const anaPen = await buy(pen.id, anaCookie);
  const cancelled = await t.app.inject({
    method: 'POST',
    url: `/api/me/orders/${anaPen}/cancel`,
    headers: { cookie: anaCookie, 'idempotency-key': randomUUID() },
  });
  expect(cancelled.statusCode, cancelled.body).toBe(200);
  await buy(sticker.id, anaCookie);
  await buy(seat.id, brunoCookie);
  const brunoPen = await buy(pen.id, brunoCookie);
  const refused = await t.app.inject({
    method: 'POST',
    url: `/api/admin/store/orders/${brunoPen}/refuse`,
    headers: { cookie: await t.loginAdmin(), 'idempotency-key': randomUUID() },
    payload: { reason: 'Acabou a cor' },
  });
  expect(refused.statusCode, refused.body).toBe(200);

  const report = (await t.request('GET', '/admin/reports/store?period=today')).json() as ReportStore;
  const byName = Object.fromEntries(report.items.map((item) => [item.name, item]));
  expect(byName['Sentar onde quiser por um dia']).toMatchObject({ units: 2, spent: 160, refunded: 0, stockLeft: 0, pendingOrders: 1 });
  expect(byName['Caneta colorida']).toMatchObject({ units: 0, spent: 0, refunded: 60, stockLeft: null, pendingOrders: 0 });
  expect(byName.Adesivo).toMatchObject({ currency: 'estelecas', units: 1, spent: 5, pendingOrders: 1 });
  expect(report.items[0]!.name).toBe('Sentar onde quiser por um dia');
  expect(report.soldOut.map((item) => item.name)).toEqual(['Sentar onde quiser por um dia']);
  expect(report.soldOut[0]!.soldOutAt).not.toBeNull();
  expect(report.openOrders).toMatchObject({ count: 2, meritus: 80, estelecas: 5 });

  // The figures: spent less refunds, never awarded nor removed; the items add up to it; balances fall by what was spent.
  const overview = (await t.request('GET', '/admin/reports/overview?period=today')).json() as ReportOverview;
  expect(overview.figures.meritusSpent.current).toBe(160);
  expect(overview.figures.estelecasSpent.current).toBe(5);
  expect(overview.figures.meritusAwarded.current).toBe(1000);
  expect(overview.figures.meritusRemoved.current).toBe(0);
  expect(overview.figures.estelecasAwarded.current).toBe(30);
  expect(overview.figures.estelecasRemoved.current).toBe(0);
  const turma = (name: string) => overview.turmas.find((row) => row.turma === name)!;
  expect(turma(ana.grade)).toMatchObject({ spent: 80, estelecasSpent: 5, awarded: 500, removed: 0, balance: 420 });
  expect(turma(bruno.grade)).toMatchObject({ spent: 80, awarded: 500, removed: 0, balance: 420 });
  const timeline = (await t.request('GET', '/admin/reports/timeline?period=today')).json() as ReportTimeline;
  expect(timeline.points.at(-1)).toMatchObject({ awarded: 1000, removed: 0, spent: 160 });
  const reasons = (await t.request('GET', '/admin/reports/reasons?period=today')).json();
  expect(reasons.penalties).toEqual([]);

  // The export of the items, with their labels.
  const csv = await t.request('GET', '/admin/reports/export?period=today&table=store&format=csv');
  expect(csv.statusCode).toBe(200);
  // Under the file's two heading lines (the table, then the school, turmas and period).
  const rows = Papa.parse<string[]>(csv.body.replace(/^\uFEFF/, ''), { delimiter: ';', skipEmptyLines: true }).data.slice(2);
  expect(rows[0]).toEqual([
    'Item',
    'Categoria',
    'Moeda',
    'Unidades',
    'Gasto (menos devoluções)',
    'Devolvido',
    'Estoque restante',
    'Pedidos pendentes',
  ]);
  expect(rows).toContainEqual(['Sentar onde quiser por um dia', 'Privilégios', 'Méritus', '2', '160', '0', 'Esgotado', '1']);
  expect(rows).toContainEqual(['Caneta colorida', 'Materiais', 'Méritus', '0', '0', '60', 'Ilimitado', '0']);

  // The dashboard's card, for the coordination: the week's spending beside what was awarded, orders, sold out, best sellers.
  const summary = (await t.request('GET', '/admin/dashboard')).json() as DashboardSummary;
  expect(summary.store).toMatchObject({
    spent: { meritus: 160, estelecas: 5 },
    awarded: 1000,
    openOrders: 2,
    soldOut: [{ itemId: seat.id, name: seat.name }],
  });
  expect(summary.store.topItems[0]).toMatchObject({ itemId: seat.id, spent: 160, units: 2 });
  expect(summary.goals.find((goal) => goal.id === 'monthly_awarded')!.current).toBe(1000);

  // A teacher of Bruno's turma: Bruno's spending and orders only.
  const teachers = (await t.request('GET', '/admin/reports/store?period=today', { cookie: teacherOfBruno })).json() as ReportStore;
  expect(teachers.items.map((item) => [item.name, item.spent, item.refunded])).toEqual([
    ['Sentar onde quiser por um dia', 80, 0],
    ['Caneta colorida', 0, 30],
  ]);
  expect(teachers.openOrders).toMatchObject({ count: 1, meritus: 80, estelecas: 0 });
  const teachersCard = (await t.request('GET', '/admin/dashboard', { cookie: teacherOfBruno })).json() as DashboardSummary;
  expect(teachersCard.store).toMatchObject({ spent: { meritus: 80, estelecas: 0 }, awarded: 500, openOrders: 1 });
  const outside = await t.request('GET', `/admin/reports/store?period=today&turma=${encodeURIComponent(ana.grade)}`, {
    cookie: teacherOfBruno,
  });
  expect(outside.statusCode).toBe(403);
});
