/**
 * npm run bench:bank — concurrent random transfers through HTTP against a real server.
 *
 * Starts PostgreSQL 15 in a temporary folder and the Méritus server on it, creates and
 * signs in students through the API, runs transfers for a fixed time, checks every
 * ledger invariant, then measures pgbench (tpcb-like, same client count) on the same
 * PostgreSQL and prints the ratio, with each side's CPU and WAL per operation (bytes, flushes
 * and the time of a flush). Then repeats the HTTP run on PGlite.
 *
 * Each server first runs WARM_UP_SECONDS of the same load, not counted, so JIT compilation
 * and the connections' plan caches do not weigh on the first round.
 *
 * Options (env): BENCH_STUDENTS (300), BENCH_CLIENTS (8), BENCH_SECONDS (15), BENCH_ROUNDS (3),
 * BENCH_PGLITE=off (PostgreSQL only), BENCH_PROFILE=1 (the PostgreSQL server runs with --cpu-prof
 * and the functions it spent the measured rounds in are printed, busiest first).
 */
import { spawnSync } from 'node:child_process';
import { Pool } from 'undici';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPostgres } from '../src/server/test/postgres-server.ts';
import { openPglite, openPostgres, rowsOf, type Database } from '../src/server/db/client.ts';
import { sql } from 'drizzle-orm';
import { reconcile, totalBalances } from '../src/server/modules/ledger/reconciliation.service.ts';
import { INITIAL, populate } from './bench-students.ts';
import { dispatchPost, median, percentile, startServer, stopServer } from './bench-server.ts';
import { loadConfig } from '../src/server/config.ts';
import { CLOCK_TICKS, cpuSecondsOf, postgresCpuSeconds, postmasterPid, procStat } from './cpu.ts';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 300);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARM_UP_SECONDS = 3;
const PROFILE_DIR = process.env.BENCH_PROFILE ? fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-prof-')) : undefined;

/** `span`: when the run started and ended on the monotonic clock, in µs (the clock CPU profiles use). */
type Result = {
  transfers: number;
  seconds: number;
  latencies: number[];
  refusals: Map<string, number>;
  errors: number;
  cpu: CpuUse;
  span: [number, number];
};

const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/** CPU seconds used during a run, by whom: the Méritus server, PostgreSQL (all its processes), this load generator. */
type CpuUse = Record<'server' | 'postgres' | 'client', number>;

/** Starts counting CPU; the returned function tells what each party used since. */
function startCpuCount(parties: { server?: number | undefined; postmaster?: number | undefined }): () => CpuUse {
  const read = (): CpuUse => {
    const usage = process.cpuUsage();
    return {
      server: parties.server ? cpuSecondsOf([parties.server]) : 0,
      postgres: parties.postmaster ? postgresCpuSeconds(parties.postmaster) : 0,
      client: (usage.user + usage.system) / 1e6 + childrenCpuSeconds(),
    };
  };
  const start = read();
  return () => {
    const end = read();
    return { server: end.server - start.server, postgres: end.postgres - start.postgres, client: end.client - start.client };
  };
}

/** CLIENTS loops, each sending one transfer at a time with a fresh idempotency key. */
async function runTransfers(
  url: string,
  people: { id: string; cookie: string }[],
  parties: Parameters<typeof startCpuCount>[0],
  seconds = SECONDS,
): Promise<Result> {
  const result: Result = {
    transfers: 0,
    seconds,
    latencies: [],
    refusals: new Map(),
    errors: 0,
    cpu: { server: 0, postgres: 0, client: 0 },
    span: [0, 0],
  };
  const pool = new Pool(url, { connections: CLIENTS });
  const cpuUsed = startCpuCount(parties);
  const from = monotonicMicros();
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < deadline) {
        const from = people[Math.floor(Math.random() * people.length)]!;
        let to = people[Math.floor(Math.random() * people.length)]!;
        if (to === from) to = people[(people.indexOf(from) + 1) % people.length]!;
        // Mostly affordable amounts, with some that exceed the sender's balance.
        const amount = Math.random() < 0.9 ? 1 + Math.floor(Math.random() * 50) : 500 + Math.floor(Math.random() * 2000);
        const t0 = performance.now();
        const response = await dispatchPost(pool, '/api/meritus/transfers', from.cookie, { recipientId: to.id, amount });
        result.latencies.push(performance.now() - t0);
        if (response.status === 201) {
          result.transfers += 1;
          continue;
        }
        const code = response.status === 400 ? (JSON.parse(response.body) as { error?: { code: string } }).error?.code : undefined;
        if (code) result.refusals.set(code, (result.refusals.get(code) ?? 0) + 1);
        else result.errors += 1;
      }
    }),
  );
  result.seconds = (performance.now() - started) / 1000;
  result.cpu = cpuUsed();
  result.span = [from, monotonicMicros()];
  await pool.close();
  return result;
}

function report(label: string, result: Result): number {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  const tps = result.transfers / result.seconds;
  const refusals = [...result.refusals].map(([code, n]) => `${code}=${n}`).join(', ') || 'none';
  console.log(
    `  ${label}: ${tps.toFixed(0)} transfers/s · p50 ${percentile(sorted, 50).toFixed(1)} ms · p95 ${percentile(sorted, 95).toFixed(1)} ms` +
      ` · p99 ${percentile(sorted, 99).toFixed(1)} ms · refusals: ${refusals} · other errors: ${result.errors}`,
  );
  const requests = result.latencies.length;
  const perRequest = (seconds: number) => `${((seconds / requests) * 1e6).toFixed(0)} µs`;
  const cores = (result.cpu.server + result.cpu.postgres + result.cpu.client) / result.seconds;
  console.log(
    `    CPU per request: server ${perRequest(result.cpu.server)} · PostgreSQL ${perRequest(result.cpu.postgres)}` +
      ` · load generator ${perRequest(result.cpu.client)} (${cores.toFixed(2)} of ${os.availableParallelism()} cores busy)`,
  );
  return tps;
}

type CpuProfile = {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
};

/** Where a function lives: its package, or its path in the project. */
function placeOf(url: string): string {
  const local = url.replace(/^file:\/\//, '').replace(`${process.cwd()}/`, '');
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(local);
  return inPackage ? `${inPackage[1]}/${inPackage[2]}` : local;
}

/**
 * Prints the functions the server spent the measured rounds in (self time of the samples
 * that fall in `spans`, idle excluded), busiest first, and the same time by package.
 */
function printProfile(dir: string, spans: [number, number][], count = 25): void {
  const file = fs.readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) {
    console.log('  no CPU profile was written');
    return;
  }
  const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let busy = 0;
  let time = profile.startTime;
  profile.samples.forEach((id, index) => {
    time += profile.timeDeltas[index] ?? 0;
    if (!spans.some(([from, to]) => time >= from && time <= to)) return;
    const frame = frames.get(id)!;
    if (frame.functionName === '(idle)') return;
    busy += 1;
    const place = frame.url ? placeOf(frame.url) : '';
    const name = `${frame.functionName || '(anonymous)'}${place ? ` ${place}:${frame.lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + 1);
    const area = place ? (/^((?:@[^/]+\/)?[^/]+)\//.exec(place)?.[1] ?? place) : frame.functionName;
    const owner = place.startsWith('src/') ? place : area;
    byPackage.set(owner, (byPackage.get(owner) ?? 0) + 1);
  });
  const top = (counts: Map<string, number>) =>
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, samples]) => `    ${((samples / busy) * 100).toFixed(1).padStart(5)}%  ${name}`)
      .join('\n');
  console.log(`  server CPU profile of the measured rounds (${busy} busy samples), self time by function:\n${top(byFunction)}`);
  console.log(`  by package or file:\n${top(byPackage)}`);
  console.log(
    '  (V8 samples on the clock, not on the CPU: the time the server is switched out inside a native call, right after a write wakes' +
      " PostgreSQL or the load generator, counts as 'writev'; `perf record -g` on a server started with --perf-basic-prof shows the CPU alone)",
  );
  console.log(`  whole profile (open it in Chrome DevTools' Performance panel): ${path.join(dir, file)}`);
}

async function checkInvariants(database: Database, expectedTotal: number): Promise<number> {
  const discrepancies = await reconcile(database.db);
  const total = await totalBalances(database.db);
  const violations = discrepancies.length + (total.meritus === expectedTotal ? 0 : 1);
  console.log(
    `  invariants: ${discrepancies.length} discrepancies, total Méritus ${total.meritus} (expected ${expectedTotal}) → ${violations} violations`,
  );
  return violations;
}

/** CPU seconds of this process's finished children (pgbench, run with spawnSync). */
function childrenCpuSeconds(): number {
  const fields = procStat(process.pid)!;
  return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
}

type WalUse = { bytes: number; fullPages: number; syncs: number; syncMs: number; commits: number };

/** The cluster's WAL written, full-page images, WAL flushes and commits so far (pg_stat_wal, pg_stat_database). */
async function walUse(database: Database): Promise<WalUse> {
  const [row] = rowsOf<{ bytes: string; full_pages: string; syncs: string; sync_ms: string; commits: string }>(
    await database.db.execute(
      sql`SELECT wal_bytes AS bytes, wal_fpi AS full_pages, wal_sync AS syncs, wal_sync_time AS sync_ms,
            (SELECT sum(xact_commit) FROM pg_stat_database) AS commits
          FROM pg_stat_wal`,
    ),
  );
  return {
    bytes: Number(row!.bytes),
    fullPages: Number(row!.full_pages),
    syncs: Number(row!.syncs),
    syncMs: Number(row!.sync_ms),
    commits: Number(row!.commits),
  };
}

/** WAL per operation between two readings: what each commit waits to flush. */
function walPer(before: WalUse, after: WalUse, operations: number): string {
  const per = (value: number) => (value / operations).toFixed(value / operations < 10 ? 2 : 0);
  const perFlush = (((after.syncMs - before.syncMs) / (after.syncs - before.syncs)) * 1000).toFixed(0);
  return (
    `WAL ${per(after.bytes - before.bytes)} B · ${per(after.fullPages - before.fullPages)} full pages · ${per(after.syncs - before.syncs)}` +
    ` flushes per operation, ${perFlush} µs per flush (${after.commits - before.commits} commits)`
  );
}

function pgbench(port: number, args: string[]): string {
  const result = spawnSync('pgbench', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`pgbench failed: ${result.stderr}`);
  return result.stdout;
}

async function benchPostgres(): Promise<{ ratio: number; violations: number }> {
  const pool = loadConfig(process.env).databasePoolSize;
  console.log(
    `\nPostgreSQL 15 — ${STUDENTS} students, ${CLIENTS} clients, ${ROUNDS} rounds of ${SECONDS} s;` +
      ` the server's pool: ${pool} connections (DATABASE_POOL_SIZE)`,
  );
  const pg = await startPostgres({ durable: true });
  try {
    const url = pg.url.replace(/\/postgres$/, '/meritus');
    spawnSync('psql', [pg.url, '-c', 'CREATE DATABASE meritus', '-c', 'CREATE DATABASE pgbench'], { encoding: 'utf8' });
    const server = await startServer({ DATABASE_URL: url }, PROFILE_DIR);
    let violations = 0;
    const ours: number[] = [];
    const spans: [number, number][] = [];
    const theirs: number[] = [];
    try {
      const people = await populate(server.url, STUDENTS, 9_000_000);
      const database = await openPostgres(url, { max: 2 });
      try {
        pgbench(pg.port, ['-i', '-q', '-s', '10', 'pgbench']);
        // Times each WAL flush, for both sides: a commit waits for its flush, so a slower flush is latency paid per operation.
        await database.db.execute(sql`ALTER SYSTEM SET track_wal_io_timing = on`);
        await database.db.execute(sql`SELECT pg_reload_conf()`);
        await runTransfers(server.url, people, {}, WARM_UP_SECONDS);
        const postmaster = postmasterPid(path.join(pg.dir, 'data'));
        for (let round = 1; round <= ROUNDS; round++) {
          const walBefore = await walUse(database);
          const result = await runTransfers(server.url, people, { server: server.child.pid, postmaster });
          const walAfter = await walUse(database);
          spans.push(result.span);
          ours.push(report(`round ${round} Méritus`, result));
          console.log(`    ${walPer(walBefore, walAfter, result.latencies.length)}`);
          const cpuUsed = startCpuCount({ postmaster });
          const out = pgbench(pg.port, ['-c', String(CLIENTS), '-j', '2', '-T', String(SECONDS), '-b', 'tpcb-like', 'pgbench']);
          const cpu = cpuUsed();
          const walAfterPgbench = await walUse(database);
          const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? 0);
          const transactions = Number(/processed: (\d+)/.exec(out)?.[1] ?? 0);
          theirs.push(tps);
          console.log(`  round ${round} pgbench tpcb-like: ${tps.toFixed(0)} TPS → ratio ${(ours.at(-1)! / tps).toFixed(2)}`);
          console.log(
            `    CPU per transaction: PostgreSQL ${((cpu.postgres / transactions) * 1e6).toFixed(0)} µs` +
              ` · pgbench ${((cpu.client / transactions) * 1e6).toFixed(0)} µs`,
          );
          console.log(`    ${walPer(walAfter, walAfterPgbench, transactions)}`);
        }
        violations = await checkInvariants(database, STUDENTS * INITIAL);
      } finally {
        await database.close();
      }
    } finally {
      await stopServer(server.child);
    }
    if (PROFILE_DIR) printProfile(PROFILE_DIR, spans);
    // Each round is compared with the pgbench round right after it, so a machine that
    // slows down or speeds up during the run weighs on both sides of every ratio.
    const ratio = median(ours.map((tps, round) => tps / theirs[round]!));
    console.log(
      `  medians: ${median(ours).toFixed(0)} transfers/s, ${median(theirs).toFixed(0)} pgbench TPS; median ratio ${ratio.toFixed(2)} (target ≥ 0.5)`,
    );
    return { ratio, violations };
  } finally {
    await pg.stop();
  }
}

async function benchPglite(): Promise<number> {
  console.log(`\nPGlite (embedded) — ${STUDENTS} students, ${CLIENTS} clients, ${ROUNDS} rounds of ${SECONDS} s`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-bench-'));
  try {
    const server = await startServer({ DATA_DIR: dataDir });
    const tps: number[] = [];
    try {
      const people = await populate(server.url, STUDENTS, 9_000_000);
      await runTransfers(server.url, people, {}, WARM_UP_SECONDS);
      for (let round = 1; round <= ROUNDS; round++) {
        tps.push(report(`round ${round} Méritus`, await runTransfers(server.url, people, { server: server.child.pid })));
      }
    } finally {
      await stopServer(server.child);
    }
    const database = await openPglite(dataDir);
    try {
      console.log(`  median: ${median(tps).toFixed(0)} transfers/s`);
      return await checkInvariants(database, STUDENTS * INITIAL);
    } finally {
      await database.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const pgResult = await benchPostgres();
const pgliteViolations = process.env.BENCH_PGLITE === 'off' ? 0 : await benchPglite();
const ok = pgResult.violations === 0 && pgliteViolations === 0;
console.log(`\n${ok ? 'OK' : 'FALHOU'}: ratio ${pgResult.ratio.toFixed(2)}, violations ${pgResult.violations + pgliteViolations}`);
process.exit(ok ? 0 : 1);
