/**
 * node --import tsx bench/ranking-reads.ts — the reads every student screen repeats, with a school of 2,000.
 *
 * Fills a fresh PostgreSQL 15 with 2,000 students in every turma and BENCH_ROWS ledger rows (200,000) over 30 days,
 * builds the app in this process and times, through app.inject (no network), GET /api/ranking and GET /api/me/summary
 * as a signed-in student: the first read, the steady state, a read right after a transfer, and a read whose
 * If-None-Match names the answer held. It asks by address only, so the same file times an earlier version of the
 * server too (one without pages or ETags answers the plain addresses with the whole list, and never 304).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { startPostgres } from '../src/server/test/postgres-server.ts';
import { openPostgres } from '../src/server/db/client.ts';
import { students } from '../src/server/db/schema.ts';
import { loadConfig } from '../src/server/config.ts';
import { buildApp } from '../src/server/app.ts';
import { hashPassword } from '../src/server/modules/auth/password.ts';
import { sortedDurations } from './timing.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 200_000);
const STUDENTS = 2000;
const RUNS = 50;
const PASSWORD = 'bench-senha-1';

const pg = await startPostgres({ durable: true });
const database = await openPostgres(pg.url, { max: 10 });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-ranking-bench-'));
try {
  const { db } = database;
  console.log(`filling: ${STUDENTS} students, ${ROWS.toLocaleString('pt-BR')} ledger rows…`);
  await db.execute(sql`
    WITH t AS (SELECT array_agg(id ORDER BY name) AS ids, count(*) AS n FROM turmas)
    INSERT INTO students (student_id, name, turma_id, password_hash, meritus, total_earned, estelecas)
    SELECT (8000000 + s)::text, 'Estudante ' || lpad(s::text, 4, '0'), t.ids[1 + s % t.n], 'x', 1000 + (s * 37) % 5000, 1000000, 100
      FROM generate_series(1, ${STUDENTS}) AS s, t`);
  await db.execute(sql`
    WITH ids AS (SELECT array_agg(id) AS a FROM students)
    INSERT INTO ledger_entries (currency, type, amount, description, from_student_id, to_student_id, actor_kind, actor_name, created_at)
    SELECT 'meritus', CASE WHEN n % 3 = 0 THEN 'reward' ELSE 'transfer' END, 1 + n % 50, 'Operação ' || n,
           CASE WHEN n % 3 = 0 THEN NULL ELSE ids.a[1 + (n * 7) % ${STUDENTS}] END,
           ids.a[1 + (n * 13 + 1) % ${STUDENTS}],
           CASE WHEN n % 3 = 0 THEN 'admin' ELSE 'student' END, 'Bench',
           now() - make_interval(secs => (n::double precision / ${ROWS}) * 30 * 86400)
      FROM generate_series(1, ${ROWS}) AS n, ids`);
  await db.execute(sql`ANALYZE`);
  const passwordHash = await hashPassword(PASSWORD);
  await db
    .update(students)
    .set({ passwordHash })
    .where(sql`${students.studentId} IN ('8000001', '8000002')`);
  const [recipient] = await db.select({ id: students.id }).from(students).where(eq(students.studentId, '8000002'));

  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: dataDir, DATABASE_URL: pg.url, API_RATE_LIMIT: '0' });
  const app = await buildApp({ ...config, webDist: undefined }, database);
  try {
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/student/login',
      payload: { studentId: '8000001', password: PASSWORD },
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const get = (url: string, etag?: string) =>
      app.inject({ method: 'GET', url, headers: { cookie, ...(etag ? { 'if-none-match': etag } : {}) } });
    const transfer = () =>
      app.inject({
        method: 'POST',
        url: '/api/meritus/transfers',
        headers: { cookie },
        payload: { recipientId: recipient!.id, amount: 1 },
      });

    const report = (label: string, samples: number[], extra = '') => {
      const at = (share: number) => samples[Math.min(samples.length - 1, Math.floor(samples.length * share))]!.toFixed(2);
      console.log(`  ${label.padEnd(46)} median ${at(0.5).padStart(7)} ms · p95 ${at(0.95).padStart(7)} ms${extra}`);
    };
    console.log('');
    for (const url of ['/api/ranking', '/api/ranking?around=me', '/api/me/summary']) {
      const started = performance.now();
      const first = await get(url);
      console.log(`${url}: first read ${(performance.now() - started).toFixed(1)} ms, ${first.statusCode}, ${first.body.length} bytes`);
      report('steady', await sortedDurations(RUNS, () => get(url)));
      const afterChange: number[] = [];
      for (let run = 0; run < 20; run++) {
        await transfer();
        const changed = performance.now();
        await get(url);
        afterChange.push(performance.now() - changed);
      }
      report(
        'right after a transfer',
        afterChange.sort((a, b) => a - b),
      );
      const held = (await get(url)).headers.etag as string | undefined;
      const revalidated = await get(url, held);
      report(
        'with If-None-Match of the answer held',
        await sortedDurations(RUNS, () => get(url, held)),
        ` (${revalidated.statusCode}, ${revalidated.body.length} bytes)`,
      );
    }
  } finally {
    await app.close();
  }
} finally {
  await database.close();
  await pg.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
