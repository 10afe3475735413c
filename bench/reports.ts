/**
 * npm run bench:reports — the reports on a year of a large school.
 *
 * Fills a fresh PostgreSQL 15 (or an in-memory PGlite, BENCH_DB=pglite) with 2,000 students in the 12 turmas and 1,000,000 ledger rows
 * over the last 365 days (awards, removals and transfers of both currencies, 40 reasons), then
 * prints p50/p95 of each report call for the widest period (366 days, every turma, and one
 * turma), the same with year= and period= (a closed school year over those days, issue 38: reports, dashboard) and the ranking's board of
 * Méritus earned in it, and the time to build each export. Target: p95 ≤ 200 ms per report call.
 *
 * The ledger is filled by one INSERT, then its rows are folded into the report sums
 * (ledger_sums_fold, as the server does every second): the fill's time includes both.
 *
 * Options (env): BENCH_DB (postgres | pglite), BENCH_ROWS (1000000), BENCH_RUNS (20).
 */
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { startPostgres } from '../src/server/test/postgres-server.ts';
import { openPglite, openPostgres, rowsOf } from '../src/server/db/client.ts';
import { reportOverview, reportReasons, reportScope, reportTimeline } from '../src/server/modules/reports/reports.service.ts';
import { foldPendingSums } from '../src/server/modules/reports/reports.queries.ts';
import { createEarnedBoards } from '../src/server/modules/reports/earned-boards.ts';
import { exportReportTable } from '../src/server/modules/reports/report-exports.ts';
import { certificatePdf, statementPdf } from '../src/server/modules/reports/report-pdfs.ts';
import { reportQuery, REPORT_TABLES, EXPORT_FORMATS, addDays } from '../src/shared/reports.ts';
import { GRADES } from '../src/shared/constants.ts';
import { sortedDurations } from './timing.ts';
import { localFileStorage } from '../src/server/storage/file-storage.ts';
import { createSettingsStore } from '../src/server/modules/settings/settings.service.ts';
import { silentEvents } from '../src/server/realtime/event-bus.ts';
import { coordinatorActor } from '../src/server/modules/auth/actor.ts';
import { dashboardSummary } from '../src/server/modules/dashboard/dashboard.service.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const STUDENTS = 2000;
const ON_PGLITE = process.env.BENCH_DB === 'pglite';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function time(label: string, run: () => Promise<unknown>): Promise<void> {
  const samples = await sortedDurations(RUNS, run);
  const p95 = percentile(samples, 95);
  console.log(
    `  ${label.padEnd(44)} p50 ${percentile(samples, 50).toFixed(1).padStart(7)} ms` +
      ` · p95 ${p95.toFixed(1).padStart(7)} ms${p95 > 200 ? '  (acima de 200 ms)' : ''}`,
  );
}

async function once(label: string, run: () => Promise<{ body: string | Buffer }>): Promise<void> {
  const t0 = performance.now();
  const file = await run();
  console.log(
    `  ${label.padEnd(44)} ${(performance.now() - t0).toFixed(0).padStart(6)} ms · ${(Buffer.byteLength(file.body) / 1024).toFixed(1)} KB`,
  );
}

const pg = ON_PGLITE ? undefined : await startPostgres({ durable: true });
const database = pg ? await openPostgres(pg.url, { max: 4 }) : await openPglite(undefined);
try {
  const { db } = database;
  const settings = createSettingsStore(db, silentEvents);
  console.log(
    `${ON_PGLITE ? 'PGlite' : 'PostgreSQL'}: filling ${STUDENTS} students, ${ROWS.toLocaleString('pt-BR')} ledger rows over 365 days…`,
  );
  const t0 = performance.now();
  await db.execute(sql`
    INSERT INTO admins (admin_id, name, email, password_hash) VALUES ('bench', 'Coordenação', 'bench@escola.test', 'x')`);
  await db.execute(sql`
    INSERT INTO students (student_id, name, turma_id, password_hash, created_at)
    SELECT (8000000 + n)::text, 'Estudante ' || n, t.id, 'x', now() - interval '400 days'
      FROM generate_series(1, ${STUDENTS}) AS n
      JOIN turmas t ON t.name = (ARRAY[${sql.join(
        GRADES.map((grade) => sql`${grade}`),
        sql`, `,
      )}]::text[])[1 + n % 12]`);
  // Awards first in each student's history would be closer to life, but the reports only sum: any mix of types reads alike.
  await db.execute(sql`
    WITH ids AS (SELECT array_agg(id ORDER BY student_id) AS a FROM students)
    INSERT INTO ledger_entries (currency, type, amount, description, from_student_id, to_student_id, actor_kind, actor_name, created_at)
    SELECT CASE WHEN n % 5 = 0 THEN 'estelecas' ELSE 'meritus' END,
           kind, 1 + n % 50,
           CASE WHEN kind = 'transfer' THEN 'Ajuda' ELSE 'Motivo ' || (n % 40) END,
           CASE WHEN kind IN ('transfer', 'penalty', 'admin_remove') THEN ids.a[1 + (n * 7) % ${STUDENTS}] END,
           CASE WHEN kind IN ('transfer', 'reward', 'admin_add') THEN ids.a[1 + (n * 13 + 1) % ${STUDENTS}] END,
           CASE WHEN kind = 'transfer' THEN 'student' ELSE 'admin' END, 'Bench',
           now() - ((n::float8 / ${ROWS}) * interval '365 days')
      FROM generate_series(1, ${ROWS}) AS n, ids,
           LATERAL (SELECT CASE n % 10 WHEN 0 THEN 'penalty' WHEN 1 THEN 'admin_remove' WHEN 2 THEN 'admin_add'
                                       WHEN 3 THEN 'reward' WHEN 4 THEN 'reward' ELSE 'transfer' END AS kind) AS k`);
  await db.execute(sql`
    INSERT INTO student_tags (student_id, kind, expires_at) SELECT id, 'leader', now() + interval '7 days' FROM students ORDER BY student_id LIMIT 1`);
  const folding = performance.now();
  const folded = await foldPendingSums(db, { wait: true });
  console.log(`${folded.toLocaleString('pt-BR')} rows folded into the sums in ${((performance.now() - folding) / 1000).toFixed(1)} s`);
  await db.execute(sql`ANALYZE`);
  console.log(`filled in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

  const to = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
  const widest = reportQuery.parse({ period: 'custom', from: addDays(to, -365), to });
  const oneTurma = reportQuery.parse({ period: 'custom', from: addDays(to, -365), to, turma: GRADES[0] });
  const [first] = rowsOf<{ id: string; email: string }>(await db.execute(sql`SELECT id, email FROM admins LIMIT 1`));
  const admin = coordinatorActor({ id: first!.id, name: 'Coordenação', email: first!.email });

  console.log(`report calls, ${widest.from} to ${widest.to} (${RUNS} runs each):`);
  await time('overview (figures, turmas, saldos, risers)', async () => reportOverview(db, await reportScope({ db, settings }, widest)));
  await time('timeline (by week)', async () => reportTimeline(db, await reportScope({ db, settings }, widest)));
  await time('reasons', async () => reportReasons(db, await reportScope({ db, settings }, widest)));
  await time('overview, one turma', async () => reportOverview(db, await reportScope({ db, settings }, oneTurma)));
  await time('timeline, one turma', async () => reportTimeline(db, await reportScope({ db, settings }, oneTurma)));
  await time('reasons, one turma', async () => reportReasons(db, await reportScope({ db, settings }, oneTurma)));

  // Issue 38: the same year as a school year (closed: every student's turma of then kept, as a rollover leaves it), and
  // its bimestres, asked for with year= and period= (dateRangeOf), and the ranking's board of Méritus earned in it.
  const yearStart = addDays(to, -364);
  const [year] = rowsOf<{ id: string }>(
    await db.execute(sql`
      INSERT INTO school_years (name, start_date, end_date, period_kind) VALUES ('Ano letivo bench', ${yearStart}, ${addDays(to, 30)}, 'bimestre')
      RETURNING id`),
  );
  const periodIds = rowsOf<{ id: string }>(
    await db.execute(sql`
      INSERT INTO school_periods (year_id, position, start_date, end_date)
      SELECT ${year!.id}, n, ${yearStart}::date + (n - 1) * 99, CASE WHEN n = 4 THEN ${addDays(to, 30)}::date ELSE ${yearStart}::date + n * 99 - 1 END
        FROM generate_series(1, 4) AS n
      RETURNING id`),
  );
  await db.execute(sql`INSERT INTO student_year_turmas (year_id, student_id, turma_id) SELECT ${year!.id}, id, turma_id FROM students`);
  await db.execute(sql`ANALYZE`);
  const schoolYear = reportQuery.parse({ year: year!.id });
  const schoolYearTurma = reportQuery.parse({ year: year!.id, turma: GRADES[0] });
  const bimestre = reportQuery.parse({ period: periodIds[1]!.id });
  console.log(`\nyear filter (year=, period=; the year closed, turmas of then):`);
  await time('overview, year=', async () => reportOverview(db, await reportScope({ db, settings }, schoolYear)));
  await time('overview, year=, one turma', async () => reportOverview(db, await reportScope({ db, settings }, schoolYearTurma)));
  await time('timeline, year=', async () => reportTimeline(db, await reportScope({ db, settings }, schoolYear)));
  await time('overview, period= (a bimestre)', async () => reportOverview(db, await reportScope({ db, settings }, bimestre)));
  await time('ranking by=earned, year= (board read whole)', async () => {
    const boards = createEarnedBoards(db, silentEvents, settings);
    await boards.of({ year: year!.id });
    boards.close();
  });
  await time('dashboard, year=', () => dashboardSummary({ db, settings }, admin, { year: year!.id }));
  await time('dashboard, period= (a bimestre)', () => dashboardSummary({ db, settings }, admin, { period: periodIds[1]!.id }));
  await once('turmas.xlsx, year=', () => exportReportTable({ db, settings }, admin, { ...schoolYear, table: 'turmas', format: 'xlsx' }));

  console.log('\nexports (built once each):');
  for (const table of REPORT_TABLES) {
    for (const format of EXPORT_FORMATS)
      await once(`${table}.${format}`, () => exportReportTable({ db, settings }, admin, { ...widest, table, format }));
  }
  const [student] = rowsOf<{ id: string }>(await db.execute(sql`SELECT id FROM students ORDER BY student_id LIMIT 1`));
  await once('extrato (a year of one student)', () => statementPdf({ db, settings }, admin, { ...widest, student: student!.id }));
  const [tag] = rowsOf<{ id: string }>(await db.execute(sql`SELECT id FROM student_tags LIMIT 1`));
  await once('certificado', () =>
    certificatePdf({ db, settings, storage: localFileStorage(path.join(os.tmpdir(), 'bench-reports')) }, admin, tag!.id),
  );
} finally {
  await database.close();
  await pg?.stop();
}
