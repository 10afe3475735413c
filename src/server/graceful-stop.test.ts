import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openPglite, rowsOf, type Database } from './db/client.ts';
import { reconcile, totalBalances } from './modules/ledger/reconciliation.service.ts';
import {
  addAdmin,
  addStudents,
  createTestDatabase,
  seedPgliteDataDir,
  TEST_ADMIN,
  TEST_PASSWORD,
  type TestDatabase,
} from './test/test-app.ts';
import { startServer, type RunningServer } from './test/processes.ts';

/**
 * SIGTERM while students send transfers, on the server process as `npm start` runs it: on
 * PGlite in a data folder, or on the run's PostgreSQL. Nothing is lost or doubled, every
 * key replays its first answer, the process exits within SHUTDOWN_TIMEOUT_MS, and an open
 * event stream is told when to reconnect before it closes.
 */
const onPglite = process.env.TEST_DB !== 'postgres';
const SHUTDOWN_TIMEOUT_MS = 8000;
const AWARD = 1000;
const DESCRIPTION = 'rajada';

let dataDir: string;
let database: TestDatabase | undefined;
let env: Record<string, string>;
const running: RunningServer[] = [];
/** The students' matrículas and ids. */
let seeded: { studentId: string; id: string }[] = [];

/** The database as the test reads it between two servers: PGlite's folder is free only while no server runs. */
async function withDatabase<T>(read: (database: Database) => Promise<T>): Promise<T> {
  if (database) return read(database);
  const pglite = await openPglite(dataDir);
  try {
    return await read(pglite);
  } finally {
    await pglite.close();
  }
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-stop-'));
  env = { DATA_DIR: dataDir, DEMO: 'off', API_RATE_LIMIT: '0', SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) };
  if (onPglite) {
    await seedPgliteDataDir(dataDir);
  } else {
    database = await createTestDatabase();
    env.DATABASE_URL = database.url!;
  }
  await withDatabase(async ({ db }) => {
    await addAdmin(db, TEST_ADMIN);
    seeded = await addStudents(db, [
      { studentId: '4000001', name: 'Ana Beatriz Souza' },
      { studentId: '4000002', name: 'Bruno Henrique Lima' },
      { studentId: '4000003', name: 'Carla Dias Ferreira' },
      { studentId: '4000004', name: 'Diego Martins Rocha' },
    ]);
  });
});
afterAll(async () => {
  for (const server of running) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<RunningServer> {
  const server = await startServer(env);
  running.push(server);
  return server;
}

/** Sends SIGTERM and resolves with the exit code and how long the process took to go. */
function terminate(server: RunningServer): Promise<{ code: number | null; ms: number }> {
  const sent = Date.now();
  const exited = new Promise<{ code: number | null; ms: number }>((resolve) =>
    server.child.once('exit', (code) => resolve({ code, ms: Date.now() - sent })),
  );
  server.child.kill('SIGTERM');
  return exited;
}

async function signIn(server: RunningServer, url: string, body: object): Promise<string> {
  const response = await fetch(`${server.url}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers.getSetCookie()[0]!.split(';')[0]!;
}

type Student = { id: string; cookie: string };
type Attempt = { key: string; from: Student; to: Student; amount: number; answer: { status: number; body: unknown } | 'connection_error' };

async function sendTransfer(server: RunningServer, attempt: Omit<Attempt, 'answer'>): Promise<Attempt['answer']> {
  try {
    const response = await fetch(`${server.url}/api/meritus/transfers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: attempt.from.cookie, 'idempotency-key': attempt.key },
      body: JSON.stringify({ recipientId: attempt.to.id, amount: attempt.amount, description: `${DESCRIPTION} ${attempt.key}` }),
    });
    return { status: response.status, body: await response.json() };
  } catch {
    // The connection was refused or cut: the transfer may or may not have reached the database.
    return 'connection_error';
  }
}

/** Reads an event stream to its end, keeping all it said; `ready` resolves once the server's first event came. */
function readStream(response: Response): { ready: Promise<void>; ended: Promise<{ text: string; cleanly: boolean }> } {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return { text, cleanly: true };
        text += decoder.decode(value, { stream: true });
        if (text.includes('event: ready')) markReady();
      }
    } catch {
      return { text, cleanly: false };
    }
  })();
  return { ready, ended };
}

describe.sequential('SIGTERM during a burst of transfers', { timeout: 180_000 }, () => {
  test('nothing lost or doubled, every key replays its first answer, a bounded exit, and the event stream is told to reconnect', async () => {
    const first = await start();
    const adminCookie = await signIn(first, '/api/auth/admin/login', { email: TEST_ADMIN.email, password: TEST_PASSWORD });
    const group: Student[] = [];
    for (const { studentId, id } of seeded)
      group.push({ id, cookie: await signIn(first, '/api/auth/student/login', { studentId, password: TEST_PASSWORD }) });
    for (const student of group) {
      const award = await fetch(`${first.url}/api/admin/students/${student.id}/meritus`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: adminCookie },
        body: JSON.stringify({ type: 'admin_add', amount: AWARD, description: 'Saldo para o teste' }),
      });
      expect(award.status).toBe(201);
    }

    const events = await fetch(`${first.url}/api/events`, { headers: { cookie: group[0]!.cookie } });
    expect(events.status).toBe(200);
    const stream = readStream(events);
    await stream.ready;

    // Two transfers in flight per student at all times; SIGTERM once 20 have been answered.
    const attempts: Attempt[] = [];
    let answered = 0;
    let stopping: Promise<{ code: number | null; ms: number }> | undefined;
    const worker = async (from: Student, to: Student) => {
      for (let round = 0; round < 100; round++) {
        const attempt = { key: randomUUID(), from, to, amount: 1 + (round % 5) };
        const answer = await sendTransfer(first, attempt);
        attempts.push({ ...attempt, answer });
        if (answer === 'connection_error') return;
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        if (++answered === 20) stopping = terminate(first);
      }
    };
    await Promise.all(
      group.flatMap((from, i) => [worker(from, group[(i + 1) % group.length]!), worker(from, group[(i + 2) % group.length]!)]),
    );
    expect(stopping, 'the burst ended before SIGTERM was sent').toBeDefined();
    const { code, ms } = await stopping!;
    // Exit code 0: the requests in flight drained; the deadline's exit would be 1.
    expect(code).toBe(0);
    expect(ms).toBeLessThan(SHUTDOWN_TIMEOUT_MS);

    const { text, cleanly } = await stream.ended;
    expect(cleanly).toBe(true);
    // The hint came after the stream's start, as its last words.
    expect(text).toMatch(/event: ready\ndata: \{"sinceLastEventMs":(?:null|\d+)\}\n\n(?:[\s\S]*\n\n)?retry: \d+\n\n$/);

    const accepted = attempts.filter((attempt) => attempt.answer !== 'connection_error');
    const cut = attempts.filter((attempt) => attempt.answer === 'connection_error');
    expect(accepted.length).toBeGreaterThanOrEqual(20);
    expect(cut.length).toBeGreaterThan(0);

    const countsAfterStop = await withDatabase(({ db }) => transfersByKey(db));
    for (const attempt of accepted) expect(countsAfterStop.get(attempt.key), attempt.key).toBe(1);
    for (const attempt of cut) expect(countsAfterStop.get(attempt.key) ?? 0).toBeLessThanOrEqual(1);
    expect(countsAfterStop.size).toBe(accepted.length + cut.filter((attempt) => countsAfterStop.has(attempt.key)).length);

    // The same data, a new process: the sessions hold, and every key is sent again.
    const second = await start();
    for (const attempt of attempts) {
      const replay = await sendTransfer(second, attempt);
      if (attempt.answer === 'connection_error') {
        expect(replay).toMatchObject({ status: 201 });
      } else {
        expect(replay).toEqual(attempt.answer);
      }
    }
    expect((await terminate(second)).code).toBe(0);

    await withDatabase(async ({ db }) => {
      const counts = await transfersByKey(db);
      expect(counts.size).toBe(attempts.length);
      for (const attempt of attempts) expect(counts.get(attempt.key), attempt.key).toBe(1);
      expect(await totalBalances(db)).toEqual({ meritus: AWARD * group.length, estelecas: 0 });
      expect(await reconcile(db)).toEqual([]);
      const balances = new Map(
        rowsOf<{ id: string; meritus: number }>(await db.execute(sql`SELECT id, meritus FROM students`)).map((row) => [
          row.id,
          Number(row.meritus),
        ]),
      );
      for (const student of group) {
        const sent = attempts.filter((attempt) => attempt.from === student).reduce((sum, attempt) => sum + attempt.amount, 0);
        const received = attempts.filter((attempt) => attempt.to === student).reduce((sum, attempt) => sum + attempt.amount, 0);
        expect(balances.get(student.id)).toBe(AWARD - sent + received);
      }
    });
  });

  test('a request that never finishes (a client sending its body slowly) does not hold the stop: exit 1 at SHUTDOWN_TIMEOUT_MS', async () => {
    const server = await startServer({ ...env, SHUTDOWN_TIMEOUT_MS: '1500' });
    running.push(server);
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.on('error', () => {});
    // Headers and a first byte of a body announced as 1000 bytes: the request stays in flight.
    socket.write(
      'POST /api/auth/student/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    // The health check proves the server is serving; the slow request reached it before SIGTERM.
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    const { code, ms } = await terminate(server);
    socket.destroy();
    expect(code).toBe(1);
    expect(ms).toBeGreaterThanOrEqual(1400);
    expect(ms).toBeLessThan(1500 + 3000);
  });
});

/** The burst's transfers in the ledger, counted by the key their description carries. */
async function transfersByKey(db: Database['db']): Promise<Map<string, number>> {
  const rows = rowsOf<{ description: string; count: string | number }>(
    await db.execute(
      sql`SELECT description, count(*) AS count FROM ledger_entries WHERE description LIKE ${`${DESCRIPTION} %`} GROUP BY description`,
    ),
  );
  return new Map(rows.map((row) => [row.description.slice(DESCRIPTION.length + 1), Number(row.count)]));
}
