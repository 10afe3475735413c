import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema.ts';
import { livingSql } from './living-sql.ts';
import { sessionLockStatements, type AdvisoryLockName } from './advisory-locks.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export type Listener = (payload: string) => void;

/** What a LISTEN reports besides its messages; only PostgreSQL's connection can be lost (PGlite runs in-process). */
export type ListenEvents = {
  /** The connection was lost; a new one is being opened. */
  onLost?: (error: Error) => void;
  /** LISTEN holds again after a loss: notifications sent meanwhile never arrived. */
  onResumed?: () => void;
};

/** The database plus what differs between PGlite and PostgreSQL. */
export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** LISTEN on a channel, re-subscribing after a lost connection; returns an unsubscribe function. */
  listen(channel: string, listener: Listener, events?: ListenEvents): Promise<() => Promise<void>>;
  /**
   * Runs `work` while no other instance starting on this database can: the lock the
   * migrations take. First-start work (the demo school, the first administrator) runs
   * here, so instances started together create it exactly once.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` unless another instance is running work of the same name (then null, at once):
   * a lock held by a connection of its own, so it also ends if its process dies. A job every
   * instance starts, done once (PGlite has a single server: it just runs).
   */
  runAlone<T>(name: AdvisoryLockName, work: () => Promise<T>): Promise<T | null>;
  /** Numbers a metrics panel or health check may show. */
  poolStats(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
};

/** A statement on a hot path, with $1… parameters; `name` identifies it as a prepared statement. */
export type PreparedStatement = { name: string; text: string };
type PreparedRunner = (statement: PreparedStatement, values: unknown[]) => Promise<unknown[]>;

/** How each open database runs prepared statements (a drizzle database does not expose its driver's). */
const preparedRunners = new WeakMap<Db, PreparedRunner>();

/**
 * Runs one statement outside the query builder: on PostgreSQL as a named prepared statement,
 * parsed and planned once per connection; on PGlite, in the same process, as a plain query.
 */
export async function runPrepared<T>(db: Db, statement: PreparedStatement, values: unknown[]): Promise<T[]> {
  const run = preparedRunners.get(db);
  if (!run) throw new Error('runPrepared needs a database opened by openPglite or openPostgres');
  return (await run(statement, values)) as T[];
}

/** Whether `db` can run prepared statements: a database opened here, not a transaction on it. */
export function canRunPrepared(db: DbOrTx): boolean {
  return preparedRunners.has(db as Db);
}

/** Extensions the migrations create (pg_trgm: the archive's search index); every PGlite that opens Méritus's database loads them. */
export const PGLITE_EXTENSIONS = { pg_trgm };

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Embedded PostgreSQL in a folder, or in memory when `dataDir` is undefined (tests), then
 * started from `template`, a dumped data folder, when given: that skips initdb's seconds.
 */
export async function openPglite(dataDir: string | undefined, template?: Blob): Promise<Database> {
  const release = dataDir ? await acquireDataDirLock(dataDir) : async () => {};
  try {
    const client = dataDir
      ? new PGlite(path.join(dataDir, 'pglite'), { extensions: PGLITE_EXTENSIONS })
      : new PGlite({ extensions: PGLITE_EXTENSIONS, ...(template ? { loadDataDir: template } : {}) });
    await client.waitReady;
    const db = drizzlePglite({ client, schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder });
    await client.exec(livingSql());
    preparedRunners.set(db, async (statement, values) => (await client.query(statement.text, values)).rows);
    return {
      db,
      kind: 'pglite',
      async listen(channel, listener) {
        const unsubscribe = await client.listen(channel, listener);
        return unsubscribe;
      },
      // The data folder's lock already keeps every other process out.
      exclusive: (work) => work(),
      runAlone: (_name, work) => work(),
      poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
      async close() {
        await client.close();
        await release();
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}

/**
 * How long a request waits for a connection: a new one PostgreSQL does not accept (an unreachable host would
 * otherwise hold it for the system's TCP timeout, about two minutes), or a free one of a full pool. Past it the
 * request is answered 503 with Retry-After.
 */
const CONNECT_TIMEOUT_MS = 10_000;

/** A real PostgreSQL through a pg pool; migrations run under an advisory lock so instances can start together. */
export async function openPostgres(url: string, options: { max: number }): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: options.max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle client dropped by the server (restart, failover) must not crash the process;
  // the pool replaces it on the next checkout.
  let closing = false;
  pool.on('error', (error) => {
    if (!closing) console.warn(`PostgreSQL: conexão ociosa perdida (${error.message})`);
  });
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  /** A session-level advisory lock held on one connection while `work` runs on any of the pool's. */
  const exclusive = async <T>(work: (lockClient: pg.PoolClient) => Promise<T>): Promise<T> => {
    const startup = sessionLockStatements('startup');
    const lockClient = await pool.connect();
    try {
      await lockClient.query(startup.lock);
      return await work(lockClient);
    } finally {
      await lockClient.query(startup.unlock).catch(() => {});
      lockClient.release();
    }
  };
  await exclusive(async (lockClient) => {
    await migratePg(drizzlePg({ client: lockClient, schema }), { migrationsFolder });
    await lockClient.query(livingSql());
  });
  preparedRunners.set(db, async (statement, values) => (await pool.query({ name: statement.name, text: statement.text, values })).rows);
  const subscriptions = new Set<() => Promise<void>>();
  return {
    db,
    kind: 'postgres',
    async listen(channel, listener, events = {}) {
      const unsubscribe = await listenPostgres(url, channel, listener, events);
      subscriptions.add(unsubscribe);
      return async () => {
        subscriptions.delete(unsubscribe);
        await unsubscribe();
      };
    },
    exclusive: (work) => exclusive(() => work()),
    async runAlone(name, work) {
      // Outside the pool: the lock would hold one of its connections for as long as the work lasts.
      const lockClient = new pg.Client({ connectionString: url });
      // A lost connection only releases the lock: another instance may then start the same work, which must be safe to repeat.
      lockClient.on('error', () => {});
      await lockClient.connect();
      try {
        const { rows } = await lockClient.query<{ locked: boolean }>(sessionLockStatements(name).tryLock);
        return rows[0]?.locked ? await work() : null;
      } finally {
        await lockClient.end().catch(() => {});
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      closing = true;
      await Promise.all([...subscriptions].map((unsubscribe) => unsubscribe()));
      await pool.end();
    },
  };
}

/** Reconnection waits start at 250 ms and double up to 5 s. */
const LISTEN_RETRY_FIRST_MS = 250;
const LISTEN_RETRY_MAX_MS = 5_000;

/**
 * The wait before reconnection attempt `attempt` (0, 1, …): between half and all of its
 * doubling step, so instances that lost PostgreSQL together do not all knock at once.
 */
export function listenRetryDelay(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(LISTEN_RETRY_MAX_MS, LISTEN_RETRY_FIRST_MS * 2 ** attempt);
  return Math.round(step * (0.5 + random() / 2));
}

/**
 * LISTEN on a dedicated connection that outlives it: when PostgreSQL restarts or drops
 * it, a new one is opened with backoff and LISTENs again, and `onResumed` says that
 * notifications were missed meanwhile. The first connection must succeed (start-up fails
 * otherwise); TCP keep-alive lets a silently dead network path be noticed too.
 */
async function listenPostgres(url: string, channel: string, listener: Listener, events: ListenEvents): Promise<() => Promise<void>> {
  const statement = `LISTEN "${channel.replace(/"/g, '')}"`;
  let current: pg.Client | undefined;
  let live = false;
  let started = false;
  let stopped = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;

  /** Every sign of a loss ('error', 'end', a failed attempt) lands here; only the first for the current connection acts. */
  const lost = (client: pg.Client, error: Error) => {
    if (client !== current) return;
    current = undefined;
    void client.end().catch(() => {});
    if (live) {
      live = false;
      events.onLost?.(error);
    }
    if (started && !stopped) retry = setTimeout(() => void resubscribe(), listenRetryDelay(attempt++));
  };
  /** Opens a connection and LISTENs on it; rejects if either fails or the connection is lost meanwhile. */
  const subscribe = async () => {
    const client = new pg.Client({ connectionString: url, keepAlive: true });
    current = client;
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client, new Error('conexão LISTEN encerrada')));
    client.on('notification', (message) => {
      if (message.channel === channel) listener(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(statement);
    } catch (error) {
      lost(client, error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
    if (client !== current) throw new Error('conexão LISTEN perdida ao assinar');
    live = true;
  };
  const resubscribe = async () => {
    try {
      await subscribe();
    } catch {
      return; // lost() has already scheduled the next attempt
    }
    attempt = 0;
    events.onResumed?.();
  };

  await subscribe();
  started = true;
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = current;
    current = undefined;
    await client?.end().catch(() => {});
  };
}

export async function openDatabase(config: {
  databaseUrl?: string | undefined;
  databasePoolSize: number;
  dataDir: string;
}): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl, { max: config.databasePoolSize }) : openPglite(config.dataDir);
}

/** The rows of a raw `db.execute` result, which node-postgres and PGlite shape differently. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`SELECT 1`);
}
