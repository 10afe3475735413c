import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { buildApp } from '../app.ts';
import {
  addAdmin,
  addStudents,
  buildTestApp,
  cookieFrom,
  testConfig,
  TEST_ADMIN,
  TEST_PASSWORD,
  type TestApp,
  type TestStudent,
} from '../test/test-app.ts';
import { startPostgres, type PostgresServer } from '../test/postgres-server.ts';
import { openPostgres, rowsOf, type Database } from './client.ts';
import { ledgerEntries, students } from './schema.ts';

/** What every request the database cannot serve answers: 503, a few seconds to wait, the code and its pt-BR text. */
function expectUnavailable(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(503);
  expect(response.headers['retry-after']).toBe('3');
  expect(response.json().error).toEqual({
    code: 'service_unavailable',
    message: 'Sem conexão com o servidor. Tente novamente em alguns segundos.',
  });
}

function signIn(app: FastifyInstance, studentId: string) {
  return app.inject({ method: 'POST', url: '/api/auth/student/login', payload: { studentId, password: TEST_PASSWORD } });
}

function transfer(
  app: FastifyInstance,
  cookie: string,
  key: string,
  payload: { recipientId: string; amount: number; description: string },
) {
  return app.inject({ method: 'POST', url: '/api/meritus/transfers', headers: { cookie, 'idempotency-key': key }, payload });
}

describe.skipIf(process.env.TEST_DB !== 'postgres')('PostgreSQL stopped under a running server', () => {
  let server: PostgresServer;
  let database: Database;
  let app: FastifyInstance;
  let ana: TestStudent;
  let bruno: TestStudent;

  beforeAll(async () => {
    // Its own server, since the tests stop it.
    server = await startPostgres();
    database = await openPostgres(server.url, { max: 5 });
    // Sessions stay cached, so a transfer reaches the ledger with PostgreSQL down instead of failing at the session check.
    app = await buildApp(testConfig({ SESSION_CACHE_MS: '60000' }), database);
    await addAdmin(database.db, TEST_ADMIN);
    [ana, bruno] = (await addStudents(database.db, [
      { studentId: '3200001', name: 'Ana Beatriz Souza' },
      { studentId: '3200002', name: 'Bruno Henrique Lima' },
    ])) as [TestStudent, TestStudent];
    const admin = cookieFrom(
      await app.inject({ method: 'POST', url: '/api/auth/admin/login', payload: { email: TEST_ADMIN.email, password: TEST_PASSWORD } }),
    );
    const award = await app.inject({
      method: 'POST',
      url: `/api/admin/students/${ana.id}/meritus`,
      headers: { cookie: admin },
      payload: { type: 'admin_add', amount: 100, description: 'Saldo para o teste' },
    });
    expect(award.statusCode).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await server?.stop();
  });

  async function balances(): Promise<Record<string, number>> {
    const rows = await database.db
      .select({ studentId: students.studentId, meritus: students.meritus })
      .from(students)
      .where(inArray(students.id, [ana.id, bruno.id]));
    return Object.fromEntries(rows.map((row) => [row.studentId, row.meritus]));
  }
  /** How many ledger rows a description names (each test's transfer has its own). */
  async function rowsDescribed(description: string): Promise<number> {
    return (await database.db.select({ id: ledgerEntries.id }).from(ledgerEntries).where(eq(ledgerEntries.description, description)))
      .length;
  }

  test('a transfer, a sign-in and the health check answer 503 with Retry-After while it is down, and succeed once it is back', async () => {
    const cookie = cookieFrom(await signIn(app, ana.studentId));
    const key = randomUUID();
    const sent = { recipientId: bruno.id, amount: 10, description: 'Lanche' };
    const before = await balances();

    await server.down();
    try {
      expectUnavailable(await transfer(app, cookie, key, sent));
      expectUnavailable(await signIn(app, bruno.studentId));
      expectUnavailable(await app.inject({ method: 'GET', url: '/api/health' }));
    } finally {
      await server.up();
    }

    // The client's retry, with the same key: done once, and a repeat replays it.
    const done = await transfer(app, cookie, key, sent);
    expect(done.statusCode, done.body).toBe(201);
    const replayed = await transfer(app, cookie, key, sent);
    expect(replayed.statusCode).toBe(201);
    expect(replayed.json()).toEqual(done.json());
    expect(await rowsDescribed('Lanche')).toBe(1);
    expect(await balances()).toEqual({ [ana.studentId]: before[ana.studentId]! - 10, [bruno.studentId]: before[bruno.studentId]! + 10 });
    expect((await signIn(app, bruno.studentId)).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  test('a transfer cut off by PostgreSQL stopping while it runs answers 503 and writes nothing; its retry with the same key is done once', async () => {
    const cookie = cookieFrom(await signIn(app, ana.studentId));
    const key = randomUUID();
    const sent = { recipientId: bruno.id, amount: 7, description: 'Pastel' };
    const before = await balances();

    // Ana's row held by another transaction: the transfer waits inside ledger_transfer() until the server stops.
    const holder = new pg.Client({ connectionString: server.url });
    holder.on('error', () => {}); // the stop ends its connection too
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM students WHERE id = $1 FOR UPDATE', [ana.id]);
    const cut = transfer(app, cookie, key, sent);
    // Asked on the app's pool: the holder's transaction would see one snapshot of pg_stat_activity throughout.
    await vi.waitFor(
      async () => {
        const waiting = await database.db.execute(
          sql`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'SELECT ledger_transfer(%'`,
        );
        expect(rowsOf(waiting)).toHaveLength(1);
      },
      { timeout: 10_000, interval: 20 },
    );
    // The stop ends the transfer's session first, as a stop may: a fast stop ending the holder's first would let the
    // transfer take the row and commit before its own end came (seen once in CI).
    await holder.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'SELECT ledger_transfer(%'`,
    );
    await server.down();
    try {
      expectUnavailable(await cut);
    } finally {
      await server.up();
      await holder.end().catch(() => {});
    }

    expect(await rowsDescribed('Pastel')).toBe(0);
    expect(await balances()).toEqual(before);
    const done = await transfer(app, cookie, key, sent);
    expect(done.statusCode, done.body).toBe(201);
    expect((await transfer(app, cookie, key, sent)).json()).toEqual(done.json());
    expect(await rowsDescribed('Pastel')).toBe(1);
    expect(await balances()).toEqual({ [ana.studentId]: before[ana.studentId]! - 7, [bruno.studentId]: before[bruno.studentId]! + 7 });
  });
});

describe.skipIf(process.env.TEST_DB === 'postgres')(
  'the embedded database closed under a running server (as while the server stops)',
  () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp({ env: { SESSION_CACHE_MS: '60000' } });
    });
    afterAll(async () => {
      // The database is closed already: the live events' LISTEN, ended as the app closes, cannot tell it.
      await expect(t.app.close()).rejects.toThrow('PGlite is closed');
      fs.rmSync(t.config.dataDir, { recursive: true, force: true });
    });

    test('a transfer, a sign-in and the health check answer 503 with Retry-After, not 500', async () => {
      const [ana, bruno] = t.students as [TestStudent, TestStudent];
      await t.award(ana.id, 50);
      const cookie = await t.loginStudent(ana.studentId);
      await t.database.close();
      expectUnavailable(await transfer(t.app, cookie, randomUUID(), { recipientId: bruno.id, amount: 5, description: 'Lanche' }));
      expectUnavailable(await signIn(t.app, bruno.studentId));
      expectUnavailable(await t.app.inject({ method: 'GET', url: '/api/health' }));
    });
  },
);
