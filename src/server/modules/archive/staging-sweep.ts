import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { formatSize } from '../../../shared/format.ts';

/**
 * Uploads wait in staging files (archiveStagingDir) while they are checked, and are removed
 * whatever happens, unless the process dies first (kill -9, a power cut): then the file stays,
 * up to 50 MB each and 50 per request. The sweep removes those leftovers at start and every hour.
 *
 * Every staging file's name starts with its process's mark, so a sweep never touches a file a
 * running upload of its own still uses. Another process's file is a leftover when the data
 * folder is this process's alone (the embedded database holds its lock, so no other server or
 * command uses it); when it is not (PostgreSQL, several instances sharing DATA_DIR), only once
 * it is older than any upload lasts.
 */

/** This process's mark on its staging files. */
const OWN_MARK = `${randomBytes(6).toString('hex')}-`;

/** No upload lasts this long between its file's last write and its end: another process's file this old is a leftover. */
export const STAGING_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** A new staging file's name, with this process's mark (e.g. `stagingFileName('upload')`). */
export function stagingFileName(extension: string): string {
  return `${OWN_MARK}${randomBytes(12).toString('hex')}.${extension}`;
}

export type SweepResult = { removed: number; bytes: number };

/**
 * Removes the staging files under `dir` that no upload of this process uses: all of them when
 * `folderIsOurs`, otherwise those older than STAGING_MAX_AGE_MS.
 */
export async function sweepStaging(dir: string, folderIsOurs: boolean, now = Date.now()): Promise<SweepResult> {
  const result: SweepResult = { removed: 0, bytes: 0 };
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return result;
    throw error;
  }
  for (const name of names) {
    if (name.startsWith(OWN_MARK)) continue;
    const file = path.join(dir, name);
    try {
      const stat = await fs.lstat(file);
      if (!stat.isFile() || (!folderIsOurs && now - stat.mtimeMs < STAGING_MAX_AGE_MS)) continue;
      await fs.rm(file, { force: true });
      result.removed += 1;
      result.bytes += stat.size;
    } catch (error) {
      // Removed meanwhile by its own upload's end.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return result;
}

/** Sweeps now (resolving once done, so a start begins clean), then every hour; the returned function stops the timer. */
export async function startStagingSweep(dir: string, folderIsOurs: boolean, log: FastifyBaseLogger): Promise<() => void> {
  const sweep = async () => {
    try {
      const { removed, bytes } = await sweepStaging(dir, folderIsOurs);
      if (removed > 0)
        log.info({ dir, removed, bytes }, `${removed} arquivos temporários de envios interrompidos removidos (${formatSize(bytes)})`);
    } catch (error) {
      log.warn({ err: error, dir }, 'limpeza dos arquivos temporários de envios falhou');
    }
  };
  await sweep();
  const timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
