/**
 * npm run bench:reads — the screens' ledger reads with a million ledger rows.
 *
 * Fills a fresh PostgreSQL 15 with 2,000 students and 1,000,000 ledger rows spread
 * over a year, then times each read the screens make (median of 25 runs).
 */
import { sql } from 'drizzle-orm';
import { startPostgres } from '../src/server/test/postgres-server.ts';
import { openPostgres } from '../src/server/db/client.ts';
import { students } from '../src/server/db/schema.ts';
import {
  estelecasHistory,
  liveOperations,
  recentAdminMeritus,
  studentOperations,
} from '../src/server/modules/ledger/ledger-queries.service.ts';
import { createRankingStore } from '../src/server/modules/students/ranking-store.ts';
import { searchStudents } from '../src/server/modules/students/student-search.ts';
import { silentEvents } from '../src/server/realtime/event-bus.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const STUDENTS = 2000;

async function time(label: string, run: () => Promise<unknown>): Promise<void> {
  const samples: number[] = [];
  for (let i = 0; i < 25; i++) {
    const t0 = performance.now();
    await run();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  console.log(`  ${label.padEnd(48)} median ${samples[12]!.toFixed(1)} ms · max ${samples.at(-1)!.toFixed(1)} ms`);
}

const pg = await startPostgres({ durable: true });
const database = await openPostgres(pg.url, { max: 4 });
try {
  const { db } = database;
  console.log(`filling: ${STUDENTS} students, ${ROWS.toLocaleString('pt-BR')} ledger rows…`);
  const t0 = performance.now();
  await db.execute(sql`
    INSERT INTO students (student_id, name, turma_id, password_hash, meritus, total_earned, estelecas)
    SELECT (8000000 + n)::text, 'Estudante ' || n, (SELECT id FROM turmas WHERE name = '1º EM - Turma A'), 'x', 1000000, 1000000, 1000000
      FROM generate_series(1, ${STUDENTS}) AS n`);
  await db.execute(sql`
    WITH ids AS (SELECT array_agg(id) AS a FROM students)
    INSERT INTO ledger_entries (currency, type, amount, description, from_student_id, to_student_id, actor_kind, actor_name, created_at)
    SELECT CASE WHEN n % 5 = 0 THEN 'estelecas' ELSE 'meritus' END,
           CASE WHEN n % 3 = 0 THEN 'reward' ELSE 'transfer' END,
           1 + n % 50, 'Operação ' || n,
           CASE WHEN n % 3 = 0 THEN NULL ELSE ids.a[1 + (n * 7) % ${STUDENTS}] END,
           ids.a[1 + (n * 13 + 1) % ${STUDENTS}],
           CASE WHEN n % 3 = 0 THEN 'admin' ELSE 'student' END, 'Bench',
           now() - (n || ' seconds')::interval * 30
      FROM generate_series(1, ${ROWS}) AS n, ids`);
  await db.execute(sql`ANALYZE`);
  console.log(`filled in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  const [first] = await db.select({ id: students.id }).from(students).orderBy(students.studentId).limit(1);
  const viewer = first!.id;

  await time('student: last 5 Méritus operations', () => studentOperations(db, viewer, { currency: 'meritus', limit: 5 }));
  await time('student: Estelecas history (20)', () => studentOperations(db, viewer, { currency: 'estelecas', limit: 20 }));
  await time('student: all operations, page of 20', () => studentOperations(db, viewer, { limit: 20 }));
  await time('student: search "Operação 99"', () => studentOperations(db, viewer, { q: 'Operação 99', limit: 20 }));
  await time('admin: live feed (100)', () => liveOperations(db, { limit: 100 }));
  await time('admin: recent Méritus operations (10)', () => recentAdminMeritus(db, 10));
  await time('admin: Estelecas history (50)', () => estelecasHistory(db, 50));
  await time('admin: students list, first page (50) by name', () => searchStudents(db, { byEmail: true }, { page: 1, size: 50 }));
  // What an instance reads when it (re)builds its ranking; a read of the ranking itself comes from memory (bench/ranking-reads.ts).
  await time('ranking of 2,000 students, built whole', () => createRankingStore(db, silentEvents).current());
} finally {
  await database.close();
  await pg.stop();
}
