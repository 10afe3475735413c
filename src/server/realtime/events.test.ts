import { afterAll, beforeAll, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, testConfig, type TestApp } from '../test/test-app.ts';
import { openPostgres, type Database } from '../db/client.ts';
import { buildApp } from '../app.ts';

type Received = { event: string; data: unknown };

/** Opens /api/events on a listening server and collects the events it sends. */
async function openStream(baseUrl: string, cookie: string) {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/events`, { headers: { cookie }, signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const received: Received[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const chunk = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(chunk)?.[1];
          const data = /^data: (.*)$/m.exec(chunk)?.[1];
          if (event) received.push({ event, data: data ? JSON.parse(data) : null });
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    received,
    async waitFor(predicate: (events: Received[]) => boolean, ms = 5000) {
      const started = Date.now();
      while (!predicate(received)) {
        if (Date.now() - started > ms) throw new Error(`timed out; got ${JSON.stringify(received)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      controller.abort();
      await pump;
    },
  };
}

let t: TestApp;
let baseUrl: string;
let second: { app: FastifyInstance; database: Database; baseUrl: string } | undefined;

beforeAll(async () => {
  t = await buildTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  if (t.database.url) {
    const database = await openPostgres(t.database.url, { max: 5 });
    const app = await buildApp(testConfig(), database);
    second = { app, database, baseUrl: await app.listen({ port: 0, host: '127.0.0.1' }) };
  }
});
afterAll(async () => {
  if (second) {
    await second.app.close();
    await second.database.close();
  }
  await t.close();
});

async function award(studentId: string, amount: number) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/admin/students/${studentId}/meritus`,
    headers: { cookie: await t.loginAdmin() },
    payload: { type: 'reward', amount, description: 'Monitoria' },
  });
  expect(response.statusCode).toBe(201);
}

test('anonymous users cannot open the stream', async () => {
  const response = await fetch(`${baseUrl}/api/events`);
  expect(response.status).toBe(401);
});

test('a student hears about their own balance and public ranking changes only; an admin hears every operation', async () => {
  const [ana, bruno] = t.students;
  const anaStream = await openStream(baseUrl, await t.loginStudent(ana!.studentId));
  const adminStream = await openStream(baseUrl, await t.loginAdmin());
  await anaStream.waitFor((events) => events.some((e) => e.event === 'ready'));
  await adminStream.waitFor((events) => events.some((e) => e.event === 'ready'));

  await award(bruno!.id, 10);
  await anaStream.waitFor((events) => events.some((e) => e.event === 'ranking'));
  expect(anaStream.received.some((e) => e.event === 'balance')).toBe(false);
  await adminStream.waitFor((events) => events.some((e) => e.event === 'operation'));

  await award(ana!.id, 10);
  await anaStream.waitFor((events) => events.some((e) => e.event === 'balance'));
  // a refused attempt reaches administrators as failed, and students not at all
  const before = anaStream.received.length;
  const refused = await t.app.inject({
    method: 'POST',
    url: '/api/meritus/transfers',
    headers: { cookie: await t.loginStudent(bruno!.studentId) },
    payload: { recipientId: ana!.id, amount: 99999 },
  });
  expect(refused.statusCode).toBe(400);
  await adminStream.waitFor((events) => events.some((e) => e.event === 'operation' && (e.data as { status: string }).status === 'failed'));
  expect(anaStream.received.slice(before).some((e) => e.event === 'balance')).toBe(false);
  await anaStream.close();
  await adminStream.close();
});

// Two instances need a shared server database; PGlite belongs to one process.
const multiInstance = process.env.TEST_DB === 'postgres' ? test : () => {};
multiInstance('an operation made through one server instance reaches a client connected to another', async () => {
  if (!second) throw new Error('the second instance did not start');
  const carla = t.students[2]!;
  const login = await second.app.inject({
    method: 'POST',
    url: '/api/auth/student/login',
    payload: { studentId: carla.studentId, password: 'senha-teste-1' },
  });
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  const stream = await openStream(second.baseUrl, cookie);
  await stream.waitFor((events) => events.some((e) => e.event === 'ready'));
  await award(carla.id, 25); // through the first instance
  await stream.waitFor((events) => events.some((e) => e.event === 'balance'));
  await stream.close();
});
