import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, expect, test } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { silentEvents } from '../../realtime/event-bus.ts';
import {
  addAdmin,
  addStudents,
  adminActor,
  createTestDatabase,
  TEST_ADMIN,
  TEST_PASSWORD,
  type TestDatabase,
} from '../../test/test-app.ts';
import { startServer, type RunningServer } from '../../test/processes.ts';
import { adminOperation } from '../ledger/ledger.service.ts';
import { addDays } from '../../../shared/reports.ts';
import { dayIn } from '../../../shared/format.ts';

/**
 * Issue 38: an apply of the rollover killed (SIGKILL) while its transaction runs leaves the school exactly as before, the
 * year open, and a second apply then works. On PostgreSQL the test holds the rollover table in SHARE mode, so the apply's
 * transaction waits at its last write, after every student has moved, every balance closed and every graduate removed;
 * the test sees it waiting (pg_locks), kills the server, and lets the transaction go on without its client: it never commits.
 * PGlite runs inside the server's process, where no second client can hold a lock: the API test's failing last step covers it.
 */
const onPostgres = process.env.TEST_DB === 'postgres';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-rollover-kill-'));
let database: TestDatabase | undefined;
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Every row the rollover would change, in a fixed order. */
async function snapshot(db: TestDatabase['db']) {
  const read = async (query: ReturnType<typeof sql>) => rowsOf<Record<string, unknown>>(await db.execute(query));
  return {
    students: await read(sql`SELECT id, turma_id, meritus, estelecas, deleted_at, departure, updated_at FROM students ORDER BY id`),
    ledger: await read(sql`SELECT id, currency, type, amount, from_student_id, to_student_id FROM ledger_entries ORDER BY id`),
    rollovers: await read(sql`SELECT * FROM school_year_rollovers`),
    honours: await read(sql`SELECT * FROM hall_of_fame_honours`),
    yearTurmas: await read(sql`SELECT * FROM student_year_turmas`),
    idempotency: await read(sql`SELECT key FROM idempotency_keys`),
  };
}

test.skipIf(!onPostgres)(
  'an apply killed mid-way leaves every turma, balance and ledger row as before and the year open; a second apply works',
  { timeout: 240_000 },
  async () => {
    database = await createTestDatabase();
    const { db } = database;
    const admin = await addAdmin(db, TEST_ADMIN);
    const grades = ['1º EM - Turma A', '2º EM - Turma B', '3º EM - Turma C', '1º EM - Turma D'];
    const roster = await addStudents(
      db,
      Array.from({ length: 40 }, (_, index) => ({
        studentId: `88${String(index).padStart(5, '0')}`,
        name: `Aluno Virada ${index}`,
        grade: grades[index % grades.length]!,
      })),
    );
    for (const [index, student] of roster.entries()) {
      await adminOperation({ db, events: silentEvents }, adminActor(admin), 'meritus', {
        id: student.id,
        type: 'admin_add',
        amount: 10 + index,
        description: 'Participação',
      });
    }

    const server = await startServer({ DATABASE_URL: database.url!, DATA_DIR: dataDir, DEMO: 'off', API_RATE_LIMIT: '0' });
    servers.push(server);
    const cookieOf = async (running: RunningServer) => {
      const response = await fetch(`${running.url}/api/auth/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: TEST_ADMIN.email, password: TEST_PASSWORD }),
      });
      expect(response.status, await response.clone().text()).toBe(200);
      return response.headers.getSetCookie()[0]!.split(';')[0]!;
    };
    const post = async (running: RunningServer, cookie: string, url: string, body: object, key?: string) => {
      const response = await fetch(`${running.url}/api${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, ...(key ? { 'idempotency-key': key } : {}) },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };
    let cookie = await cookieOf(server);
    const today = dayIn('America/Sao_Paulo', new Date());
    const from = addDays(today, -100);
    const periods = [0, 1, 2, 3].map((n) => ({
      startDate: addDays(from, n * 40),
      endDate: n === 3 ? addDays(today, 60) : addDays(from, n * 40 + 39),
    }));
    const year = await post(server, cookie, '/admin/school-years', {
      name: 'Ano letivo 2026',
      startDate: from,
      endDate: addDays(today, 60),
      periodKind: 'bimestre',
      periods,
    });
    expect(year.status, JSON.stringify(year.body)).toBe(201);
    const body = { balances: { meritus: 'close', estelecas: 'close' } };
    const preview = await post(server, cookie, '/admin/rollover/preview', body);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.counts).toMatchObject({ moving: 30, graduating: 10 });
    const before = await snapshot(db);

    // The apply waits at its last write (the rollover's row) while this transaction holds the table.
    const holder = new pg.Client({ connectionString: database.url! });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE school_year_rollovers IN SHARE MODE');
      const apply = post(server, cookie, '/admin/rollover/apply', { ...body, token: preview.body.token }, 'virada-interrompida').catch(
        () => 'connection_error' as const,
      );
      const waiting = async () =>
        rowsOf<{ pid: number }>(
          await db.execute(sql`SELECT l.pid FROM pg_locks l
                                 WHERE l.relation = 'school_year_rollovers'::regclass AND NOT l.granted AND l.mode = 'RowExclusiveLock'`),
        );
      await expect.poll(async () => (await waiting()).length, { timeout: 60_000, interval: 20 }).toBe(1);
      const [{ pid }] = (await waiting()) as [{ pid: number }];
      // Mid-way: the students already moved and the balances closed, uncommitted, in that transaction.
      const written = rowsOf<{ relation: string }>(
        await db.execute(sql`SELECT l.relation::regclass::text AS relation FROM pg_locks l
                               WHERE l.pid = ${pid} AND l.granted AND l.mode = 'RowExclusiveLock'`),
      ).map((row) => row.relation);
      expect(written).toEqual(expect.arrayContaining(['students', 'ledger_entries', 'student_year_turmas', 'hall_of_fame_honours']));
      server.child.kill('SIGKILL');
      expect(await apply).toBe('connection_error');
      await holder.query('ROLLBACK');
      // The orphaned transaction ends when it finds its client gone.
      await expect
        .poll(async () => rowsOf(await db.execute(sql`SELECT 1 FROM pg_stat_activity WHERE pid = ${pid}`)).length, {
          timeout: 30_000,
          interval: 50,
        })
        .toBe(0);
    } finally {
      await holder.end();
    }

    expect(await snapshot(db)).toEqual(before);
    const again = await startServer({ DATABASE_URL: database.url!, DATA_DIR: dataDir, DEMO: 'off', API_RATE_LIMIT: '0' });
    servers.push(again);
    cookie = await cookieOf(again);
    // The year is still open: the preview of the same choices is the same, token and all.
    const fresh = await post(again, cookie, '/admin/rollover/preview', body);
    expect(fresh.status).toBe(200);
    expect(fresh.body.token).toBe(preview.body.token);
    // The same key again: nothing was kept of the killed attempt, so it applies now.
    const applied = await post(again, cookie, '/admin/rollover/apply', { ...body, token: fresh.body.token }, 'virada-interrompida');
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body).toMatchObject({ applied: true, counts: preview.body.counts });
    const after = await snapshot(db);
    expect(after.rollovers).toHaveLength(1);
    expect(after.students.filter((row) => row.departure === 'graduated')).toHaveLength(10);
    expect(after.students.every((row) => Number(row.meritus) === 0)).toBe(true);
    expect(await again.stop()).toBe(0);
  },
);
