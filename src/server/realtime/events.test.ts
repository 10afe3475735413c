import { afterAll, beforeAll, expect, test } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, cookieFrom, testConfig, TEST_PASSWORD, type TestApp } from '../test/test-app.ts';
import { openPostgres, type Database } from '../db/client.ts';
import { sessions } from '../db/schema.ts';
import { buildApp } from '../app.ts';
import { hashToken } from '../modules/auth/auth.service.ts';
import { has, openStream } from './sse-test-client.ts';
import { MAX_STREAMS_PER_ACCOUNT, MAX_STREAMS_PER_SESSION } from './events.routes.ts';
import type { ReadyEvent } from '../../shared/live-events.ts';

let t: TestApp;
let baseUrl: string;
/**
 * A second server instance on the same database: on PostgreSQL with its own pool and LISTEN
 * connection, as another process would have; on PGlite (one process only) sharing the database.
 */
let second: { app: FastifyInstance; ownDatabase?: Database; baseUrl: string };

beforeAll(async () => {
  t = await buildTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const ownDatabase = t.database.url ? await openPostgres(t.database.url, { max: 5 }) : undefined;
  const app = await buildApp(testConfig(), ownDatabase ?? t.database);
  second = { app, ownDatabase, baseUrl: await app.listen({ port: 0, host: '127.0.0.1' }) };
});
afterAll(async () => {
  await second.app.close();
  await second.ownDatabase?.close();
  await t.close();
});

async function award(studentUuid: string, amount: number) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/admin/students/${studentUuid}/meritus`,
    headers: { cookie: await t.loginAdmin() },
    payload: { type: 'reward', amount, description: 'Monitoria' },
  });
  expect(response.statusCode).toBe(201);
}

/** Signs a student in through the second instance. */
async function loginOnSecond(studentId: string): Promise<string> {
  const response = await second.app.inject({
    method: 'POST',
    url: '/api/auth/student/login',
    payload: { studentId, password: TEST_PASSWORD },
  });
  return cookieFrom(response);
}

test('anonymous users cannot open the stream, however the path is spelled, and the server keeps serving', async () => {
  for (const path of ['/api/events', '/%61pi/events', '/api//events/']) {
    const response = await fetch(`${baseUrl}${path}`);
    expect(response.status, path).toBe(401);
    await response.body?.cancel();
  }
  // The reported crash came with the next operation's event; the server must still take a transfer and answer.
  const [ana, bruno] = t.students;
  await award(ana!.id, 5);
  const transfer = await t.app.inject({
    method: 'POST',
    url: '/api/meritus/transfers',
    headers: { cookie: await t.loginStudent(ana!.studentId) },
    payload: { recipientId: bruno!.id, amount: 2 },
  });
  expect(transfer.statusCode).toBe(201);
  const health = await fetch(`${baseUrl}/api/health`);
  expect(health.status).toBe(200);
});

test('the stream is never cached', async () => {
  const stream = await openStream(baseUrl, await t.loginStudent(t.students[0]!.studentId));
  expect(stream.cacheControl).toContain('no-store');
  await stream.close();
});

test("HEAD answers with the stream's headers at once, instead of a response that never ends", async () => {
  const response = await fetch(`${baseUrl}/api/events`, {
    method: 'HEAD',
    headers: { cookie: await t.loginStudent(t.students[0]!.studentId) },
    signal: AbortSignal.timeout(10_000),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
});

test(`a session holds at most ${MAX_STREAMS_PER_SESSION} streams: the next is refused with 429 and a pt-BR reason, and one closing makes room`, async () => {
  const cookie = await t.loginStudent(t.students[1]!.studentId);
  const streams = await Promise.all(Array.from({ length: MAX_STREAMS_PER_SESSION }, () => openStream(baseUrl, cookie)));
  const refused = await fetch(`${baseUrl}/api/events`, { headers: { cookie } });
  expect(refused.status).toBe(429);
  expect((await refused.json()).error.message).toBe(
    'Muitas abas do portal abertas nesta sessão: feche algumas para voltar a receber as atualizações ao vivo',
  );
  // Another session of the same student is not held to this one's count.
  const other = await openStream(baseUrl, await t.loginStudent(t.students[1]!.studentId));
  await other.close();
  await streams.pop()!.close();
  await expect
    .poll(async () => {
      const response = await fetch(`${baseUrl}/api/events`, { headers: { cookie } });
      await response.body?.cancel();
      return response.status;
    })
    .toBe(200);
  await Promise.all(streams.map((stream) => stream.close()));
});

test(`an account holds at most ${MAX_STREAMS_PER_ACCOUNT} streams over all its sessions: signing in again opens no more`, async () => {
  const sessions = await Promise.all(
    Array.from({ length: MAX_STREAMS_PER_ACCOUNT / MAX_STREAMS_PER_SESSION }, () => t.loginStudent(t.students[2]!.studentId)),
  );
  const streams = await Promise.all(
    sessions.flatMap((cookie) => Array.from({ length: MAX_STREAMS_PER_SESSION }, () => openStream(baseUrl, cookie))),
  );
  const refused = await fetch(`${baseUrl}/api/events`, { headers: { cookie: await t.loginStudent(t.students[2]!.studentId) } });
  expect(refused.status).toBe(429);
  expect((await refused.json()).error.message).toBe(
    'Muitas abas do portal abertas nesta conta, somando todos os aparelhos: feche algumas para voltar a receber as atualizações ao vivo',
  );
  // Another student is not held to this account's count.
  const other = await openStream(baseUrl, await t.loginStudent(t.students[3]!.studentId));
  await other.close();
  await Promise.all(streams.map((stream) => stream.close()));
});

test('a student hears about their own operations at once; an admin hears every operation, refused ones too', async () => {
  const [ana, bruno] = t.students;
  const anaStream = await openStream(baseUrl, await t.loginStudent(ana!.studentId));
  const adminStream = await openStream(baseUrl, await t.loginAdmin());
  await anaStream.waitFor(has('ready'));
  await adminStream.waitFor(has('ready'));

  await award(bruno!.id, 10);
  await adminStream.waitFor(has('operations'));
  await award(ana!.id, 10);
  await anaStream.waitFor(has('balance'));
  expect(anaStream.received.filter((e) => e.event === 'balance')).toHaveLength(1);
  // a refused attempt reaches administrators as failed, and students not at all
  const before = anaStream.received.length;
  const refused = await t.app.inject({
    method: 'POST',
    url: '/api/meritus/transfers',
    headers: { cookie: await t.loginStudent(bruno!.studentId) },
    payload: { recipientId: ana!.id, amount: 99999 },
  });
  expect(refused.statusCode).toBe(400);
  await adminStream.waitFor((events) =>
    events.some(
      (e) => e.event === 'operations' && (e.data as { operations: { status: string }[] }).operations.some((o) => o.status === 'failed'),
    ),
  );
  expect(anaStream.received.slice(before).some((e) => e.event === 'balance')).toBe(false);
  await anaStream.close();
  await adminStream.close();
});

test('an operation made through one server instance reaches a client connected to another', async () => {
  const carla = t.students[2]!;
  const stream = await openStream(second.baseUrl, await loginOnSecond(carla.studentId));
  await stream.waitFor(has('ready'));
  await award(carla.id, 25); // through the first instance
  await stream.waitFor(has('balance'));
  await stream.close();
});

test('a logout ends that session’s streams at once on every instance; the student’s other sessions keep streaming', async () => {
  const ana = t.students[0]!;
  const leaving = await t.loginStudent(ana.studentId);
  const staying = await t.loginStudent(ana.studentId);
  const leavingHere = await openStream(baseUrl, leaving);
  const leavingThere = await openStream(second.baseUrl, leaving);
  const stayingStream = await openStream(second.baseUrl, staying);
  await Promise.all([leavingHere, leavingThere, stayingStream].map((stream) => stream.waitFor(has('ready'))));

  const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: leaving } });
  expect(logout.statusCode).toBe(204);
  // "At once": far sooner than the 25 s heartbeat that used to notice it.
  await leavingHere.waitForEnd();
  await leavingThere.waitForEnd();

  await award(ana.id, 3);
  await stayingStream.waitFor(has('balance'));
  await stayingStream.close();
});

test('a stream ends at its session’s absolute expiry', async () => {
  const carla = t.students[2]!;
  const cookie = await t.loginStudent(carla.studentId);
  const expiresAt = Date.now() + 1500;
  await t.db
    .update(sessions)
    .set({ expiresAt: new Date(expiresAt) })
    .where(eq(sessions.tokenHash, hashToken(cookie.split('=')[1]!)));
  const stream = await openStream(baseUrl, cookie);
  await stream.waitFor(has('ready'));
  await stream.waitForEnd(5000);
  expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
});

test('a password reset ends every stream of the student at once, on every instance', async () => {
  const bruno = t.students[1]!;
  const streams = [
    await openStream(baseUrl, await t.loginStudent(bruno.studentId)),
    await openStream(second.baseUrl, await loginOnSecond(bruno.studentId)),
  ];
  await Promise.all(streams.map((stream) => stream.waitFor(has('ready'))));
  const reset = await second.app.inject({
    method: 'POST',
    url: `/api/admin/students/${bruno.id}/password`,
    headers: { cookie: await t.loginAdmin() },
  });
  expect(reset.statusCode).toBe(200);
  for (const stream of streams) await stream.waitForEnd();
});

test('removing a student ends every stream of theirs at once, on every instance, and no one else’s', async () => {
  const [ana, , , diego] = t.students;
  const streams = [
    await openStream(baseUrl, await t.loginStudent(diego!.studentId)),
    await openStream(second.baseUrl, await loginOnSecond(diego!.studentId)),
  ];
  const bystander = await openStream(baseUrl, await t.loginStudent(ana!.studentId));
  await Promise.all([...streams, bystander].map((stream) => stream.waitFor(has('ready'))));
  const removal = await t.app.inject({
    method: 'DELETE',
    url: `/api/admin/students/${diego!.id}`,
    headers: { cookie: await t.loginAdmin() },
  });
  expect(removal.statusCode).toBe(200);
  for (const stream of streams) await stream.waitForEnd();

  await award(ana!.id, 4);
  await bystander.waitFor(has('balance'));
  await bystander.close();
});

test("ready tells how long ago the instance heard the last event this user is told of: none for a classmate's logout, then the award just made", async () => {
  const own = await buildTestApp(); // a database and instance of its own: no event of another test reaches it
  try {
    const url = await own.app.listen({ port: 0, host: '127.0.0.1' });
    const [student, classmate] = own.students;
    const leaving = await own.loginStudent(classmate!.studentId);
    const stillOpen = await openStream(url, leaving);
    await stillOpen.waitFor(has('ready'));
    expect((await own.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: leaving } })).statusCode).toBe(204);
    await stillOpen.waitForEnd(); // the instance has heard the logout
    const cookie = await own.loginStudent(student!.studentId);
    const before = await openStream(url, cookie);
    await before.waitFor(has('ready'));
    expect(before.received.find((event) => event.event === 'ready')?.data).toEqual({ sinceLastEventMs: null });

    const awarded = await own.app.inject({
      method: 'POST',
      url: `/api/admin/students/${student!.id}/meritus`,
      headers: { cookie: await own.loginAdmin() },
      payload: { type: 'reward', amount: 1, description: 'Monitoria' },
    });
    expect(awarded.statusCode).toBe(201);
    await before.waitFor(has('balance'));
    const after = await openStream(url, cookie);
    await after.waitFor(has('ready'));
    const { sinceLastEventMs } = after.received.find((event) => event.event === 'ready')!.data as ReadyEvent;
    expect(sinceLastEventMs).toBeGreaterThanOrEqual(0);
    expect(sinceLastEventMs).toBeLessThan(10_000);
    await Promise.all([before.close(), after.close()]);
  } finally {
    await own.close();
  }
});
