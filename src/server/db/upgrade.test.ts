import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, expect, test } from 'vitest';
import { openPglite, openPostgres, PGLITE_EXTENSIONS, rowsOf, type Database } from './client.ts';
import { buildApp } from '../app.ts';
import { hashPassword } from '../modules/auth/password.ts';
import { reconcile } from '../modules/ledger/reconciliation.service.ts';
import { connectPostgres, migrateTo, migrationJournal, pgliteSqlClient, type SqlClient } from '../backup/sql-client.ts';
import { cookieFrom, createPostgresDatabase, TEST_PASSWORD, testConfig } from '../test/test-app.ts';
import { dayIn, DEFAULT_TIME_ZONE } from '../../shared/format.ts';
import { addDays, type ReportOverview } from '../../shared/reports.ts';
import { routes } from '../../shared/contract/routes.ts';

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
    `INSERT INTO admins (id, admin_id, name, email, password_hash, permissions)
     VALUES ($1, 'admin001', 'Professora Helena Costa', 'helena@escola.test', $2, '{all}')`,
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
    `INSERT INTO ledger_entries (currency, type, amount, description, from_student_id, to_student_id,
                                 actor_kind, actor_admin_id, actor_name, status, created_at) VALUES
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
  await client.query(
    `INSERT INTO student_tags (id, student_id, kind, expires_at, assigned_by) VALUES ($1, $2, 'destaque', now() + interval '5 days', $3)`,
    [ids.tag, ids.carla, ids.admin],
  );
  await client.query(`INSERT INTO tag_likes (tag_id, student_id) VALUES ($1, $2)`, [ids.tag, ids.ana]);
  await client.query(`INSERT INTO login_locks (key, locked_until) VALUES ('student:2025002', now() + interval '5 minutes')`);
  await client.query(`INSERT INTO login_failures (account_key, ip) VALUES ('student:2025002', '10.0.0.7')`);
  await client.query(
    `INSERT INTO audit_log (actor_kind, actor_id, action, details) VALUES ('admin', $1, 'student.created', '{"studentId":"2025001"}')`,
    [ids.admin],
  );
}

type Query = (text: string) => Promise<Record<string, unknown>[]>;

/**
 * Rows that must survive any upgrade, in the columns both releases have. A student's turma is
 * read by its name: from `students.grade` before migration 0014 (`turmaBy: 'name'`), from the
 * turma the student references since.
 */
async function lasting(query: Query, turmaBy: 'name' | 'reference') {
  const grade = turmaBy === 'name' ? 's.grade' : '(SELECT t.name FROM turmas t WHERE t.id = s.turma_id)';
  return {
    students: await query(
      `SELECT s.id, s.student_id, s.name, ${grade} AS grade, s.email, s.birth_date::text, s.photo_url,
              s.meritus, s.total_earned, s.estelecas, s.deleted_at::text
         FROM students s ORDER BY s.student_id, s.id`,
    ),
    ledger: await query(
      `SELECT id, currency, type, amount, description, from_student_id, to_student_id, actor_name, created_at::text
         FROM ledger_entries ORDER BY created_at, id`,
    ),
    tags: await query('SELECT id, student_id, kind FROM student_tags'),
    likes: await query('SELECT tag_id, student_id FROM tag_likes'),
    idempotency: await query('SELECT actor_key, key, status_code FROM idempotency_keys'),
    audit: await query('SELECT id::text, action FROM audit_log ORDER BY id'),
  };
}

/**
 * A release's database, made by `make` (its migrations and rows; answers what must be kept):
 * on PGlite a dump handed to the current code, on PostgreSQL a database URL.
 */
async function releaseDatabase<T>(make: (client: SqlClient) => Promise<T>): Promise<{ before: T; open: () => Promise<Database[]> }> {
  if (!onPostgres) {
    const pglite = new PGlite({ extensions: PGLITE_EXTENSIONS });
    const client = pgliteSqlClient(pglite);
    const before = await make(client);
    const dump = await pglite.dumpDataDir('none');
    await client.close();
    return { before, open: async () => [await openPglite(undefined, dump)] };
  }
  const { url, drop } = await createPostgresDatabase('upgrade');
  cleanups.push(drop);
  const client = await connectPostgres(url);
  const before = await make(client);
  await client.close();
  // Two instances of the current code start on it at the same moment.
  return { before, open: () => Promise.all([openPostgres(url.toString(), { max: 3 }), openPostgres(url.toString(), { max: 3 })]) };
}

/** The current code on a release's database: its first instance and a query on it. */
async function upgrade(open: () => Promise<Database[]>): Promise<{ database: Database; query: Query }> {
  const instances = await open();
  cleanups.push(() => Promise.all(instances.map((instance) => instance.close())).then(() => {}));
  const database = instances[0]!;
  const query = async (text: string) => rowsOf<Record<string, unknown>>(await database.db.execute(sql.raw(text)));
  // Every migration applied exactly once, in order, whoever of the instances ran it.
  const journal = await query('SELECT hash, created_at::text AS created_at FROM drizzle.__drizzle_migrations ORDER BY id');
  expect(journal.map((row) => Number(row.created_at))).toEqual(migrationJournal().map((entry) => entry.when));
  expect(new Set(journal.map((row) => row.hash)).size).toBe(journal.length);
  return { database, query };
}

test(
  'a database of release 9f81463 keeps every student, balance, ledger row and photo under the current code; migrations run once',
  { timeout: 120_000 },
  async () => {
    const { before, open } = await releaseDatabase(async (client) => {
      await migrateTo(client, RELEASE_MIGRATIONS);
      await fillAsTheRelease(client);
      return lasting((text) => client.query(text), 'name');
    });
    const { database, query } = await upgrade(open);

    expect(await lasting(query, 'reference')).toEqual(before);
    expect(await reconcile(database.db)).toEqual([]);
    // What the later migrations changed: login_locks gone, failures gained `pending`, the status column dropped.
    expect(await query(`SELECT to_regclass('login_locks') AS t`)).toEqual([{ t: null }]);
    expect(await query('SELECT pending FROM login_failures')).toEqual([{ pending: false }]);
    expect(
      await query(
        `SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'ledger_entries' AND column_name = 'status'`,
      ),
    ).toEqual([{ n: 0 }]);

    // The school works on it: Ana signs in with her old password, sees her balance and photo, and transfers (once, replayed).
    const config = testConfig();
    cleanups.push(() => fs.rmSync(config.dataDir, { recursive: true, force: true }));
    const photo = randomBytes(2048);
    fs.mkdirSync(path.dirname(path.join(config.uploadsDir, photoKey)), { recursive: true });
    fs.writeFileSync(path.join(config.uploadsDir, photoKey), photo);
    const app = await buildApp(config, database);
    cleanups.push(() => app.close());
    const cookie = cookieFrom(
      await app.inject({ method: 'POST', url: '/api/auth/student/login', payload: { studentId: '2025001', password: TEST_PASSWORD } }),
    );
    const me = (await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).json();
    expect(me.student).toMatchObject({ meritus: 380, totalEarned: 500 });
    expect((await app.inject({ method: 'GET', url: me.student.photo, headers: { cookie } })).rawPayload.equals(photo)).toBe(true);
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
  },
);

/**
 * The release before students referenced their turma (migrations 0000–0013): students name it
 * in `students.grade`, and the reports' sums and their queue are keyed on that name. Its rows
 * are written with SQL as it had them: the students and most of the ledger before migration
 * 0009 (which summed them), the last rows after 0013 with their queued copies, as its trigger
 * queued them and no fold has taken yet.
 */
const PREVIOUS_RELEASE_MIGRATIONS = 14;
/** Through 0008, which made the list of turmas. */
const TURMA_LIST_MIGRATIONS = 9;

const school = {
  admin: randomUUID(),
  ana: randomUUID(),
  bruno: randomUUID(),
  carla: randomUUID(),
  diego: randomUUID(),
  elisa: randomUUID(),
  fabio: randomUUID(),
  gil: randomUUID(),
};
/** A turma by a name each student's `grade` reads alike (Bruno's, in other case, from before the list). */
const TURMA_OF: Record<string, string> = {
  [school.ana]: '1º EM - Turma A',
  [school.bruno]: '1º EM - Turma B',
  [school.carla]: '3º EM - Turma D',
  [school.diego]: 'Turma Fantasma',
  [school.elisa]: 'Robótica',
  [school.fabio]: '2º EM - Turma A',
  [school.gil]: 'Turma Extinta',
};

async function fillAsThePreviousRelease(client: SqlClient): Promise<void> {
  await migrateTo(client, TURMA_LIST_MIGRATIONS);
  const hash = await hashPassword(TEST_PASSWORD);
  await client.query(
    `INSERT INTO admins (id, admin_id, name, email, password_hash, permissions)
     VALUES ($1, 'admin001', 'Professora Helena Costa', 'helena@escola.test', $2, '{all}')`,
    [school.admin, hash],
  );
  // A retired turma with a current student; a turma the school added; a grade the list lacks (a current
  // and a removed student); Bruno's grade written in other case than its turma's name.
  await client.query(`UPDATE turmas SET retired_at = now() - interval '20 days' WHERE name = '3º EM - Turma D'`);
  await client.query(`INSERT INTO turmas (name, position) VALUES ('Robótica', 12)`);
  await client.query(
    `INSERT INTO students (id, student_id, name, grade, password_hash, meritus, total_earned, estelecas, deleted_at) VALUES
       ($1, '2026001', 'Ana Beatriz Souza', '1º EM - Turma A', $8, 440, 500, 0, NULL),
       ($2, '2026002', 'Bruno Henrique Lima', '1º em - turma b', $8, 260, 300, 0, NULL),
       ($3, '2026003', 'Carla Dias Ferreira', '3º EM - Turma D', $8, 295, 225, 35, NULL),
       ($4, '2026004', 'Diego Martins Rocha', 'Turma Fantasma', $8, 140, 150, 0, NULL),
       ($5, '2026005', 'Elisa Prado', 'Robótica', $8, 120, 100, 0, NULL),
       ($6, '2026006', 'Fábio Dias', '2º EM - Turma A', $8, 60, 80, 0, now() - interval '5 days'),
       ($7, '2026007', 'Gil Nunes', 'Turma Extinta', $8, 15, 15, 0, now() - interval '50 days')`,
    [school.ana, school.bruno, school.carla, school.diego, school.elisa, school.fabio, school.gil, hash],
  );
  const ledger = (rows: string) =>
    client.query(
      `INSERT INTO ledger_entries (currency, type, amount, description, from_student_id, to_student_id, actor_kind, actor_admin_id, actor_name, created_at)
       SELECT currency, type, amount, description, "from"::uuid, "to"::uuid, CASE WHEN type = 'transfer' THEN 'student' ELSE 'admin' END,
              CASE WHEN type = 'transfer' THEN NULL ELSE $1::uuid END, 'Professora Helena Costa', now() - make_interval(days => ago)
         FROM (VALUES ${rows}) AS v(currency, type, amount, description, "from", "to", ago)`,
      [school.admin],
    );
  const { ana, bruno, carla, diego, elisa, fabio, gil } = Object.fromEntries(Object.entries(school).map(([name, id]) => [name, `'${id}'`]));
  await ledger(`
    ('meritus', 'admin_add', 15, 'Saldo inicial', NULL, ${gil}, 70),
    ('meritus', 'admin_add', 500, 'Saldo inicial', NULL, ${ana}, 40),
    ('meritus', 'admin_add', 300, 'Saldo inicial', NULL, ${bruno}, 40),
    ('meritus', 'admin_add', 200, 'Saldo inicial', NULL, ${carla}, 40),
    ('meritus', 'reward', 150, 'Olimpíada', NULL, ${diego}, 35),
    ('meritus', 'reward', 100, ' Olimpíada ', NULL, ${elisa}, 35),
    ('meritus', 'admin_add', 80, 'Saldo inicial', NULL, ${fabio}, 35),
    ('meritus', 'transfer', 120, 'lanche', ${ana}, ${carla}, 30),
    ('meritus', 'penalty', 30, 'Atraso', ${bruno}, NULL, 20),
    ('meritus', 'transfer', 50, 'livro', ${carla}, ${diego}, 12),
    ('estelecas', 'reward', 40, 'Monitoria', NULL, ${carla}, 12),
    ('meritus', 'transfer', 20, 'figurinhas', ${fabio}, ${elisa}, 10),
    ('estelecas', 'penalty', 5, 'Atraso', ${carla}, NULL, 10)`);
  await migrateTo(client, PREVIOUS_RELEASE_MIGRATIONS);
  await ledger(`
    ('meritus', 'reward', 25, 'Monitoria', NULL, ${carla}, 0),
    ('meritus', 'transfer', 60, 'lanche', ${diego}, ${ana}, 0),
    ('meritus', 'penalty', 10, 'Atraso', ${bruno}, NULL, 0)`);
  await client.query(
    `INSERT INTO ledger_sums_pending (sign, grade, currency, type, amount, description, from_student_id, to_student_id, created_at)
     SELECT 1, s.grade, e.currency, e.type, e.amount, CASE WHEN e.type <> 'transfer' THEN btrim(e.description) END,
            e.from_student_id, e.to_student_id, e.created_at
       FROM ledger_entries e JOIN students s ON s.id = coalesce(e.from_student_id, e.to_student_id)
      WHERE e.created_at > now() - interval '1 hour'`,
  );
}

/**
 * The reports' sums by the turma's name, whatever keys them: stored, plus what is queued (before
 * 0014, by `grade`), or stored with the turma they reference (since). Names compare regardless
 * of case, as the turmas' names do.
 */
async function reportSums(query: Query, turmaBy: 'name' | 'reference') {
  const turma = turmaBy === 'name' ? 'lower(grade)' : '(SELECT lower(t.name) FROM turmas t WHERE t.id = turma_id)';
  const queued = turmaBy === 'name';
  const sums = {
    turmaDays: await query(`
      SELECT turma, day::text AS day, sum(m_awarded)::int AS m_awarded, sum(m_removed)::int AS m_removed, sum(m_transferred)::int AS m_transferred
        FROM (SELECT ${turma} AS turma, day, m_awarded, m_removed, m_transferred FROM ${queued ? 'ledger_grade_days' : 'ledger_turma_days'}
              ${
                queued
                  ? `UNION ALL
              SELECT lower(grade), (created_at AT TIME ZONE 'UTC')::date,
                     CASE WHEN type IN ('admin_add', 'reward') THEN sign * amount ELSE 0 END,
                     CASE WHEN type IN ('admin_remove', 'penalty') THEN sign * amount ELSE 0 END,
                     CASE WHEN type = 'transfer' THEN sign * amount ELSE 0 END
                FROM ledger_sums_pending WHERE currency = 'meritus'`
                  : ''
              }) AS sums
       GROUP BY 1, 2 HAVING sum(m_awarded) <> 0 OR sum(m_removed) <> 0 OR sum(m_transferred) <> 0
       ORDER BY 1, 2`),
    reasons: await query(`
      SELECT span, start::text AS start, turma, kind, description, sum(ops)::int AS ops, sum(meritus)::int AS meritus, sum(estelecas)::int AS estelecas
        FROM (SELECT span, start, ${turma} AS turma, kind, description, ops, meritus, estelecas FROM ledger_reason_sums
              ${
                queued
                  ? `UNION ALL
              SELECT spans.span, spans.start, lower(p.grade),
                     CASE WHEN p.type IN ('admin_add', 'reward') THEN 'award' ELSE 'penalty' END, p.description, p.sign,
                     CASE WHEN p.currency = 'meritus' THEN p.sign * p.amount ELSE 0 END, CASE WHEN p.currency = 'estelecas' THEN p.sign * p.amount ELSE 0 END
                FROM ledger_sums_pending p
               CROSS JOIN LATERAL (VALUES ('d', (p.created_at AT TIME ZONE 'UTC')::date),
                                          ('m', date_trunc('month', p.created_at AT TIME ZONE 'UTC')::date)) AS spans(span, start)
               WHERE p.type <> 'transfer'`
                  : ''
              }) AS sums
       GROUP BY 1, 2, 3, 4, 5 HAVING sum(ops) <> 0 OR sum(meritus) <> 0 OR sum(estelecas) <> 0
       ORDER BY 1, 2, 3, 4, 5`),
    studentDays: await query(`
      SELECT student_id, day::text AS day, m_awarded::int, m_removed::int, m_in::int, m_out::int, e_awarded::int, e_removed::int, e_in::int, e_out::int,
             sent_ops::int, ops::int
        FROM ledger_student_days ORDER BY student_id, day`),
  };
  return sums;
}

test(
  'a database of the release before turma references keeps every student, balance, ledger row and report figure, a retired turma and its student included',
  { timeout: 120_000 },
  async () => {
    const { before, open } = await releaseDatabase(async (client) => {
      await fillAsThePreviousRelease(client);
      const query = (text: string) => client.query(text);
      return {
        kept: await lasting(query, 'name'),
        sums: await reportSums(query, 'name'),
        queued: await query('SELECT count(*)::int AS n FROM ledger_sums_pending'),
      };
    });
    expect(before.queued).toEqual([{ n: 3 }]);
    expect(before.sums.studentDays.length).toBeGreaterThan(0);
    const { database, query } = await upgrade(open);

    // Every student in the turma of their grade's name; the two names the list lacked became turmas, retired, after the school's last.
    expect(await lasting(query, 'reference')).toEqual({
      ...before.kept,
      students: before.kept.students.map((student) => ({ ...student, grade: TURMA_OF[String(student.id)] })),
    });
    expect(
      await query(
        `SELECT name, position, retired_at IS NOT NULL AS retired FROM turmas WHERE position >= 11 OR retired_at IS NOT NULL ORDER BY position`,
      ),
    ).toEqual([
      { name: '3º EM - Turma D', position: 11, retired: true },
      { name: 'Robótica', position: 12, retired: false },
      { name: 'Turma Extinta', position: 13, retired: true },
      { name: 'Turma Fantasma', position: 14, retired: true },
    ]);
    expect(await reconcile(database.db)).toEqual([]);

    // The sums, queued rows included, are what they were under each turma; the queue is empty and
    // every day the release had stored is as it was, each student's last day summing their whole ledger.
    const after = await reportSums(query, 'reference');
    expect(after.turmaDays).toEqual(before.sums.turmaDays);
    expect(after.reasons).toEqual(before.sums.reasons);
    expect(after.studentDays).toEqual(expect.arrayContaining(before.sums.studentDays));
    expect(await query('SELECT count(*)::int AS n FROM ledger_sums_pending')).toEqual([{ n: 0 }]);
    const totals = new Map<string, Record<string, number>>();
    for (const row of before.kept.ledger) {
      const prefix = row.currency === 'meritus' ? 'm' : 'e';
      const transfer = row.type === 'transfer';
      const side = (student: unknown, column: string, sent: boolean) => {
        const sums = totals.get(String(student)) ?? {};
        for (const [key, add] of [
          [column, Number(row.amount)],
          ['ops', 1],
          ['sent_ops', sent ? 1 : 0],
        ] as const)
          sums[key] = (sums[key] ?? 0) + add;
        totals.set(String(student), sums);
      };
      if (row.to_student_id) side(row.to_student_id, `${prefix}_${transfer ? 'in' : 'awarded'}`, false);
      if (row.from_student_id) side(row.from_student_id, `${prefix}_${transfer ? 'out' : 'removed'}`, transfer);
    }
    const lastDays = new Map(after.studentDays.map((row) => [String(row.student_id), row]));
    for (const [student, sums] of totals) expect(lastDays.get(student), student).toMatchObject(sums);

    // The reports show each turma's figures under its name, the retired and the made ones included, whole or filtered.
    const config = testConfig();
    cleanups.push(() => fs.rmSync(config.dataDir, { recursive: true, force: true }));
    const app = await buildApp(config, database);
    cleanups.push(() => app.close());
    const cookie = cookieFrom(
      await app.inject({ method: 'POST', url: '/api/auth/admin/login', payload: { email: 'helena@escola.test', password: TEST_PASSWORD } }),
    );
    const today = dayIn(DEFAULT_TIME_ZONE, new Date());
    const period = `period=custom&from=${addDays(today, -90)}&to=${today}`;
    const expected = [...new Set(Object.values(TURMA_OF))].sort().map((turma) => {
      const members = before.kept.students.filter((student) => TURMA_OF[String(student.id)] === turma);
      const own = (side: 'from_student_id' | 'to_student_id', types: string[]) =>
        before.kept.ledger
          .filter(
            (row) => row.currency === 'meritus' && types.includes(String(row.type)) && members.some((student) => student.id === row[side]),
          )
          .reduce((sum, row) => sum + Number(row.amount), 0);
      const present = members.filter((student) => student.deleted_at === null);
      return {
        turma,
        students: present.length,
        awarded: own('to_student_id', ['admin_add', 'reward']),
        removed: own('from_student_id', ['admin_remove', 'penalty']),
        transferred: own('from_student_id', ['transfer']),
        balance: present.reduce((sum, student) => sum + Number(student.meritus), 0),
      };
    });
    const overview = async (filter = '') => {
      const response = await app.inject({ method: 'GET', url: `${routes.reports.overview.path}?${period}${filter}`, headers: { cookie } });
      expect(response.statusCode, response.body).toBe(200);
      const rows = (response.json() as ReportOverview).turmas.filter((row) => expected.some((turma) => turma.turma === row.turma));
      return rows.sort((a, b) => (a.turma < b.turma ? -1 : 1));
    };
    expect(await overview()).toEqual(expected.map((turma) => expect.objectContaining(turma)));
    for (const turma of ['3º EM - Turma D', 'Turma Fantasma']) {
      expect(await overview(`&turma=${encodeURIComponent(turma)}`)).toEqual([
        expect.objectContaining(expected.find((row) => row.turma === turma)!),
      ]);
    }
  },
);

/** The migrations before school years (issue 38): 0027 is the first of them. */
const BEFORE_SCHOOL_YEARS = migrationJournal().findIndex((entry) => entry.tag.endsWith('_school_year'));

test(
  'a database from before school years comes into them: one year per calendar year of its rows, in four bimestres, every row in a year and a period',
  { timeout: 120_000 },
  async () => {
    const { before, open } = await releaseDatabase(async (client) => {
      await migrateTo(client, BEFORE_SCHOOL_YEARS);
      const hash = await hashPassword(TEST_PASSWORD);
      await client.query(
        `INSERT INTO admins (id, admin_id, name, email, password_hash) VALUES ($1, 'admin001', 'Professora Helena Costa', 'helena.anos@escola.test', $2)`,
        [ids.admin, hash],
      );
      await client.query(
        `INSERT INTO students (id, student_id, name, turma_id, password_hash, meritus, total_earned)
         VALUES ($1, '2023001', 'Ana Beatriz Souza', (SELECT id FROM turmas ORDER BY position LIMIT 1), $2, 60, 60)`,
        [ids.ana, hash],
      );
      // Rows at the edges of São Paulo's years: 31 December 23:30 there is already 1 January in UTC.
      await client.query(
        `INSERT INTO ledger_entries (currency, type, amount, description, to_student_id, actor_kind, actor_admin_id, actor_name, created_at) VALUES
           ('meritus', 'admin_add', 10, 'Início', $1, 'admin', $2, 'Helena', '2023-03-10T12:00:00-03:00'),
           ('meritus', 'admin_add', 20, 'Fim do ano', $1, 'admin', $2, 'Helena', '2023-12-31T23:30:00-03:00'),
           ('meritus', 'reward', 30, 'Ano seguinte', $1, 'admin', $2, 'Helena', '2025-07-01T00:10:00-03:00')`,
        [ids.ana, ids.admin],
      );
      // A tag before the first ledger row and a Loja order after the last: the years run from the one to the other.
      await client.query(
        `INSERT INTO student_tags (id, student_id, kind, assigned_at, expires_at, assigned_by)
         VALUES ($1, $2, 'leader', '2022-11-05T09:00:00-03:00', '2022-11-12T09:00:00-03:00', $3)`,
        [ids.tag, ids.ana, ids.admin],
      );
      const [item] = await client.query(
        `INSERT INTO store_items (name, category, currency, goal, deadline) VALUES ('Passeio da turma', 'turma', 'meritus', 100, '2026-12-01') RETURNING id`,
      );
      await client.query(
        `INSERT INTO store_orders (item_id, price, currency, created_at) VALUES ($1, 100, 'meritus', '2026-02-10T10:00:00-03:00')`,
        [item!.id],
      );
      return { kept: await lasting((text) => client.query(text), 'reference') };
    });
    const { database, query } = await upgrade(open);
    expect(await lasting(query, 'reference')).toEqual(before.kept);
    expect(await reconcile(database.db)).toEqual([]);

    expect(
      await query(`SELECT name, start_date::text AS start, end_date::text AS end, period_kind FROM school_years ORDER BY start_date`),
    ).toEqual(
      ['2022', '2023', '2024', '2025', '2026'].map((year) => ({
        name: `Ano letivo ${year}`,
        start: `${year}-01-01`,
        end: `${year}-12-31`,
        period_kind: 'bimestre',
      })),
    );
    expect(
      await query(
        `SELECT p.position, p.start_date::text AS start, p.end_date::text AS end FROM school_periods p JOIN school_years y ON y.id = p.year_id
          WHERE y.name = 'Ano letivo 2024' ORDER BY p.position`,
      ),
    ).toEqual([
      { position: 1, start: '2024-01-01', end: '2024-03-31' },
      { position: 2, start: '2024-04-01', end: '2024-06-30' },
      { position: 3, start: '2024-07-01', end: '2024-09-30' },
      { position: 4, start: '2024-10-01', end: '2024-12-31' },
    ]);
    // Each row's year and period, found from its date in the school's time zone.
    expect(
      await query(
        `SELECT e.description, y.name AS year, p.position
           FROM ledger_entries e
           LEFT JOIN school_periods p ON (e.created_at AT TIME ZONE 'America/Sao_Paulo')::date BETWEEN p.start_date AND p.end_date
           LEFT JOIN school_years y ON y.id = p.year_id
          ORDER BY e.created_at`,
      ),
    ).toEqual([
      { description: 'Início', year: 'Ano letivo 2023', position: 1 },
      { description: 'Fim do ano', year: 'Ano letivo 2023', position: 4 },
      { description: 'Ano seguinte', year: 'Ano letivo 2025', position: 3 },
    ]);
    // Every dated row, of every kind, falls in exactly one year and one of its periods.
    const placed = (table: string, column: string) =>
      query(
        `SELECT count(*)::int AS n, count(p.id)::int AS placed, count(DISTINCT r.id)::int AS distinct_rows
           FROM ${table} r
           LEFT JOIN school_periods p ON (r.${column} AT TIME ZONE 'America/Sao_Paulo')::date BETWEEN p.start_date AND p.end_date`,
      );
    for (const [table, column] of [
      ['ledger_entries', 'created_at'],
      ['store_orders', 'created_at'],
      ['student_tags', 'assigned_at'],
    ] as const) {
      const [row] = await placed(table, column);
      expect(row, table).toEqual({ n: row!.distinct_rows, placed: row!.distinct_rows, distinct_rows: row!.distinct_rows });
      expect(row!.n, table).toBeGreaterThan(0);
    }
    expect(
      await query(
        `SELECT y.name AS year, p.position FROM store_orders o
           JOIN school_periods p ON (o.created_at AT TIME ZONE 'America/Sao_Paulo')::date BETWEEN p.start_date AND p.end_date
           JOIN school_years y ON y.id = p.year_id
         UNION ALL
         SELECT y.name, p.position FROM student_tags t
           JOIN school_periods p ON (t.assigned_at AT TIME ZONE 'America/Sao_Paulo')::date BETWEEN p.start_date AND p.end_date
           JOIN school_years y ON y.id = p.year_id`,
      ),
    ).toEqual([
      { year: 'Ano letivo 2026', position: 1 },
      { year: 'Ano letivo 2022', position: 4 },
    ]);
    expect(await query(`SELECT ledger_type_sign('year_closing') AS sign`)).toEqual([{ sign: -1 }]);
  },
);
