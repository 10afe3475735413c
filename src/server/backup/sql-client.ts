import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { PGLITE_EXTENSIONS, type Database } from '../db/client.ts';
import { acquireDataDirLock } from '../db/data-dir-lock.ts';

export type Query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;

/**
 * One plain connection to either database, without the server's start-up work: a backup must
 * not migrate the database it copies, and a restore migrates only to the archive's level.
 */
export type SqlClient = {
  kind: 'pglite' | 'postgres';
  query: Query;
  /** Runs `work` in one transaction (on PGlite, no other query of the process runs meanwhile). */
  transaction<T>(work: (query: Query) => Promise<T>): Promise<T>;
  /** Applies the migrations of `folder` (a drizzle migrations folder) not yet applied. */
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
};

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'db', 'migrations');

export type JournalEntry = { idx: number; when: number; tag: string };

/** The migrations this code knows, in order. */
export function migrationJournal(): JournalEntry[] {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: JournalEntry[] };
  return journal.entries;
}

/**
 * Applies the first `count` migrations only (those of an earlier release, or of the release
 * that made a backup): a migrations folder holding just them, since drizzle applies a folder whole.
 */
export async function migrateTo(client: SqlClient, count: number): Promise<void> {
  const entries = migrationJournal().slice(0, count);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-migrations-'));
  try {
    fs.mkdirSync(path.join(folder, 'meta'));
    fs.writeFileSync(path.join(folder, 'meta', '_journal.json'), JSON.stringify({ version: '7', dialect: 'postgresql', entries }));
    for (const entry of entries) fs.copyFileSync(path.join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
    await client.migrate(folder);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

export async function connectPostgres(url: string): Promise<SqlClient> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const query: Query = async (text, params) => (await client.query(text, params)).rows;
  return {
    kind: 'postgres',
    query,
    async transaction(work) {
      await client.query('BEGIN');
      try {
        const result = await work(query);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    },
    migrate: (folder) => migratePg(drizzlePg({ client }), { migrationsFolder: folder }),
    close: () => client.end(),
  };
}

/** An open PGlite; `release` runs after it is closed (the data folder's lock). */
export function pgliteSqlClient(client: PGlite, release: () => Promise<void> = async () => {}, ownsClient = true): SqlClient {
  return {
    kind: 'pglite',
    query: async (text, params) => (await client.query(text, params)).rows as never,
    transaction: (work) => client.transaction((tx) => work(async (text, params) => (await tx.query(text, params)).rows as never)),
    migrate: (folder) => migratePglite(drizzlePglite({ client }), { migrationsFolder: folder }),
    async close() {
      if (ownsClient) await client.close();
      await release();
    },
  };
}

/** The embedded database in DATA_DIR, held with the server's lock (so never while a server runs on it). */
export async function openPgliteFolder(dataDir: string): Promise<SqlClient> {
  const release = await acquireDataDirLock(dataDir);
  try {
    const client = new PGlite(path.join(dataDir, 'pglite'), { extensions: PGLITE_EXTENSIONS });
    await client.waitReady;
    return pgliteSqlClient(client, release);
  } catch (error) {
    await release();
    throw error;
  }
}

/** A second handle on a database the process already has open (tests; a server's own backup). */
export async function sqlClientOf(database: Database & { url?: string }): Promise<SqlClient> {
  if (database.kind === 'postgres') {
    if (!database.url) throw new Error('sqlClientOf needs the PostgreSQL URL');
    return connectPostgres(database.url);
  }
  return pgliteSqlClient((database.db as unknown as { $client: PGlite }).$client, undefined, false);
}
