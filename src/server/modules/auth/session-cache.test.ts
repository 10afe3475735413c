import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, testConfig, type TestApp } from '../../test/test-app.ts';
import { openPostgres, type Database } from '../../db/client.ts';
import { sessions } from '../../db/schema.ts';
import { buildApp } from '../../app.ts';
import { hashToken } from './auth.service.ts';

/**
 * Two server instances on one database, each remembering resolved sessions for a minute:
 * only the events of ended sessions (or the expiry times) can make them refuse a cookie
 * they already resolved, so these tests show that an ended session ends everywhere.
 */
const CACHE = { SESSION_CACHE_MS: '60000' };

let t: TestApp;
let other: FastifyInstance;
let otherDatabase: Database | undefined;

beforeAll(async () => {
  t = await buildTestApp({ env: CACHE });
  otherDatabase = t.database.url ? await openPostgres(t.database.url, { max: 5 }) : undefined;
  other = await buildApp(testConfig(CACHE), otherDatabase ?? t.database);
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await other.close();
  await otherDatabase?.close();
  await t.close();
});

async function status(app: FastifyInstance, cookie: string): Promise<number> {
  return (await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).statusCode;
}

/** Waits until both instances refuse the cookie; far sooner than the cache would let it lapse. */
async function refusedEverywhere(cookie: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    const answers = [await status(t.app, cookie), await status(other, cookie)];
    if (answers.every((code) => code === 401)) return;
    if (Date.now() - started > 3000) throw new Error(`still accepted after 3 s: ${answers.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function signedInOnBoth(studentId: string): Promise<string> {
  const cookie = await t.loginStudent(studentId);
  expect([await status(t.app, cookie), await status(other, cookie)]).toEqual([200, 200]);
  return cookie;
}

const tokenHashOf = (cookie: string) => hashToken(cookie.split('=')[1]!);

test('a logout on one instance ends the session on the other, which had it cached', async () => {
  const cookie = await signedInOnBoth(t.students[0]!.studentId);
  const response = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
  expect(response.statusCode).toBe(204);
  expect(await status(t.app, cookie)).toBe(401);
  await refusedEverywhere(cookie);
});

test('a password reset and a removal end the student’s cached sessions on every instance', async () => {
  const admin = await t.loginAdmin();
  const [, bruno, carla] = t.students;
  const reset = await signedInOnBoth(bruno!.studentId);
  const resetResponse = await other.inject({
    method: 'POST',
    url: `/api/admin/students/${bruno!.id}/password`,
    headers: { cookie: admin },
  });
  expect(resetResponse.statusCode).toBe(200);
  await refusedEverywhere(reset);

  const removed = await signedInOnBoth(carla!.studentId);
  const removeResponse = await t.app.inject({ method: 'DELETE', url: `/api/admin/students/${carla!.id}`, headers: { cookie: admin } });
  expect(removeResponse.statusCode).toBe(200);
  await refusedEverywhere(removed);
});

test('a cached session still ends at its absolute expiry', async () => {
  const cookie = await t.loginStudent(t.students[3]!.studentId);
  const where = eq(sessions.tokenHash, tokenHashOf(cookie));
  vi.useFakeTimers({ toFake: ['Date'] });
  await t.db
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() + 10_000) })
    .where(where);
  expect(await status(t.app, cookie)).toBe(200);
  // Past the expiry, well within the cache's minute.
  vi.setSystemTime(Date.now() + 10_001);
  expect(await status(t.app, cookie)).toBe(401);
  expect(await t.db.select().from(sessions).where(where)).toEqual([]);
});

test('a session deleted without an event (a lost notification) is refused once the cache time has passed', async () => {
  const brief = await buildApp(testConfig({ SESSION_CACHE_MS: '300' }), otherDatabase ?? t.database);
  try {
    const cookie = await t.loginStudent(t.students[0]!.studentId);
    expect(await status(brief, cookie)).toBe(200);
    await t.db.delete(sessions).where(eq(sessions.tokenHash, tokenHashOf(cookie)));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 301);
    expect(await status(brief, cookie)).toBe(401);
  } finally {
    await brief.close();
  }
});
