import { afterAll, beforeAll, expect, test } from 'vitest';
import { addStudents, buildTestApp, type TestApp } from '../../test/test-app.ts';
import { GRADES } from '../../../shared/constants.ts';
import type { DashboardSummary } from '../../../shared/dashboard.ts';

/**
 * The teacher's screens with a school of 2,000 students and 6,000 ledger rows: every read
 * they make answers well within a second (measured figures are printed for the record).
 */
const STUDENTS = 2_000;
let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await buildTestApp();
  cookie = await t.loginAdmin();
  const school = await addStudents(
    t.db,
    Array.from({ length: STUDENTS }, (_, i) => ({
      studentId: `9${String(i).padStart(6, '0')}`,
      name: `Estudante ${i}`,
      grade: GRADES[i % GRADES.length]!,
    })),
  );
  const ids = school.map((s) => s.id);
  for (const [type, amount] of [
    ['admin_add', 50],
    ['reward', 10],
    ['penalty', 5],
  ] as const) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/operations/bulk',
      headers: { cookie },
      payload: { currency: type === 'reward' ? 'estelecas' : 'meritus', studentUuids: ids, type, amount, description: 'Escala' },
    });
    expect(response.statusCode).toBe(201);
  }
}, 240_000);
afterAll(async () => t.close());

async function timed(url: string): Promise<{ ms: number; body: unknown }> {
  // one warm-up so the figure is the steady state, not the first plan
  await t.app.inject({ url, headers: { cookie } });
  const start = performance.now();
  const response = await t.app.inject({ url, headers: { cookie } });
  const ms = performance.now() - start;
  expect(response.statusCode).toBe(200);
  return { ms, body: response.json() };
}

test('with 2,000 students every admin screen read answers in well under a second', async () => {
  const figures: Record<string, number> = {};
  for (const url of [
    '/api/admin/dashboard',
    '/api/ranking',
    '/api/admin/operations?limit=100',
    '/api/admin/meritus/recent',
    '/api/admin/estelecas/history?limit=50',
    '/api/admin/estelecas/ranking',
  ]) {
    const { ms, body } = await timed(url);
    figures[url] = Math.round(ms);
    expect(ms, url).toBeLessThan(1_000);
    if (url === '/api/admin/dashboard') {
      const summary = body as DashboardSummary;
      expect(summary.totalStudents.value).toBe(STUDENTS + 4);
      expect(summary.meritusInCirculation.value).toBe(STUDENTS * (50 - 5));
      expect(summary.transactions7d.value).toBe(STUDENTS * 2);
      expect(summary.overview.studentsWithBalance).toBe(STUDENTS);
    }
  }
  console.info(`admin reads with ${STUDENTS} students (${process.env.TEST_DB}):`, figures);
}, 60_000);
