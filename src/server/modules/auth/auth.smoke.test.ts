import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

test('a student signs in and /api/auth/me restores the session', async () => {
  const cookie = await t.loginStudent('3000001');
  const me = await t.app.inject({ url: '/api/auth/me', headers: { cookie } });
  expect(me.statusCode).toBe(200);
  expect(me.json()).toMatchObject({ role: 'student', student: { studentId: '3000001', name: 'Ana Beatriz Souza', meritus: 0 } });
});
