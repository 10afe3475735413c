/**
 * npm run bench:store — the Loja's purchases per second against transfers per second, in the same run, on PostgreSQL.
 *
 * Starts PostgreSQL 15 and the Méritus server on it (bench-server.ts, as bench:bank), creates and signs in students, and
 * an item of unlimited stock without a limit (every purchase takes the student's lock, the item's row, the order, the
 * ledger row). Each round runs BENCH_SECONDS of transfers, then as long of purchases, by the same clients, so a machine
 * that slows down weighs on both; the figure is the median of the rounds' ratios (target ≥ 0.8). Then checks that the
 * ledger reconciles and that every order has its ledger row.
 *
 * Options (env): BENCH_STUDENTS (300), BENCH_CLIENTS (8), BENCH_SECONDS (10), BENCH_ROUNDS (3).
 */
import { spawnSync } from 'node:child_process';
import { Pool } from 'undici';
import { sql } from 'drizzle-orm';
import { startPostgres } from '../src/server/test/postgres-server.ts';
import { openPostgres, rowsOf } from '../src/server/db/client.ts';
import { reconcile } from '../src/server/modules/ledger/reconciliation.service.ts';
import { ADMIN, cookieOf, INITIAL, populate, post, type BenchStudent } from './bench-students.ts';
import { dispatchPost, median, percentile, startServer, stopServer } from './bench-server.ts';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 300);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARM_UP_SECONDS = 3;

type Run = { done: number; seconds: number; latencies: number[]; refused: number };

/** CLIENTS loops for `seconds`, each sending one request at a time: `next` picks the student and the request. */
async function load(url: string, seconds: number, next: () => { cookie: string; path: string; body?: unknown }): Promise<Run> {
  const pool = new Pool(url, { connections: CLIENTS });
  const run: Run = { done: 0, seconds, latencies: [], refused: 0 };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < deadline) {
        const request = next();
        const t0 = performance.now();
        const response = await dispatchPost(pool, request.path, request.cookie, request.body);
        run.latencies.push(performance.now() - t0);
        if (response.status === 201) run.done += 1;
        else run.refused += 1;
      }
    }),
  );
  run.seconds = (performance.now() - started) / 1000;
  await pool.close();
  return run;
}

function describe(label: string, run: Run): number {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  const rate = run.done / run.seconds;
  console.log(
    `  ${label}: ${rate.toFixed(0)}/s · p50 ${percentile(sorted, 50).toFixed(1)} ms · p95 ${percentile(sorted, 95).toFixed(1)} ms` +
      ` · refused ${run.refused}`,
  );
  return rate;
}

const pick = (people: BenchStudent[]) => people[Math.floor(Math.random() * people.length)]!;

const transfers = (people: BenchStudent[]) => () => {
  const from = pick(people);
  let to = pick(people);
  if (to === from) to = people[(people.indexOf(from) + 1) % people.length]!;
  return { cookie: from.cookie, path: '/api/meritus/transfers', body: { recipientId: to.id, amount: 1 + Math.floor(Math.random() * 5) } };
};

const purchases = (people: BenchStudent[], itemId: string) => () => ({
  cookie: pick(people).cookie,
  path: `/api/store/items/${itemId}/orders`,
});

console.log(`\nPostgreSQL 15 — ${STUDENTS} students, ${CLIENTS} clients, ${ROUNDS} rounds of ${SECONDS} s of each`);
const pg = await startPostgres({ durable: true });
const outcome = { ok: false };
try {
  const url = pg.url.replace(/\/postgres$/, '/meritus');
  spawnSync('psql', [pg.url, '-c', 'CREATE DATABASE meritus'], { encoding: 'utf8' });
  const server = await startServer({ DATABASE_URL: url });
  try {
    const people = await populate(server.url, STUDENTS, 9_100_000);
    const admin = cookieOf(await post(`${server.url}/api/auth/admin/login`, undefined, ADMIN));
    const created = await post(`${server.url}/api/admin/store/items`, admin, {
      name: 'Adesivo do Méritus',
      price: 1,
      currency: 'meritus',
      category: 'material',
    });
    if (created.status !== 201) throw new Error(`create item: ${created.status} ${await created.text()}`);
    const { id: itemId } = (await created.json()) as { id: string };

    await load(server.url, WARM_UP_SECONDS, transfers(people));
    await load(server.url, WARM_UP_SECONDS, purchases(people, itemId));
    const ratios: number[] = [];
    const bought: number[] = [];
    const moved: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      moved.push(describe(`round ${round} transfers`, await load(server.url, SECONDS, transfers(people))));
      bought.push(describe(`round ${round} purchases`, await load(server.url, SECONDS, purchases(people, itemId))));
      ratios.push(bought.at(-1)! / moved.at(-1)!);
      console.log(`  round ${round} ratio ${ratios.at(-1)!.toFixed(2)}`);
    }
    const ratio = median(ratios);
    console.log(
      `  medians: ${median(bought).toFixed(0)} purchases/s, ${median(moved).toFixed(0)} transfers/s; median ratio ${ratio.toFixed(2)} (target ≥ 0.8)`,
    );

    const database = await openPostgres(url, { max: 2 });
    try {
      const discrepancies = await reconcile(database.db);
      const [orders] = rowsOf<{ orders: string; entries: string; total: string }>(
        await database.db.execute(sql`
          SELECT (SELECT count(*) FROM store_orders) AS orders, (SELECT count(*) FROM ledger_entries WHERE type = 'purchase') AS entries,
                 (SELECT sum(meritus) FROM students) AS total`),
      );
      const spent = Number(orders!.entries);
      console.log(
        `  ${orders!.orders} orders, ${spent} purchase rows; balances ${orders!.total} = ${STUDENTS * INITIAL} − ${spent} spent;` +
          ` reconciliation: ${discrepancies.length} discrepancies`,
      );
      outcome.ok = discrepancies.length === 0 && orders!.orders === orders!.entries && Number(orders!.total) === STUDENTS * INITIAL - spent;
    } finally {
      await database.close();
    }
    console.log(`\n${outcome.ok ? 'OK' : 'FALHOU'}: ratio ${ratio.toFixed(2)}`);
  } finally {
    await stopServer(server.child);
  }
} finally {
  await pg.stop();
}
process.exit(outcome.ok ? 0 : 1);
