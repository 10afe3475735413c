/**
 * npm run bench:school-day — a whole school online at once (issue 33).
 *
 * Builds a school (PostgreSQL 15 in a temporary folder: 2,000 students in 40 turmas; PGlite: 1,000 in 20), starts the
 * server as in production (rate limits on), signs users in and keeps their screens open with the web app's own code
 * run in Node (school-clients.ts: a query client per user, the app's reads, API client and live connection), then for
 * `--seconds` drives the day: 3 student transfers per second, 1 staff award per second (one in five to a whole turma),
 * a tag every 10 s and 5 sign-ins per second (each loading the dashboard), while a prober asks /api/health every 200 ms.
 *
 * Each user holds at most 6 connections (a browser on HTTP/1.1), its event stream's included. A request of the measured
 * window still unanswered at its end counts in the percentiles at its age then (a lower bound), so a backlog shows.
 *
 * Prints each route's p50/p95/p99 (reads and writes apart), the reads by cause (pushed events against first loads),
 * events and bytes per client per minute, the CPU of the server, PostgreSQL and this bench (% of one core), the load
 * average, and the targets met or missed. Exits 1 on errors (a 5xx, a user who cannot sign in), 0 otherwise.
 *
 * Options: --db postgres|pglite (postgres), --seconds N (60), --warm-up N (5, not counted), --students N, --turmas N,
 * --clients N (students with the app open: 400 on PostgreSQL, 190 on PGlite), --staff N (10), --port N (3300),
 * --rate-limit N (API_RATE_LIMIT, requests per user per minute; the server's default when not given).
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { API_RATE_LIMIT_DEFAULTS } from '../src/server/config.ts';
import { startPostgres, type PostgresServer } from '../src/server/test/postgres-server.ts';
import { TAG_KINDS } from '../src/shared/constants.ts';
import { routes } from '../src/shared/contract/routes.ts';
import { urlOf } from '../src/shared/contract/route.ts';
import { isApiError, isRefusal } from '../src/web/lib/api.ts';
import { invalidateReads } from '../src/web/lib/query-keys.ts';
import { applyOperationResult } from '../src/web/lib/student-queries.ts';
import { ADMIN } from './bench-students.ts';
import { cpuSecondsOf, postgresCpuSeconds, postmasterPid } from './cpu.ts';
import { startServer, stopServer } from './production-server.ts';
import { buildSchool, STAFF_PASSWORD, STUDENT_PASSWORD, type School } from './school-build.ts';
import { SimulatedUser, Stats, type Role } from './school-clients.ts';
import { SIGN_IN_SCREEN, STAFF_SCREENS, STUDENT_SCREENS } from './school-screens.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgres' },
    seconds: { type: 'string', default: '60' },
    'warm-up': { type: 'string', default: '5' },
    students: { type: 'string' },
    turmas: { type: 'string' },
    clients: { type: 'string' },
    staff: { type: 'string', default: '10' },
    port: { type: 'string', default: '3300' },
    'rate-limit': { type: 'string' },
  },
});
if (args.db !== 'postgres' && args.db !== 'pglite') throw new Error('--db postgres | pglite');
const ON_POSTGRES = args.db === 'postgres';
const SECONDS = Number(args.seconds);
const WARM_UP_SECONDS = Number(args['warm-up']);
const STUDENTS = Number(args.students ?? (ON_POSTGRES ? 2000 : 1000));
const TURMAS = Number(args.turmas ?? (ON_POSTGRES ? 40 : 20));
const STAFF = Number(args.staff);
const CLIENTS = Number(args.clients ?? (ON_POSTGRES ? 400 : 200 - STAFF));
const PORT = Number(args.port);
const RATE_LIMIT = Number(args['rate-limit'] ?? API_RATE_LIMIT_DEFAULTS.signedIn);
const RATES = { transfersPerSecond: 3, awardsPerSecond: 1, tagEveryMs: 10_000, signInsPerSecond: 5, healthEveryMs: 200 };
const TARGETS = { readP95: 100, writeP95: 150, healthP95: 20, serverCpu: 60 };
if (CLIENTS + 5 * SECONDS > STUDENTS) console.warn('(fewer students than open clients and arrivals: some sign in twice)');

const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(1);
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** Runs `work` on each item, `concurrency` at a time. */
async function eachLimited<T>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

type Database = { env: Record<string, string>; postmaster: () => number | undefined; stop: () => Promise<void> };

async function startDatabase(): Promise<Database> {
  if (!ON_POSTGRES) return { env: {}, postmaster: () => undefined, stop: async () => {} };
  const pg: PostgresServer = await startPostgres({ durable: true });
  spawnSync('psql', [pg.url, '-c', 'CREATE DATABASE meritus'], { encoding: 'utf8' });
  return {
    env: { DATABASE_URL: pg.url.replace(/\/postgres$/, '/meritus') },
    postmaster: () => postmasterPid(path.join(pg.dir, 'data')),
    stop: () => pg.stop(),
  };
}

/** Signs in and opens a screen for the first CLIENTS students and every staff member; screens spread evenly. */
async function openUsers(base: string, school: School, stats: Stats): Promise<SimulatedUser[]> {
  const plans = [
    ...school.staff.map((staff, i) => ({
      role: 'staff' as Role,
      login: { role: 'admin' as const, email: staff.email },
      screen: STAFF_SCREENS[i % 3]!,
    })),
    ...school.students.slice(0, CLIENTS).map((student, i) => ({
      role: 'student' as Role,
      login: { role: 'student' as const, studentId: student.studentId },
      screen: STUDENT_SCREENS[i % STUDENT_SCREENS.length]!,
    })),
  ];
  const users: SimulatedUser[] = [];
  await eachLimited(plans, 8, async (plan) => {
    const user = new SimulatedUser(base, plan.role, stats);
    await user.signIn(plan.login, plan.role === 'staff' ? STAFF_PASSWORD : STUDENT_PASSWORD);
    user.open(plan.screen);
    users.push(user);
    (screensOf.get(plan.screen.name) ?? screensOf.set(plan.screen.name, []).get(plan.screen.name)!).push(user);
  });
  await Promise.all(users.map((user) => user.loaded()));
  return users;
}

const screensOf = new Map<string, SimulatedUser[]>();

/** Runs `fire` `perSecond` times a second, evenly, until stopped; each firing runs on its own (an open loop). */
function every(ms: number, fire: () => Promise<unknown>, pending: Set<Promise<unknown>>): () => void {
  const timer = setInterval(() => {
    const running = fire().finally(() => pending.delete(running));
    pending.add(running);
  }, ms);
  return () => clearInterval(timer);
}

/** An error and, for a failed fetch, the reason undici gives (ECONNRESET, UND_ERR_CONNECT_TIMEOUT…). */
function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return `${String(error)}${cause ? ` (${cause.code ?? cause.message})` : ''}`;
}

/** A refusal is an answer (counted by route and status); anything else is an error. */
function unlessRefused(stats: Stats, what: string) {
  return (error: unknown) => {
    if (isRefusal(error) || stats.stopping) return;
    stats.errors.push(`${what}: ${describe(error)}`);
  };
}

function startLoad(base: string, school: School, users: SimulatedUser[], stats: Stats): { stop: (ms: number) => Promise<number> } {
  const pending = new Set<Promise<unknown>>();
  const staff = users.filter((user) => user.role === 'staff');
  const senders = screensOf.get('transfer') ?? users.filter((user) => user.role === 'student');
  let nextArrival = CLIENTS;
  const stops = [
    every(
      1000 / RATES.transfersPerSecond,
      async () => {
        const sender = pick(senders);
        const recipient = pick(school.students);
        await sender
          .write(
            (api) =>
              api.call(routes.ledger.meritusTransfer, {
                body: { recipientId: recipient.id, amount: 1 + Math.floor(Math.random() * 20), description: 'Valeu pela ajuda' },
                idempotencyKey: randomUUID(),
              }),
            (result) => applyOperationResult(sender.client, result),
          )
          .catch(unlessRefused(stats, 'transfer'));
      },
      pending,
    ),
    every(
      1000 / RATES.awardsPerSecond,
      async () => {
        const teacher = pick(staff);
        const input = { type: 'reward' as const, amount: 1 + Math.floor(Math.random() * 10), description: 'Participação em aula' };
        // What useAdminOperation does after a Méritus operation.
        const after = () => invalidateReads(teacher.client, [routes.students.ranking, routes.ledger.recentAdminMeritus]);
        const send =
          Math.random() < 0.2
            ? teacher.write(
                (api) =>
                  api.call(routes.ledger.bulkOperation, {
                    body: { currency: 'meritus', studentUuids: pick(school.turmas).studentIds, ...input },
                    idempotencyKey: randomUUID(),
                  }),
                after,
              )
            : teacher.write(
                (api) =>
                  api.call(routes.ledger.meritusAdminOperation, {
                    params: { id: pick(school.students).id },
                    body: input,
                    idempotencyKey: randomUUID(),
                  }),
                after,
              );
        await send.catch(unlessRefused(stats, 'award'));
      },
      pending,
    ),
    every(
      RATES.tagEveryMs,
      async () => {
        const teacher = pick(staff);
        await teacher
          .write(
            (api) => api.call(routes.tags.give, { params: { id: pick(school.students).id, kind: pick(TAG_KINDS) }, body: { days: 7 } }),
            () => invalidateReads(teacher.client, [routes.tags.active]),
          )
          .catch(unlessRefused(stats, 'tag'));
      },
      pending,
    ),
    every(
      1000 / RATES.signInsPerSecond,
      async () => {
        // A student arriving: signs in, the dashboard loads; then the tab is left (another student's takes its place).
        const student = school.students[nextArrival++ % school.students.length]!;
        const user = new SimulatedUser(base, 'arrival', stats);
        try {
          await user.signIn({ role: 'student', studentId: student.studentId }, STUDENT_PASSWORD);
        } catch (error) {
          if ((isApiError(error) && error.status === 429) || stats.stopping) return;
          stats.errors.push(`sign-in: ${describe(error)}`);
          return;
        }
        user.open(SIGN_IN_SCREEN, false);
        await user.loaded();
        user.close();
      },
      pending,
    ),
    every(
      RATES.healthEveryMs,
      async () => {
        const url = urlOf(routes.system.health);
        const sent = stats.begin('GET', url);
        try {
          const response = await fetch(`${base}${url}`);
          await response.arrayBuffer();
          stats.request(sent, response.status, 0, undefined);
        } catch (error) {
          stats.settle(sent);
          if (!stats.stopping) stats.errors.push(`health: ${describe(error)}`);
        }
      },
      pending,
    ),
  ];
  return {
    /** Stops firing, and waits for what is under way for at most `ms`; tells how many were still pending. */
    stop: async (ms: number) => {
      for (const stop of stops) stop();
      const waited = await Promise.race([
        Promise.allSettled([...pending]).then(() => 0),
        new Promise<number>((resolve) => setTimeout(() => resolve(pending.size), ms)),
      ]);
      return waited;
    },
  };
}

type Cpu = { server: number; postgres: number; bench: number };

function cpuNow(server: number, postmaster: number | undefined): Cpu {
  const own = process.cpuUsage();
  return {
    server: cpuSecondsOf([server]),
    postgres: postmaster ? postgresCpuSeconds(postmaster) : 0,
    bench: (own.user + own.system) / 1e6,
  };
}

function report(stats: Stats, cpu: Cpu, elapsed: number, users: SimulatedUser[]): string[] {
  const failed: string[] = [];
  const rows = [...stats.latencies].map(([id, samples]) => {
    const sorted = samples.sort((a, b) => a - b);
    return { id, count: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
  });
  const line = (row: (typeof rows)[number], target: number) => {
    const ok = row.p95 <= target;
    if (!ok) failed.push(`${row.id} p95 ${row.p95.toFixed(0)} ms > ${target} ms`);
    const refused = [...(stats.refusals.get(row.id) ?? [])].map(([status, n]) => `${status}×${n}`).join(' ');
    const unanswered = stats.unanswered.get(row.id);
    return (
      `  ${row.id.padEnd(44)} ${String(row.count).padStart(6)} ${row.p50.toFixed(1).padStart(8)} ${row.p95.toFixed(1).padStart(8)}` +
      ` ${row.p99.toFixed(1).padStart(8)}  ${ok ? 'ok' : 'FAIL'}${refused ? `  refused: ${refused}` : ''}` +
      `${unanswered ? `  (${unanswered} unanswered at the end, counted at their age)` : ''}`
    );
  };
  const health = urlOf(routes.system.health);
  const isHealth = (id: string) => id.endsWith(` ${health}`);
  const header = `  ${'route'.padEnd(44)} ${'count'.padStart(6)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'p99'.padStart(8)}  (ms)`;
  console.log(`\nreads (target p95 ≤ ${TARGETS.readP95} ms)\n${header}`);
  for (const row of rows.filter((row) => row.id.startsWith('GET ') && !isHealth(row.id))) console.log(line(row, TARGETS.readP95));
  console.log(`writes (target p95 ≤ ${TARGETS.writeP95} ms)\n${header}`);
  for (const row of rows.filter((row) => !row.id.startsWith('GET '))) console.log(line(row, TARGETS.writeP95));
  console.log(`health, a prober every ${RATES.healthEveryMs} ms (target p95 ≤ ${TARGETS.healthP95} ms)\n${header}`);
  for (const row of rows.filter((row) => isHealth(row.id))) console.log(line(row, TARGETS.healthP95));
  const onlyRefused = [...stats.refusals].filter(([id]) => !stats.latencies.has(id));
  for (const [id, byStatus] of onlyRefused) console.log(`  ${id}: only refusals, ${[...byStatus].map(([s, n]) => `${s}×${n}`).join(' ')}`);

  const perSecond = (n: number) => (n / elapsed).toFixed(1);
  const causes = [...stats.causes].sort((a, b) => b[1] - a[1]);
  const byEvents = causes.filter(([cause]) => cause.startsWith('event ')).reduce((sum, [, n]) => sum + n, 0);
  const answered = rows.filter((row) => row.id.startsWith('GET ') && !isHealth(row.id)).reduce((sum, row) => sum + row.count, 0);
  console.log(
    `\nreads started by the clients' queries: ${perSecond(byEvents)}/s caused by events · ${perSecond(stats.causes.get('first load') ?? 0)}/s` +
      ` first loads · ${perSecond(stats.causes.get('own write') ?? 0)}/s after the user's own write · ` +
      `${perSecond(stats.causes.get('poll or other') ?? 0)}/s polls and other`,
  );
  console.log(
    `  HTTP reads answered ${perSecond(answered)}/s; cancelled in flight by a newer read of the same query ${perSecond(stats.cancelled)}/s;` +
      ` requests whose connection failed (retried by the API client): ${stats.connectionFailures}`,
  );
  console.log(`  by cause: ${causes.map(([cause, n]) => `${cause} ${perSecond(n)}/s`).join(' · ')}`);

  const minutes = elapsed / 60;
  console.log('');
  for (const role of ['student', 'staff'] as const) {
    const count = users.filter((user) => user.role === role).length;
    const per = (n: number) => n / count / minutes;
    console.log(
      `per ${role} client per minute (${count} open): ${per(stats.events[role]).toFixed(1)} events` +
        ` (${(per(stats.eventBytes[role]) / 1024).toFixed(1)} KB) · ${(per(stats.responseBytes[role]) / 1024).toFixed(1)} KB of answers`,
    );
  }
  console.log(
    `arrivals (sign-in and dashboard): ${(stats.responseBytes.arrival / 1024 / minutes).toFixed(0)} KB of answers per minute in all`,
  );
  console.log(`  events by type: ${[...stats.eventTypes].map(([type, n]) => `${type} ${n}`).join(' · ')}`);

  const percent = (value: number) => `${((value / elapsed) * 100).toFixed(0)}%`;
  console.log(
    `\nCPU over the measured ${elapsed.toFixed(0)} s, % of one core: server ${percent(cpu.server)} · ` +
      `${ON_POSTGRES ? `PostgreSQL ${percent(cpu.postgres)} · ` : ''}this bench (all clients) ${percent(cpu.bench)} (${os.availableParallelism()} cores)`,
  );
  if (ON_POSTGRES && (cpu.server / elapsed) * 100 > TARGETS.serverCpu)
    failed.push(`server CPU ${percent(cpu.server)} > ${TARGETS.serverCpu}% of one core`);
  return failed;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-school-day-'));
const stats = new Stats();
let exitCode = 0;
const loadAtStart = loadAverage();
const database = await startDatabase();
try {
  const env = {
    ...database.env,
    DATA_DIR: path.join(work, 'data'),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    DEMO: 'off',
    API_RATE_LIMIT: String(RATE_LIMIT),
  };
  console.log(
    `School day on ${ON_POSTGRES ? 'PostgreSQL 15' : 'PGlite'}: ${STUDENTS} students in ${TURMAS} turmas; ${CLIENTS} students and ${STAFF}` +
      ` staff with the app open; ${WARM_UP_SECONDS} s warm-up, ${SECONDS} s measured; API_RATE_LIMIT ${RATE_LIMIT}/min per user`,
  );
  let started = performance.now();
  const school = await buildSchool({ ...process.env, ...env }, { students: STUDENTS, turmas: TURMAS, staff: STAFF });
  console.log(`school built in ${seconds(started)} s`);
  const server = await startServer(work, PORT, env);
  try {
    const base = `http://127.0.0.1:${PORT}`;
    started = performance.now();
    const users = await openUsers(base, school, stats);
    console.log(`${users.length} users signed in with their screens loaded in ${seconds(started)} s`);
    for (const [screen, open] of screensOf) console.log(`  ${screen}: ${open.length}`);
    const load = startLoad(base, school, users, stats);
    await new Promise((resolve) => setTimeout(resolve, WARM_UP_SECONDS * 1000));
    const loadAtRun = loadAverage();
    const cpuBefore = cpuNow(server.pid!, database.postmaster());
    stats.startWindow();
    const runStarted = performance.now();
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    stats.endWindow();
    const elapsed = (performance.now() - runStarted) / 1000;
    const cpuAfter = cpuNow(server.pid!, database.postmaster());
    const loadAtEnd = loadAverage();
    stats.stopping = true;
    const stillPending = await load.stop(10_000);
    for (const user of users) user.close();
    const cpu = {
      server: cpuAfter.server - cpuBefore.server,
      postgres: cpuAfter.postgres - cpuBefore.postgres,
      bench: cpuAfter.bench - cpuBefore.bench,
    };
    const failed = report(stats, cpu, elapsed, users);
    if (stillPending > 0) console.log(`\n${stillPending} writes, sign-ins or health probes were still unanswered 10 s after the run`);
    console.log(
      `\nload average (1, 5, 15 min): before the bench ${loadAtStart} · at the run's start ${loadAtRun} · at its end ${loadAtEnd}`,
    );
    console.log(failed.length === 0 ? 'targets: all met' : `targets missed:\n${failed.map((line) => `  ${line}`).join('\n')}`);
  } finally {
    await stopServer(server);
  }
} catch (error) {
  stats.errors.push(String(error instanceof Error ? `${error.stack ?? error.message}\n${String(error.cause ?? '')}` : error));
} finally {
  await database.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
if (stats.errors.length > 0) {
  exitCode = 1;
  const byMessage = new Map<string, number>();
  for (const error of stats.errors) byMessage.set(error, (byMessage.get(error) ?? 0) + 1);
  console.log(`\nERRORS (${stats.errors.length}):\n${[...byMessage].map(([error, n]) => `${n} × ${error}`).join('\n')}`);
}
process.exit(exitCode);
