import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../../db/client.ts';
import { archiveImages, auditLog } from '../../db/schema.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { ArchiveMimeType } from '../../../shared/archive.ts';
import { formatSize } from '../../../shared/format.ts';
import { searchTextOf, storageKey } from './archive-rows.ts';
import { STRIPPED_TYPES, stripMetadata } from './strip-metadata.ts';
import { stagingFileName } from './staging-sweep.ts';

/**
 * Originals uploaded before metadata was removed on upload still carry it: a one-time run,
 * started by every instance at start-up, rewrites them (in the background: the server answers
 * meanwhile). One instance at a time runs it; the first to finish records its report in the
 * audit log, and later starts find the record and do nothing.
 */

export type StoredMetadataReport = {
  /** Stored originals of the types that can carry metadata, read. */
  checked: number;
  /** Rewritten without it (a HEIC or AVIF as a JPEG). */
  stripped: number;
  /** The rewritten files' sizes, before and after. */
  bytesBefore: number;
  bytesAfter: number;
  /** Originals that carry metadata but do not decode or are too large to: left as they were, for an administrator to look at. */
  failed: { id: string; fileName: string; code: string }[];
};

type RunDeps = { db: Db; storage: FileStorage; tmpDir: string };
type ImageRow = typeof archiveImages.$inferSelect;

/** The audit log's action that records the run as done. */
export const STORED_METADATA_DONE = 'archive.stored_metadata_stripped';
const PAGE = 100;

/** Rewrites one original if it carries metadata; its row's size, type and name follow in the same transaction. */
async function stripStored(deps: RunDeps, row: ImageRow, report: StoredMetadataReport): Promise<void> {
  const key = storageKey(row.fileKey, 'original');
  const local = path.join(deps.tmpDir, stagingFileName('stored'));
  try {
    const object = await deps.storage.read(key);
    // A record without its file is for the diagnostics' integrity check to report.
    if (!object) return;
    await pipeline(object.body, createWriteStream(local));
    report.checked += 1;
    const result = await stripMetadata(local, row.mimeType as ArchiveMimeType, row.fileName);
    if (result.status === 'failed') report.failed.push({ id: row.id, fileName: row.fileName, code: result.code });
    if (result.status !== 'stripped') return;
    try {
      const next = { fileSize: result.size, mimeType: result.mimeType, fileName: result.fileName };
      // The row is locked while its file is replaced: a file and a row that disagree are seen by no one, unless the process dies between the two.
      const replaced = await deps.db.transaction(async (tx) => {
        const [current] = await tx.select().from(archiveImages).where(eq(archiveImages.id, row.id)).for('update');
        // Deleted meanwhile, or rewritten by another instance (one whose lock was lost with its connection).
        if (!current || current.fileSize !== row.fileSize || current.mimeType !== row.mimeType) return false;
        await tx
          .update(archiveImages)
          .set({ ...next, searchText: searchTextOf({ ...current, ...next }) })
          .where(eq(archiveImages.id, row.id));
        await deps.storage.write(key, createReadStream(result.file), result.mimeType);
        return true;
      });
      if (!replaced) return;
      report.stripped += 1;
      report.bytesBefore += row.fileSize;
      report.bytesAfter += result.size;
    } finally {
      await fs.rm(result.file, { force: true });
    }
  } finally {
    await fs.rm(local, { force: true });
  }
}

/**
 * Rewrites every stored original that still carries location or personal metadata. The content
 * hash stays that of the bytes as uploaded (schema.ts), so the same photo sent again is still
 * found as a duplicate. Safe to run again (a rewritten file has nothing left to remove) and
 * while the server runs. `shouldStop` is asked between files.
 */
export async function stripStoredMetadata(
  deps: RunDeps,
  shouldStop: () => boolean = () => false,
): Promise<StoredMetadataReport & { stopped: boolean }> {
  const report: StoredMetadataReport = { checked: 0, stripped: 0, bytesBefore: 0, bytesAfter: 0, failed: [] };
  await fs.mkdir(deps.tmpDir, { recursive: true });
  let after: string | undefined;
  for (;;) {
    const rows = await deps.db
      .select()
      .from(archiveImages)
      .where(and(inArray(archiveImages.mimeType, [...STRIPPED_TYPES]), after ? gt(archiveImages.id, after) : undefined))
      .orderBy(asc(archiveImages.id))
      .limit(PAGE);
    for (const row of rows) {
      if (shouldStop()) return { ...report, stopped: true };
      await stripStored(deps, row, report);
    }
    if (rows.length < PAGE) return { ...report, stopped: false };
    after = rows.at(-1)!.id;
  }
}

type Log = Pick<FastifyBaseLogger, 'info' | 'warn'>;

/** The run, unless another instance is on it or it is recorded as done; its report, or null when it did not run to the end. */
export async function stripStoredMetadataOnce(
  database: Database,
  deps: Omit<RunDeps, 'db'>,
  log: Log,
  shouldStop: () => boolean = () => false,
): Promise<StoredMetadataReport | null> {
  const { db } = database;
  const ran = await database.runAlone('archiveStoredMetadata', async () => {
    const [done] = await db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.action, STORED_METADATA_DONE)).limit(1);
    if (done) return null;
    const { stopped, ...report } = await stripStoredMetadata({ db, ...deps }, shouldStop);
    if (stopped) return null;
    await recordAudit(db, { actor: { kind: 'system', label: 'Data-Base' }, action: STORED_METADATA_DONE, details: report });
    log.info(
      report,
      `Data-Base: localização e metadados removidos de ${report.stripped} das ${report.checked} imagens guardadas antes desta versão ` +
        `(${formatSize(report.bytesBefore)} → ${formatSize(report.bytesAfter)})`,
    );
    if (report.failed.length > 0) {
      log.warn(
        { failed: report.failed },
        `Data-Base: ${report.failed.length} imagens não puderam ser lidas (ou são grandes demais) para remover os metadados e continuam como estavam`,
      );
    }
    return report;
  });
  return ran ?? null;
}

/** Starts the run in the background; the returned function (for the shutdown) stops it after the file at hand: the next start begins it again. */
export function startStoredMetadataJob(database: Database, deps: Omit<RunDeps, 'db'>, log: FastifyBaseLogger): () => Promise<void> {
  let stopping = false;
  const running = stripStoredMetadataOnce(database, deps, log, () => stopping).catch((error: unknown) =>
    log.error({ err: error }, 'Data-Base: remoção de metadados das imagens guardadas interrompida; recomeça no próximo início'),
  );
  return async () => {
    stopping = true;
    await running;
  };
}
