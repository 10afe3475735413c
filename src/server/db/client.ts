import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export type Listener = (payload: string) => void;

/** The database plus what differs between PGlite and PostgreSQL. */
export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** LISTEN on a channel; returns an unsubscribe function. */
  listen(channel: string, listener: Listener): Promise<() => Promise<void>>;
  /**
   * Runs `work` while no other instance starting on this database can: the lock the
   * migrations take. First-start work (the demo school, the first administrator) runs
   * here, so instances started together create it exactly once.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
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

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export class DatabaseLockedError extends Error {}

/** The advisory lock under which instances starting together migrate and create the first data, one at a time. */
const STARTUP_LOCK_ID = 727374;

/**
 * PGlite is a single-process database: a second server on the same folder would
 * corrupt it. A lock file holding the owner's PID keeps the second one out.
 */
function acquireDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(lockPath, 'utf8'));
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new DatabaseLockedError(
          `O banco de dados em ${dataDir} já está em uso por outro servidor (PID ${owner}). ` +
            'Encerre-o antes de iniciar outro, ou use DATA_DIR para outra pasta ou DATABASE_URL para um PostgreSQL.',
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DatabaseLockedError(`Não foi possível obter o bloqueio de ${lockPath}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Embedded PostgreSQL in a folder, or in memory when `dataDir` is undefined (tests). */
export async function openPglite(dataDir: string | undefined): Promise<Database> {
  const release = dataDir ? acquireDataDirLock(dataDir) : () => {};
  try {
    const client = dataDir ? new PGlite(path.join(dataDir, 'pglite')) : new PGlite();
    await client.waitReady;
    const db = drizzlePglite({ client, schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder });
    preparedRunners.set(db, async (statement, values) => (await client.query(statement.text, values)).rows);
    return {
      db,
      kind: 'pglite',
      async listen(channel, listener) {
        const unsubscribe = await client.listen(channel, listener);
        return unsubscribe;
      },
      // The data folder's lock file already keeps every other server out.
      exclusive: (work) => work(),
      poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
      async close() {
        await client.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** A real PostgreSQL through a pg pool; migrations run under an advisory lock so instances can start together. */
export async function openPostgres(url: string, options: { max?: number } = {}): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 20 });
  // An idle client dropped by the server (restart, failover) must not crash the process;
  // the pool replaces it on the next checkout.
  let closing = false;
  pool.on('error', (error) => {
    if (!closing) console.warn(`PostgreSQL: conexão ociosa perdida (${error.message})`);
  });
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  /** A session-level advisory lock held on one connection while `work` runs on any of the pool's. */
  const exclusive = async <T>(work: (lockClient: pg.PoolClient) => Promise<T>): Promise<T> => {
    const lockClient = await pool.connect();
    try {
      await lockClient.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_ID]);
      return await work(lockClient);
    } finally {
      await lockClient.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK_ID]).catch(() => {});
      lockClient.release();
    }
  };
  await exclusive((lockClient) => migratePg(drizzlePg({ client: lockClient, schema }), { migrationsFolder }));
  preparedRunners.set(db, async (statement, values) => (await pool.query({ name: statement.name, text: statement.text, values })).rows);
  const listenClients = new Set<pg.Client>();
  return {
    db,
    kind: 'postgres',
    async listen(channel, listener) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      client.on('notification', (message) => {
        if (message.channel === channel) listener(message.payload ?? '');
      });
      client.on('error', () => {});
      await client.query(`LISTEN "${channel.replace(/"/g, '')}"`);
      listenClients.add(client);
      return async () => {
        listenClients.delete(client);
        await client.end().catch(() => {});
      };
    },
    exclusive: (work) => exclusive(() => work()),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      closing = true;
      await Promise.all([...listenClients].map((client) => client.end().catch(() => {})));
      await pool.end();
    },
  };
}

export async function openDatabase(config: { databaseUrl?: string | undefined; dataDir: string }): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(config.dataDir);
}

/** The rows of a raw `db.execute` result, which node-postgres and PGlite shape differently. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`SELECT 1`);
}
