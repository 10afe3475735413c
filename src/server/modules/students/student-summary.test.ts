import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { adminActor, buildTestApp, type TestApp } from '../../test/test-app.ts';
import { adminOperation } from '../ledger/ledger.service.ts';
import { silentEvents } from '../../realtime/event-bus.ts';
import { studentSummary } from './student-summary.service.ts';
import { createRankingStore } from './ranking-store.ts';
import type { StudentSummary } from '../../../shared/student-area.ts';
import { DEFAULT_RULES } from '../../../shared/settings.ts';
import { rankingPrivacyOf } from '../../views/student-privacy.ts';

const DAY = 86_400_000;

let t: TestApp;
let adminCookie: string;
let ana: TestApp['students'][number];
let bruno: TestApp['students'][number];
let carla: TestApp['students'][number];
let diego: TestApp['students'][number];

beforeEach(async () => {
  t = await buildTestApp();
  adminCookie = await t.loginAdmin();
  [ana, bruno, carla, diego] = t.students as [typeof ana, typeof ana, typeof ana, typeof ana];
});
afterEach(async () => t.close());

async function adminOp(
  studentUuid: string,
  type: 'admin_add' | 'admin_remove' | 'reward' | 'penalty',
  amount: number,
  currency: 'meritus' | 'estelecas' = 'meritus',
) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/admin/students/${studentUuid}/${currency}`,
    headers: { cookie: adminCookie },
    payload: { type, amount, description: 'Participação em aula' },
  });
  expect(response.statusCode).toBe(201);
}

async function transfer(from: TestApp['students'][number], to: string, amount: number, currency: 'meritus' | 'estelecas' = 'meritus') {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/${currency}/transfers`,
    headers: { cookie: await t.loginStudent(from.studentId) },
    payload: { recipientId: to, amount },
  });
  expect(response.statusCode).toBe(201);
}

async function summaryOf(student: TestApp['students'][number]): Promise<StudentSummary> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/me/summary',
    headers: { cookie: await t.loginStudent(student.studentId) },
  });
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe('GET /api/me/summary', () => {
  test('ranks by Méritus with ties sharing a position (1, 1, 3, 4) among current students', async () => {
    await adminOp(ana.id, 'admin_add', 100);
    await adminOp(bruno.id, 'admin_add', 100);
    await adminOp(carla.id, 'admin_add', 50);

    const positions = await Promise.all([ana, bruno, carla, diego].map(async (s) => (await summaryOf(s)).rank));
    expect(positions.map((r) => r.position)).toEqual([1, 1, 3, 4]);
    expect(positions.every((r) => r.total === 4)).toBe(true);

    // A removed student leaves the ranking, even with the highest balance.
    await adminOp(diego.id, 'admin_add', 500);
    expect((await summaryOf(ana)).rank.position).toBe(2);
    const removal = await t.app.inject({ method: 'DELETE', url: `/api/admin/students/${diego.id}`, headers: { cookie: adminCookie } });
    expect(removal.statusCode).toBe(200);
    const after = await summaryOf(carla);
    expect(after.rank).toMatchObject({ position: 3, total: 3 });
    expect((await summaryOf(ana)).rank.position).toBe(1);
  });

  test('goal: whole percentage of the 2.000 M$ goal, rounded down, capped at 100, with what is missing', async () => {
    await adminOp(ana.id, 'admin_add', 1999);
    expect((await summaryOf(ana)).goal).toEqual({ target: 2000, percent: 99, remaining: 1 });
    await adminOp(ana.id, 'reward', 1001);
    expect((await summaryOf(ana)).goal).toEqual({ target: 2000, percent: 100, remaining: 0 });
    expect((await summaryOf(bruno)).goal).toEqual({ target: 2000, percent: 0, remaining: 2000 });
  });

  test('balances and the last 7 days: net Méritus, earned (teachers only), Estelecas net', async () => {
    await adminOp(ana.id, 'admin_add', 100);
    await adminOp(ana.id, 'penalty', 10);
    await transfer(ana, bruno.id, 30);
    await adminOp(ana.id, 'admin_add', 40, 'estelecas');

    const mine = await summaryOf(ana);
    expect(mine).toMatchObject({ meritus: 60, totalEarned: 100, estelecas: 40 });
    expect(mine.recent).toEqual({ meritusNet: 60, earned: 100, estelecasNet: 40 });
    const theirs = await summaryOf(bruno);
    // Received transfers raise the balance but are not "earned".
    expect(theirs).toMatchObject({ meritus: 30, totalEarned: 0 });
    expect(theirs.recent).toEqual({ meritusNet: 30, earned: 0, estelecasNet: 0 });

    // Eight days later none of it is recent any more, and the balances stay.
    const later = await studentSummary(
      t.db,
      createRankingStore(t.db, silentEvents),
      ana.id,
      2000,
      rankingPrivacyOf(DEFAULT_RULES),
      new Date(Date.now() + 8 * DAY),
    );
    expect(later.recent).toEqual({ meritusNet: 0, earned: 0, estelecasNet: 0 });
    expect(later.meritus).toBe(60);
  });

  test('the position of 7 days ago comes from the ledger: overtaken students see it', async () => {
    const tenDaysAgo = new Date(Date.now() - 10 * DAY);
    const admin = adminActor(t.admin);
    const history = { db: t.db, events: silentEvents };
    for (const [id, amount] of [
      [ana.id, 100],
      [bruno.id, 50],
    ] as const) {
      await adminOperation(history, admin, 'meritus', { id, type: 'admin_add', amount, description: 'Saldo inicial' }, { at: tenDaysAgo });
    }
    // Today Bruno earns 80 and Ana gives 5 away to Diego: Bruno 130, Ana 95, Diego 5.
    await adminOp(bruno.id, 'reward', 80);
    await transfer(ana, diego.id, 5);

    expect((await summaryOf(bruno)).rank).toEqual({ position: 1, total: 4, positionBefore: 2 });
    expect((await summaryOf(ana)).rank).toEqual({ position: 2, total: 4, positionBefore: 1 });
    // Diego passed Carla (both had 0, tied at #3); now he is #3 alone and Carla #4.
    expect((await summaryOf(diego)).rank).toEqual({ position: 3, total: 4, positionBefore: 3 });
    expect((await summaryOf(carla)).rank).toEqual({ position: 4, total: 4, positionBefore: 3 });
  });

  test('Estelecas figures: received, sent, deducted, recent and the highest balance ever held', async () => {
    await adminOp(ana.id, 'admin_add', 60, 'estelecas');
    await transfer(ana, bruno.id, 25, 'estelecas');
    await adminOp(ana.id, 'penalty', 10, 'estelecas');
    await adminOp(ana.id, 'reward', 5, 'estelecas');

    const mine = await summaryOf(ana);
    expect(mine.estelecas).toBe(30);
    expect(mine.estelecasStats).toEqual({ received: 65, receivedRecent: 65, sent: 25, deducted: 10, peak: 60 });
    expect((await summaryOf(bruno)).estelecasStats).toEqual({ received: 25, receivedRecent: 25, sent: 0, deducted: 0, peak: 25 });
    expect((await summaryOf(carla)).estelecasStats).toEqual({ received: 0, receivedRecent: 0, sent: 0, deducted: 0, peak: 0 });
  });

  test('only for a signed-in student', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/me/summary' })).statusCode).toBe(401);
    const asAdmin = await t.app.inject({ method: 'GET', url: '/api/me/summary', headers: { cookie: adminCookie } });
    expect(asAdmin.statusCode).toBe(403);
  });
});
