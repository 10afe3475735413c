import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { pingDatabase, rowsOf, type Database, type Db } from '../../db/client.ts';
import { formatSize } from '../../../shared/format.ts';

/** The measurements the overview and the diagnostic both show, read the same way. */

const here = path.dirname(fileURLToPath(import.meta.url));
const JOURNAL = path.join(here, '../../db/migrations/meta/_journal.json');
const PACKAGE = path.join(here, '../../../../package.json');

/** Free space below either bound is a warning: the database and the uploads share the folder. */
const DISK_MIN_FREE_BYTES = 1024 ** 3;
const DISK_MIN_FREE_SHARE = 0.05;

export async function databaseRoundTrip(db: Db): Promise<number> {
  const started = performance.now();
  await db.execute(sql`SELECT 1`);
  return Math.round((performance.now() - started) * 100) / 100;
}

/** Migrations this build ships against those the database has applied (drizzle's own table). */
export async function migrationStatus(db: Db): Promise<{ ok: boolean; applied: number; expected: number; detail: string }> {
  const journal = JSON.parse(await fsp.readFile(JOURNAL, 'utf8')) as { entries: { tag: string; when: number }[] };
  const expected = journal.entries.length;
  const [row] = rowsOf<{ applied: string | number; latest: string | number | null }>(
    await db.execute(sql`SELECT count(*) AS applied, max(created_at) AS latest FROM drizzle.__drizzle_migrations`),
  );
  const applied = Number(row?.applied ?? 0);
  const latestShipped = journal.entries.at(-1);
  const current = applied === expected && Number(row?.latest ?? 0) === (latestShipped?.when ?? 0);
  const detail = current
    ? `${applied} de ${expected} migrações aplicadas (última: ${latestShipped?.tag ?? '—'})`
    : `${applied} migrações aplicadas; esta versão traz ${expected} (última: ${latestShipped?.tag ?? '—'})`;
  return { ok: current, applied, expected, detail };
}

export async function diskSpace(
  dir: string,
): Promise<{ ok: boolean; freeBytes: number | null; totalBytes: number | null; path: string; detail: string }> {
  try {
    const stats = await fsp.statfs(dir);
    const freeBytes = stats.bavail * stats.bsize;
    const totalBytes = stats.blocks * stats.bsize;
    const ok = freeBytes >= DISK_MIN_FREE_BYTES && freeBytes >= totalBytes * DISK_MIN_FREE_SHARE;
    return { ok, freeBytes, totalBytes, path: dir, detail: `${formatSize(freeBytes)} livres de ${formatSize(totalBytes)}` };
  } catch (error) {
    return { ok: false, freeBytes: null, totalBytes: null, path: dir, detail: `Não foi possível ler o disco: ${(error as Error).message}` };
  }
}

/** Writes, reads back and removes a small file in the uploads folder. */
export async function storageWritable(uploadsDir: string): Promise<{ ok: boolean; detail: string }> {
  const probe = path.join(uploadsDir, `.probe-${randomBytes(6).toString('hex')}`);
  const content = randomBytes(16);
  try {
    await fsp.mkdir(uploadsDir, { recursive: true });
    await fsp.writeFile(probe, content);
    const read = await fsp.readFile(probe);
    if (!read.equals(content)) return { ok: false, detail: 'O arquivo de teste foi lido diferente do que foi gravado' };
    return { ok: true, detail: `Gravação e leitura em ${uploadsDir}` };
  } catch (error) {
    return { ok: false, detail: `Não foi possível gravar em ${uploadsDir}: ${(error as Error).message}` };
  } finally {
    await fsp.rm(probe, { force: true }).catch(() => {});
  }
}

export function appVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(PACKAGE, 'utf8')) as { version?: string }).version ?? 'desconhecida';
  } catch {
    return 'desconhecida';
  }
}

/** "PostgreSQL 15.8" or "PGlite (PostgreSQL 18.1)". */
export async function databaseVersion(database: Database): Promise<string> {
  const [row] = rowsOf<{ version: string }>(await database.db.execute(sql`SELECT current_setting('server_version') AS version`));
  const version = row?.version.split(' ')[0] ?? '?';
  return database.kind === 'pglite' ? `PGlite (PostgreSQL ${version})` : `PostgreSQL ${version}`;
}

/** How long a database that answered stays "up" for the health check while a new ping waits its turn. */
const PING_FRESH_MS = 2_000;

/**
 * The health check's question to the database, asked by one ping at a time. A probe answers at once while the last
 * ping succeeded less than PING_FRESH_MS ago (the next ping then runs for later probes): on a busy server the ping
 * waits for a connection like any request, and a monitor's probe should not. After a failed ping, or once the last
 * success is older, a probe waits for a new ping.
 */
export function databaseHealthCheck(db: Db): () => Promise<void> {
  let lastSuccess = Number.NEGATIVE_INFINITY;
  let lastFailed = false;
  let pinging: Promise<void> | undefined;
  const ping = () =>
    (pinging ??= pingDatabase(db)
      .then(
        () => {
          lastSuccess = performance.now();
          lastFailed = false;
        },
        (error: unknown) => {
          lastFailed = true;
          throw error;
        },
      )
      .finally(() => (pinging = undefined)));
  return async () => {
    const running = ping();
    if (!lastFailed && performance.now() - lastSuccess < PING_FRESH_MS) {
      running.catch(() => {});
      return;
    }
    await running;
  };
}
