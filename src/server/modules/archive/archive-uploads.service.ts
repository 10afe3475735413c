import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { archiveImages } from '../../db/schema.ts';
import { AppError, isDiskFull } from '../../app-error.ts';
import type { AdminActor as Admin } from '../auth/actor.ts';
import {
  ARCHIVE_TEXTS,
  archiveUploadFields,
  kindOf,
  type ArchiveItem,
  type ArchiveUploadFileResult,
  type ArchiveUploadResult,
} from '../../../shared/archive.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { isStorableText, issueCode, issueFields } from '../../../shared/validation.ts';
import type { z } from 'zod';
import { bmpSize, makeVariants, sniffStaged, type StagedFile } from './archive-files.ts';
import { stripMetadata } from './strip-metadata.ts';
import {
  albumIdFor,
  itemColumns,
  randomToken,
  removeObjects,
  searchTextOf,
  storageKey,
  toItem,
  type ArchiveDeps,
  type ImageRow,
} from './archive-rows.ts';

export type IncomingFile = { fileName: string; staged: StagedFile };

function cleanFileName(raw: string): string | null {
  // Only the last part of a path some browsers send, without control characters.
  // eslint-disable-next-line no-control-regex -- control characters are what it removes
  const name = (raw.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
  // An emoji's surrogate pair is a character like any other; only a lone half cannot be stored.
  if (name === '' || name.length > 255 || !isStorableText(name)) return null;
  return name;
}

function refused(fileName: string, code: keyof typeof ERROR_MESSAGES): ArchiveUploadFileResult {
  return { ok: false, fileName: fileName.slice(0, 255), code, message: ERROR_MESSAGES[code] };
}

/**
 * Stores the staged files of one upload: duplicates (same SHA-256) answer with the record
 * already there; new ones get their original, thumbnail and preview stored under a random
 * key, then their record. The staging files are removed whatever happens. A full disk fails
 * that file (its objects removed, no record) and every file after it; those before it stay stored.
 */
export async function storeUploads(
  deps: ArchiveDeps,
  admin: Admin,
  files: IncomingFile[],
  fields: z.output<typeof archiveUploadFields>,
): Promise<ArchiveUploadFileResult[]> {
  const accessLevel = fields.accessLevel ?? (fields.isPublic === false ? 'private' : 'public');
  const albumId = await albumIdFor(deps.db, fields.albumName);
  const results: ArchiveUploadFileResult[] = [];
  let diskFull = false;
  for (const { fileName: rawName, staged } of files) {
    try {
      // Once the disk is full, the files after it would only fail the same way, slowly.
      if (diskFull) {
        results.push(refused(rawName || '?', 'storage_full'));
        continue;
      }
      const fileName = cleanFileName(rawName);
      if (!fileName) {
        results.push(refused(rawName || '?', 'archive_file_name_invalid'));
        continue;
      }
      const sniffed = await sniffStaged(staged, fileName);
      if (!sniffed.ok) {
        results.push(refused(fileName, sniffed.code));
        continue;
      }
      const existing = await findByHash(deps.db, admin, staged.sha256);
      if (existing) {
        results.push({ ok: true, fileName, duplicate: true, item: existing });
        continue;
      }
      results.push(await storeNew(deps, admin, { fileName, staged, mimeType: sniffed.mimeType, fields, accessLevel, albumId }));
    } catch (error) {
      deps.warn({ err: error, fileName: rawName }, 'archive upload not stored');
      diskFull = isDiskFull(error);
      results.push(refused(rawName, diskFull ? 'storage_full' : 'archive_save_failed'));
    } finally {
      await fs.rm(staged.path, { force: true });
    }
  }
  return results;
}

function uploadAnswer(results: ArchiveUploadFileResult[]): ArchiveUploadResult {
  const uploaded = results.filter((result) => result.ok).length;
  const failed = results.length - uploaded;
  const message = [uploaded > 0 ? ARCHIVE_TEXTS.uploaded(uploaded) : null, failed > 0 ? ARCHIVE_TEXTS.uploadErrors(failed) : null]
    .filter(Boolean)
    .join(' ');
  return { message, uploaded, failed, results };
}

/**
 * One upload as the route received it: the text fields are checked first (a refusal removes the staged files and
 * stores nothing), then every file is stored (storeUploads). Refused as a whole when no file was stored.
 */
export async function uploadImages(
  deps: ArchiveDeps,
  admin: Admin,
  files: IncomingFile[],
  fields: Record<string, string>,
): Promise<ArchiveUploadResult> {
  const parsed = archiveUploadFields.safeParse(fields);
  if (!parsed.success) {
    await Promise.all(files.map(({ staged }) => fs.rm(staged.path, { force: true })));
    throw new AppError(issueCode(parsed.error.issues[0]!), { fields: issueFields(parsed.error.issues) });
  }
  const answer = uploadAnswer(await storeUploads(deps, admin, files, parsed.data));
  if (answer.uploaded > 0) return answer;
  // Nothing stored because the disk is full: the server's failure (507), not the files'.
  if (answer.results.some((result) => !result.ok && result.code === 'storage_full'))
    throw new AppError('storage_full', { details: answer });
  throw new AppError('archive_upload_failed', { message: answer.message, details: answer });
}

async function findByHash(db: Db, admin: Admin, sha256: string): Promise<ArchiveItem | null> {
  const [found] = await db.select(itemColumns(admin.id)).from(archiveImages).where(eq(archiveImages.contentHash, sha256));
  return found ? toItem(found.row, found.isFavourite) : null;
}

async function storeNew(
  deps: ArchiveDeps,
  admin: Admin,
  file: {
    fileName: string;
    staged: StagedFile;
    mimeType: Parameters<typeof makeVariants>[1];
    fields: z.output<typeof archiveUploadFields>;
    accessLevel: ImageRow['accessLevel'];
    albumId: string | null;
  },
): Promise<ArchiveUploadFileResult> {
  const { staged, fields, accessLevel, albumId } = file;
  const stripped = await stripMetadata(staged.path, file.mimeType, file.fileName);
  if (stripped.status === 'failed') return refused(file.fileName, stripped.code);
  // What is stored: the image without its metadata (perhaps of another type), or the file as it came.
  const stored =
    stripped.status === 'stripped' ? stripped : { file: staged.path, size: staged.size, mimeType: file.mimeType, fileName: file.fileName };
  const { fileName, mimeType } = stored;
  const fileKey = randomToken().slice(0, 32);
  try {
    const variants = await makeVariants(stored.file, mimeType);
    const size = variants ?? (mimeType === 'image/bmp' ? await bmpSize(stored.file) : null);
    await deps.storage.write(storageKey(fileKey, 'original'), createReadStream(stored.file), mimeType);
    if (variants) {
      await deps.storage.put(storageKey(fileKey, 'thumb'), variants.thumb);
      await deps.storage.put(storageKey(fileKey, 'preview'), variants.preview);
    }
    const values = {
      fileKey,
      contentHash: staged.sha256,
      fileName,
      mimeType,
      kind: kindOf(mimeType),
      fileSize: stored.size,
      width: size?.width ?? null,
      height: size?.height ?? null,
      hasVariants: variants !== null,
      description: fields.description || ARCHIVE_TEXTS.defaultDescription(fileName),
      category: fields.category,
      tags: fields.tags,
      albumId,
      albumName: fields.albumName || null,
      accessLevel,
      isFeatured: fields.isFeatured,
      uploadedBy: admin.id,
      uploaderName: admin.name,
      uploaderEmail: admin.email,
      shareToken: accessLevel === 'public' ? randomToken() : null,
    };
    const [inserted] = await deps.db
      .insert(archiveImages)
      .values({ ...values, searchText: searchTextOf(values) })
      .onConflictDoNothing({ target: archiveImages.contentHash })
      .returning();
    if (!inserted) {
      // The same bytes arrived in another request meanwhile: that record stands, these objects go.
      await removeObjects(deps, { id: 'duplicate', fileKey });
      const existing = await findByHash(deps.db, admin, staged.sha256);
      if (existing) return { ok: true, fileName: file.fileName, duplicate: true, item: existing };
      throw new Error('duplicate record vanished');
    }
    return { ok: true, fileName: file.fileName, duplicate: false, item: toItem(inserted, false) };
  } catch (error) {
    await removeObjects(deps, { id: 'failed-upload', fileKey });
    throw error;
  } finally {
    if (stripped.status === 'stripped') await fs.rm(stripped.file, { force: true });
  }
}
