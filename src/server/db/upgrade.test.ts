import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, expect, test } from 'vitest';
import { openPglite, openPostgres, rowsOf, type Database } from './client.ts';
import { buildApp } from '../app.ts';
import { hashPassword } from '../modules/auth/password.ts';
import { reconcile } from '../modules/ledger/reconciliation.service.ts';
import { connectPostgres, migrateTo, migrationJournal, pgliteSqlClient, type SqlClient } from '../backup/sql-client.ts';
import { cookieFrom, createPostgresDatabase, TEST_PASSWORD, testConfig } from '../test/test-app.ts';

/**
 * A school's database from an earlier release, opened by the current code. The release is
 * commit 9f81463 ("Transfers write less", 2026-11-22): its migrations are 0000–0003, frozen
 * in the repository and applied here alone, and the rows are written with SQL as that
 * release's schema had them (ledger_entries.status, login_locks, login_failures without
 * `pending`, the 13-parameter ledger_transfer()). Then the current migrations and living SQL
 * run — on PostgreSQL by two instances starting together — and everything must still be there.
 */
const RELEASE_MIGRATIONS = 4;
const onPostgres = process.env.TEST_DB === 'postgres';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const ids = { admin: randomUUID(), ana: randomUUID(), bruno: randomUUID(), carla: randomUUID(), tag: randomUUID() };
const photoKey = `students/${ids.ana}/${randomBytes(8).toString('hex')}.webp`;

/** The school as release 9f81463 stored it: balances equal to their ledger rows. */
async function fillAsTheRelease(client: SqlClient): Promise<void> {
  const hash = await hashPassword(TEST_PASSWORD);
  await client.query(
    `INSERT INTO admins (id, admin_id, name, email, password_hash, permissions) VALUES ($1, 'admin001', 'Professora Helena Costa', 'helena@escola.test', $2, '{all}')`,
    [ids.admin, hash],
  );
  await client.query(
    `INSERT INTO students (id, student_id, name, grade, password_hash, photo_url, meritus, total_earned, estelecas, email, birth_date) VALUES
       ($1, '2025001', 'Ana Beatriz Souza', '1º EM - Turma A', $4, $5, 380, 500, 0, 'ana@escola.test', '2010-03-14'),
       ($2, '2025002', 'Bruno Henrique Lima', '1º EM - Turma B', $4, NULL, 90, 0, 0, NULL, NULL),
       ($3, '2025003', 'Carla Dias Ferreira', '2º EM - Turma A', $4, NULL, 200, 200, 40, NULL, NULL)`,
    [ids.ana, ids.bruno, ids.carla, hash, `/uploads/${photoKey}`],
  );
  await client.query(
    `INSERT INTO ledger_entries (currency, type, amount, description, from_student_id, to_student_id, actor_kind, actor_admin_id, actor_name, status, created_at) VALUES
       ('meritus', 'admin_add', 500, 'Saldo inicial', NULL, $1, 'admin', $4, 'Professora Helena Costa', 'completed', now() - interval '3 days'),
       ('meritus', 'transfer', 120, 'lanche', $1, $2, 'student', NULL, 'Ana Beatriz Souza', 'completed', now() - interval '2 days'),
       ('meritus', 'penalty', 30, 'Atraso', $2, NULL, 'admin', $4, 'Professora Helena Costa', 'completed', now() - interval '1 day'),
       ('meritus', 'reward', 200, 'Olimpíada', NULL, $3, 'admin', $4, 'Professora Helena Costa', 'completed', now() - interval '1 day'),
       ('estelecas', 'reward', 40, 'Monitoria', NULL, $3, 'admin', $4, 'Professora Helena Costa', 'completed', now())`,
    [ids.ana, ids.bruno, ids.carla, ids.admin],
  );
  await client.query(
    `INSERT INTO idempotency_keys (actor_key, key, request_hash, status_code, response) VALUES ($1, 'chave-antiga', 'x', 201, '{"ok":true}')`,
    [`student:${ids.ana}`],
  );
  await client.query(`INSERT INTO student_tags (id, student_id, kind, expires_at, assigned_by) VALUES ($1, $2, 'destaque', now() + interval '5 days', $3)`, [
    ids.tag,
    ids.carla,
    ids.admin,
  ]);
  await client.query(`INSERT INTO tag_likes (tag_id, student_id) VALUES ($1, $2)`, [ids.tag, ids.ana]);
  await client.query(`INSERT INTO login_locks (key, locked_until) VALUES ('student:2025002', now() + interval '5 minutes')`);
  await client.query(`INSERT INTO login_failures (account_key, ip) VALUES ('student:2025002', '10.0.0.7')`);
  await client.query(`INSERT INTO audit_log (actor_kind, actor_id, action, details) VALUES ('admin', $1, 'student.created', '{"studentId":"2025001"}')`, [ids.admin]);
}

/** Rows that must survive any upgrade, in the columns both releases have. */
async function lasting(query: (text: string) => Promise<Record<string, unknown>[]>) {
  return {
    students: await query('SELECT id, student_id, name, grade, email, birth_date::text, photo_url, meritus, total_earned, estelecas FROM students ORDER BY student_id'),
    ledger: await query('SELECT id, currency, type, amount, description, from_student_id, to_student_id, actor_name, created_at::text FROM ledger_entries ORDER BY created_at, id'),
    tags: await query('SELECT id, student_id, kind FROM student_tags'),
    likes: await query('SELECT tag_id, student_id FROM tag_likes'),
    idempotency: await query('SELECT actor_key, key, status_code FROM idempotency_keys'),
    audit: await query('SELECT id::text, action FROM audit_log ORDER BY id'),
  };
}

/** The release's database: on PGlite a dump handed to the current code, on PostgreSQL a database URL. */
async function releaseDatabase(): Promise<{ before: Awaited<ReturnType<typeof lasting>>; open: () => Promise<Database[]> }> {
  if (!onPostgres) {
    const pglite = new PGlite();
    const client = pgliteSqlClient(pglite);
    await migrateTo(client, RELEASE_MIGRATIONS);
    await fillAsTheRelease(client);
    const before = await lasting((text) => client.query(text));
    const dump = await pglite.dumpDataDir('none');
    await client.close();
    return { before, open: async () => [await openPglite(undefined, dump)] };
  }
  const { url, drop } = await createPostgresDatabase('upgrade');
  cleanups.push(drop);
  const client = await connectPostgres(url);
  await migrateTo(client, RELEASE_MIGRATIONS);
  await fillAsTheRelease(client);
  const before = await lasting((text) => client.query(text));
  await client.close();
  // Two instances of the current code start on it at the same moment.
  return { before, open: () => Promise.all([openPostgres(url.toString(), { max: 3 }), openPostgres(url.toString(), { max: 3 })]) };
}

test('a database of release 9f81463 keeps every student, balance, ledger row and photo under the current code; migrations run once', { timeout: 120_000 }, async () => {
  const { before, open } = await releaseDatabase();
  const instances = await open();
  cleanups.push(() => Promise.all(instances.map((instance) => instance.close())).then(() => {}));
  const database = instances[0]!;
  const query = async (text: string) => rowsOf<Record<string, unknown>>(await database.db.execute(sql.raw(text)));

  // Every migration applied exactly once, in order, whoever of the instances ran it.
  const journal = await query('SELECT hash, created_at::text AS created_at FROM drizzle.__drizzle_migrations ORDER BY id');
  expect(journal.map((row) => Number(row.created_at))).toEqual(migrationJournal().map((entry) => entry.when));
  expect(new Set(journal.map((row) => row.hash)).size).toBe(journal.length);

  expect(await lasting(query)).toEqual(before);
  expect(await reconcile(database.db)).toEqual([]);
  // What the later migrations changed: login_locks gone, failures gained `pending`, the status column dropped.
  expect(await query(`SELECT to_regclass('login_locks') AS t`)).toEqual([{ t: null }]);
  expect(await query('SELECT pending FROM login_failures')).toEqual([{ pending: false }]);
  expect(await query(`SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'ledger_entries' AND column_name = 'status'`)).toEqual([{ n: 0 }]);

  // The school works on it: Ana signs in with her old password, sees her balance and photo, and transfers (once, replayed).
  const config = testConfig();
  cleanups.push(() => fs.rmSync(config.dataDir, { recursive: true, force: true }));
  const photo = randomBytes(2048);
  fs.mkdirSync(path.dirname(path.join(config.uploadsDir, photoKey)), { recursive: true });
  fs.writeFileSync(path.join(config.uploadsDir, photoKey), photo);
  const app = await buildApp(config, database);
  cleanups.push(() => app.close());
  const cookie = cookieFrom(await app.inject({ method: 'POST', url: '/api/auth/student/login', payload: { studentId: '2025001', password: TEST_PASSWORD } }));
  const me = (await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).json();
  expect(me.student).toMatchObject({ meritus: 380, totalEarned: 500 });
  expect((await app.inject({ method: 'GET', url: me.student.photo })).rawPayload.equals(photo)).toBe(true);
  const send = () =>
    app.inject({
      method: 'POST',
      url: '/api/meritus/transfers',
      headers: { cookie, 'idempotency-key': 'depois-da-atualizacao' },
      payload: { recipientId: ids.bruno, amount: 80, description: 'livro' },
    });
  const first = await send();
  expect(first.statusCode).toBe(201);
  expect((await send()).json()).toEqual(first.json());
  expect(await query(`SELECT student_id, meritus FROM students WHERE id IN ('${ids.ana}', '${ids.bruno}') ORDER BY student_id`)).toEqual([
    { student_id: '2025001', meritus: 300 },
    { student_id: '2025002', meritus: 170 },
  ]);
  expect(await reconcile(database.db)).toEqual([]);
});
