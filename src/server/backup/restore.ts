import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openPglite, openPostgres, PGLITE_EXTENSIONS } from '../db/client.ts';
import { acquireDataDirLock } from '../db/data-dir-lock.ts';
import { archiveMigrationLevel, BackupError, restoreInto, verifyArchive, type Manifest } from './archive.ts';
import { connectPostgres, pgliteSqlClient, type SqlClient } from './sql-client.ts';

/** The embedded database of a data folder, or a PostgreSQL database. */
export type RestoreTarget = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };

export type RestoreOptions = {
  /** Where the archive's files go (the local storage's folder, DATA_DIR/uploads). */
  filesRoot: string;
  /** Erases a target that is not empty (the database's tables and data, and the files folder) before restoring. */
  force: boolean;
};

function hasEntries(dir: string): boolean {
  return fs.existsSync(dir) && fs.readdirSync(dir).length > 0;
}

const FORCE_HINT = 'Para apagar tudo o que há nele e restaurar a cópia no lugar, rode de novo com --force.';

/** The operator's message for a restore that failed once it had started: the cause, then what became of the target. */
function restoreFailed(error: unknown, target: string): BackupError {
  return new BackupError(`A restauração falhou (${error instanceof Error ? error.message : String(error)}). ${target}`);
}

/** Where an embedded restore is built, beside the folder it replaces (the same disk, so the swap is a rename). */
const STAGED = '.restaurando';
/** The replaced folder between the swap's two renames, removed right after. */
const REPLACED = '.substituido';

/** Puts `staged` where `target` is; a target the archive has nothing for (no files) is removed. */
function swapIn(target: string, staged: string): void {
  const replaced = `${target}${REPLACED}`;
  fs.rmSync(replaced, { recursive: true, force: true });
  if (fs.existsSync(target)) fs.renameSync(target, replaced);
  if (fs.existsSync(staged)) fs.renameSync(staged, target);
  fs.rmSync(replaced, { recursive: true, force: true });
}

/**
 * Restores into the data folder under its lock, once it is empty (or with force). The new database and files are
 * built beside the old ones and swapped in only when complete: a restore that fails or is stopped (even by kill -9)
 * leaves the school that was there as it was.
 */
async function restoreEmbedded(dataDir: string, file: string, manifest: Manifest, options: RestoreOptions): Promise<void> {
  const release = await acquireDataDirLock(dataDir);
  try {
    const databaseDir = path.join(dataDir, 'pglite');
    const occupied = [hasEntries(databaseDir) && databaseDir, hasEntries(options.filesRoot) && options.filesRoot].filter(Boolean);
    if (occupied.length > 0 && !options.force) {
      throw new BackupError(`O destino não está vazio: ${occupied.join(' e ')} já tem dados. ${FORCE_HINT}`);
    }
    const staged = { database: `${databaseDir}${STAGED}`, files: `${options.filesRoot}${STAGED}` };
    const removeStaged = () => {
      fs.rmSync(staged.database, { recursive: true, force: true });
      fs.rmSync(staged.files, { recursive: true, force: true });
    };
    // What a stopped restore left beside the target.
    removeStaged();
    const pglite = new PGlite(staged.database, { extensions: PGLITE_EXTENSIONS });
    const client = pgliteSqlClient(pglite);
    try {
      await pglite.waitReady;
      await restoreInto(client, file, manifest, staged.files);
    } catch (error) {
      await client.close().catch(() => undefined);
      removeStaged();
      throw restoreFailed(error, 'Nada foi alterado no destino: corrija a causa e rode de novo.');
    }
    await client.close();
    swapIn(databaseDir, staged.database);
    swapIn(options.filesRoot, staged.files);
  } finally {
    await release();
  }
}

/** How long a connection seen on the target may take to go away before it counts as another server's. */
const CLOSED_CLIENT_GRACE_MS = 1000;

/**
 * Connects to the PostgreSQL target once nobody else is connected (a running server would
 * write beside the restore) and it is empty: no table in `public`, no migration journal.
 * With force, the schemas `public` and `drizzle` are dropped with everything in them.
 */
async function openPostgresTarget(url: string, options: RestoreOptions): Promise<SqlClient> {
  const client = await connectPostgres(url);
  try {
    // Clients only: PostgreSQL's own workers (autovacuum analysing the tables a restore has just filled) are no server.
    const otherClients = async () =>
      (
        await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
        )
      )[0]!.n;
    // A client that has just closed its connection (a restore run right before) leaves the list a moment
    // after: a server's connections stay, so a short wait tells the two apart.
    const until = Date.now() + CLOSED_CLIENT_GRACE_MS;
    let others = await otherClients();
    while (others > 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      others = await otherClients();
    }
    if (others > 0) {
      throw new BackupError(
        `Há ${others} outra(s) conexão(ões) com o banco de destino: pare todos os servidores do Méritus que usam este DATABASE_URL antes de restaurar.`,
      );
    }
    const [contents] = await client.query<{ tables: number; journal: boolean }>(
      `SELECT (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')) AS tables,
              to_regnamespace('drizzle') IS NOT NULL AS journal`,
    );
    const occupied = [
      contents!.tables > 0 || contents!.journal ? `o banco de dados (${contents!.tables} objetos em public)` : '',
      hasEntries(options.filesRoot) ? options.filesRoot : '',
    ].filter(Boolean);
    if (occupied.length > 0 && !options.force)
      throw new BackupError(`O destino não está vazio: ${occupied.join(' e ')} já tem dados. ${FORCE_HINT}`);
    if (occupied.length > 0) {
      await client.query('DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public');
      fs.rmSync(options.filesRoot, { recursive: true, force: true });
    }
    return client;
  } catch (error) {
    await client.close();
    throw error;
  }
}

/**
 * `npm run restore`: checks the whole archive before touching anything, then restores it into
 * an empty target and finally opens it as the server does (the current migrations and living SQL).
 */
export async function restoreArchive(
  file: string,
  target: RestoreTarget,
  options: RestoreOptions,
): Promise<{ manifest: Manifest; ms: number }> {
  const started = performance.now();
  const manifest = await verifyArchive(file);
  archiveMigrationLevel(manifest);
  if (target.kind === 'pglite') {
    await restoreEmbedded(target.dataDir, file, manifest, options);
  } else {
    const client = await openPostgresTarget(target.url, options);
    try {
      await restoreInto(client, file, manifest, options.filesRoot);
    } catch (error) {
      throw restoreFailed(error, 'O destino pode ter ficado pela metade: corrija a causa e rode de novo com --force.');
    } finally {
      await client.close();
    }
  }
  const current = target.kind === 'pglite' ? await openPglite(target.dataDir) : await openPostgres(target.url, { max: 1 });
  await current.close();
  return { manifest, ms: performance.now() - started };
}
