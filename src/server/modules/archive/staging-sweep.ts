import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { isPartialWrite } from '../../storage/file-storage.ts';
import { formatSize } from '../../../shared/format.ts';

/**
 * Uploads wait in staging files (archiveStagingDir) while they are checked, and are removed
 * whatever happens, unless the process dies first (kill -9, a power cut): then the file stays,
 * up to 50 MB each and 50 per request. So does a file the local storage was writing (its
 * `*.partial` beside the object). The sweep removes those leftovers at start and every hour.
 *
 * Every staging file's name starts with its process's mark, so a sweep never touches a file a
 * running upload of its own still uses. Another process's file is a leftover when the data
 * folder is this process's alone (the embedded database holds its lock, so no other server or
 * command uses it); when it is not (PostgreSQL, several instances sharing DATA_DIR), only once
 * it is older than any upload lasts. A partial write carries no mark: at start, before this
 * process writes anything, all of them go from a folder that is its alone; otherwise, and on
 * every later sweep, only the old ones.
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

type Leftovers = {
  /** Whether a file (by its name) may be a leftover at all. */
  candidate: (name: string) => boolean;
  /** Every candidate goes, however recent; otherwise only those older than STAGING_MAX_AGE_MS. */
  anyAge: boolean;
  recursive: boolean;
};

async function sweep(dir: string, leftovers: Leftovers, now: number): Promise<SweepResult> {
  const result: SweepResult = { removed: 0, bytes: 0 };
  let entries: Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true, recursive: leftovers.recursive });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return result;
    throw error;
  }
  for (const entry of entries) {
    if (!entry.isFile() || !leftovers.candidate(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    try {
      const stat = await fs.lstat(file);
      if (!leftovers.anyAge && now - stat.mtimeMs < STAGING_MAX_AGE_MS) continue;
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

/**
 * Removes the staging files under `dir` that no upload of this process uses: all of them when
 * `folderIsOurs`, otherwise those older than STAGING_MAX_AGE_MS.
 */
export function sweepStaging(dir: string, folderIsOurs: boolean, now = Date.now()): Promise<SweepResult> {
  return sweep(dir, { candidate: (name) => !name.startsWith(OWN_MARK), anyAge: folderIsOurs, recursive: false }, now);
}

/** Removes the local storage's partial writes under `root`: all of them when `anyAge` (no write under way), otherwise the old ones. */
export function sweepPartialWrites(root: string, anyAge: boolean, now = Date.now()): Promise<SweepResult> {
  return sweep(root, { candidate: isPartialWrite, anyAge, recursive: true }, now);
}

export type SweptFolders = {
  staging: string;
  /** The local storage's root; null with object storage (an S3 upload is invisible until complete). */
  uploads: string | null;
  /** The data folder is this process's alone (the embedded database's lock). */
  folderIsOurs: boolean;
};

/** Sweeps now (resolving once done, so a start begins clean), then every hour; the returned function stops the timer. */
export async function startStagingSweep(folders: SweptFolders, log: FastifyBaseLogger): Promise<() => void> {
  const run = async (starting: boolean) => {
    try {
      const staged = await sweepStaging(folders.staging, folders.folderIsOurs);
      const partial = folders.uploads
        ? await sweepPartialWrites(folders.uploads, starting && folders.folderIsOurs)
        : { removed: 0, bytes: 0 };
      const removed = staged.removed + partial.removed;
      const bytes = staged.bytes + partial.bytes;
      if (removed > 0)
        log.info({ ...folders, removed, bytes }, `${removed} arquivos de envios interrompidos removidos (${formatSize(bytes)})`);
    } catch (error) {
      log.warn({ err: error, ...folders }, 'limpeza dos arquivos de envios interrompidos falhou');
    }
  };
  await run(true);
  const timer = setInterval(() => void run(false), SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
