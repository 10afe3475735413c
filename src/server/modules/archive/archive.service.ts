import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { and, asc, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { archiveFavourites, archiveImages, students } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import type { FileStorage, StoredObject } from '../../storage/file-storage.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import type { AdminActor as Admin, Principal } from '../auth/actor.ts';
import {
  ARCHIVE_TEXTS,
  archiveBulkInput,
  archiveEditInput,
  archiveListQuery,
  archiveUploadFields,
  kindOf,
  sharePagePath,
  type ArchiveCounters,
  type ArchiveFacets,
  type ArchiveItem,
  type ArchivePage,
  type ArchiveStats,
  type ArchiveSelectResult,
  type ArchiveUploadFileResult,
  type ArchiveUploadResult,
} from '../../../shared/archive.ts';
import { urlOf } from '../../../shared/contract/route.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { foldText } from '../../../shared/student-match.ts';
import { isStorableText, issueCode, issueFields } from '../../../shared/validation.ts';
import type { z } from 'zod';
import { bmpSize, makeVariants, sniffStaged, type StagedFile } from './archive-files.ts';
import { stripMetadata } from './strip-metadata.ts';
import { setStudentPhotoUrl } from '../students/admin-students.service.ts';

export type ArchiveDeps = {
  db: Db;
  storage: FileStorage;
  events: EventBus;
  warn: (details: Record<string, unknown>, message: string) => void;
};
type ImageRow = typeof archiveImages.$inferSelect;

export const VARIANTS = ['original', 'thumb', 'preview'] as const;
export type Variant = (typeof VARIANTS)[number];
const FILE_KEY = /^[A-Za-z0-9_-]{32}$/;

export function storageKey(fileKey: string, variant: Variant): string {
  return `archive/${fileKey}/${variant === 'original' ? 'original' : `${variant}.webp`}`;
}

function randomToken(): string {
  return randomBytes(24).toString('base64url');
}

/** What the search box matches: name, description, tags and uploader, folded (no accents, lower case). */
export function searchTextOf(row: Pick<ImageRow, 'fileName' | 'description' | 'tags' | 'uploaderName' | 'uploaderEmail'>): string {
  return foldText(
    [row.fileName, row.description, row.tags.join(' '), row.uploaderName ?? '', row.uploaderEmail ?? ''].join(' '),
  ).toLowerCase();
}

/** albumId as the spec derives it (name plus time, encoded, without + / =); the same name joins the album it already has. */
async function albumIdFor(db: Db, albumName: string): Promise<string | null> {
  if (albumName === '') return null;
  const [existing] = await db
    .select({ albumId: archiveImages.albumId })
    .from(archiveImages)
    .where(eq(archiveImages.albumName, albumName))
    .limit(1);
  if (existing?.albumId) return existing.albumId;
  return Buffer.from(`${albumName}${Date.now()}`).toString('base64').replace(/[+/=]/g, '');
}

function isShareable(row: Pick<ImageRow, 'accessLevel' | 'isActive'>): boolean {
  return row.accessLevel === 'public' && row.isActive;
}

/** Every column an item shows: the search text and content hash stay behind (on PGlite a page's time goes mostly into reading its rows). */
const { searchText, contentHash, ...itemFields } = getTableColumns(archiveImages);
type ItemRow = Omit<ImageRow, 'searchText' | 'contentHash'>;

const itemColumns = (adminUuid: string) => ({
  row: itemFields,
  isFavourite: sql<boolean>`EXISTS (SELECT 1 FROM ${archiveFavourites} f WHERE f.image_id = ${archiveImages.id} AND f.admin_id = ${adminUuid})`,
});

export function fileUrls(row: Pick<ImageRow, 'fileKey' | 'hasVariants'>) {
  const variantUrl = (variant: 'download' | 'thumb' | 'preview') =>
    urlOf(routes.archive.fileVariant, { params: { key: row.fileKey, variant } });
  return {
    fileUrl: urlOf(routes.archive.file, { params: { key: row.fileKey } }),
    downloadUrl: variantUrl('download'),
    thumbnailUrl: row.hasVariants ? variantUrl('thumb') : null,
    previewUrl: row.hasVariants ? variantUrl('preview') : null,
  };
}

function toItem(row: ItemRow, isFavourite: boolean): ArchiveItem {
  return {
    id: row.id,
    fileName: row.fileName,
    ...fileUrls(row),
    mimeType: row.mimeType,
    kind: row.kind,
    fileSize: row.fileSize,
    width: row.width,
    height: row.height,
    description: row.description,
    category: row.category as ArchiveItem['category'],
    tags: row.tags,
    albumId: row.albumId,
    albumName: row.albumName,
    accessLevel: row.accessLevel,
    isPublic: row.accessLevel === 'public',
    isActive: row.isActive,
    isFeatured: row.isFeatured,
    isFavourite,
    usageCount: row.usageCount,
    downloadCount: row.downloadCount,
    lastAccessedAt: row.lastAccessedAt?.toISOString() ?? null,
    uploader: { id: row.uploadedBy, name: row.uploaderName, email: row.uploaderEmail },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    shareUrl: isShareable(row) && row.shareToken ? sharePagePath(row.shareToken) : null,
  };
}

export async function getImage(db: Db, admin: Admin, id: string): Promise<ArchiveItem> {
  const [found] = await db.select(itemColumns(admin.id)).from(archiveImages).where(eq(archiveImages.id, id));
  if (!found) throw new AppError('archive_image_not_found', { status: 404 });
  return toItem(found.row, found.isFavourite);
}

type ListQuery = z.output<typeof archiveListQuery>;

const SORT_COLUMNS = {
  date: archiveImages.createdAt,
  name: archiveImages.fileName,
  size: archiveImages.fileSize,
  usage: archiveImages.usageCount,
  downloads: archiveImages.downloadCount,
} as const;

/** The cursor is the last row's sort value (as PostgreSQL writes it, so timestamps keep their microseconds) and id. */
function encodeCursor(value: string, id: string): string {
  return Buffer.from(JSON.stringify([value, id])).toString('base64url');
}

function decodeCursor(cursor: string): [string, string] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      parsed[0].length <= 300 &&
      typeof parsed[1] === 'string' &&
      /^[0-9a-f-]{36}$/.test(parsed[1])
    ) {
      return [parsed[0], parsed[1]];
    }
  } catch {
    // Falls through to the refusal.
  }
  throw new AppError('validation');
}

function filters(query: ListQuery, adminUuid: string): SQL[] {
  const conditions: SQL[] = [];
  if (query.q)
    conditions.push(
      sql`${archiveImages.searchText} LIKE ${`%${foldText(query.q)
        .toLowerCase()
        .replace(/[\\%_]/g, '\\$&')}%`}`,
    );
  if (query.featured !== undefined) conditions.push(eq(archiveImages.isFeatured, query.featured));
  if (query.public !== undefined)
    conditions.push(query.public ? eq(archiveImages.accessLevel, 'public') : sql`${archiveImages.accessLevel} <> 'public'`);
  if (query.active !== undefined) conditions.push(eq(archiveImages.isActive, query.active));
  if (query.category) conditions.push(eq(archiveImages.category, query.category));
  if (query.uploader) conditions.push(eq(archiveImages.uploadedBy, query.uploader));
  if (query.accessLevel) conditions.push(eq(archiveImages.accessLevel, query.accessLevel));
  if (query.kind) conditions.push(eq(archiveImages.kind, query.kind));
  if (query.albumId) conditions.push(eq(archiveImages.albumId, query.albumId));
  if (query.favourites !== undefined) {
    const exists = sql`EXISTS (SELECT 1 FROM ${archiveFavourites} f WHERE f.image_id = ${archiveImages.id} AND f.admin_id = ${adminUuid})`;
    conditions.push(query.favourites ? exists : sql`NOT ${exists}`);
  }
  return conditions;
}

/** A page of the archive, filtered and sorted in SQL (an index range per sort), with the count of every match on the first page. */
export async function listImages(db: Db, admin: Admin, query: ListQuery): Promise<ArchivePage> {
  const column = SORT_COLUMNS[query.sort];
  const conditions = filters(query, admin.id);
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const pageConditions = [...conditions];
  if (query.cursor) {
    const [value, id] = decodeCursor(query.cursor);
    const typed = query.sort === 'date' ? sql`${value}::timestamptz` : query.sort === 'name' ? sql`${value}` : sql`${value}::integer`;
    pageConditions.push(
      query.order === 'asc'
        ? sql`(${column}, ${archiveImages.id}) > (${typed}, ${id}::uuid)`
        : sql`(${column}, ${archiveImages.id}) < (${typed}, ${id}::uuid)`,
    );
  }
  const direction = query.order === 'asc' ? asc : desc;
  const [rows, [counted]] = await Promise.all([
    db
      .select({ ...itemColumns(admin.id), sortValue: sql<string>`${column}::text` })
      .from(archiveImages)
      .where(pageConditions.length > 0 ? and(...pageConditions) : undefined)
      .orderBy(direction(column), direction(archiveImages.id))
      .limit(query.limit + 1),
    query.cursor
      ? []
      : db
          .select({ total: sql<number>`count(*)::int` })
          .from(archiveImages)
          .where(where),
  ]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(({ row, isFavourite }) => toItem(row, isFavourite)),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last.sortValue, last.row.id) : null,
    total: query.cursor ? null : (counted?.total ?? 0),
  };
}

export async function archiveSummary(db: Db): Promise<{ stats: ArchiveStats; facets: ArchiveFacets }> {
  const [[stats], categories, uploaders, albums] = await Promise.all([
    db
      .select({
        total: sql<number>`count(*)::int`,
        active: sql<number>`count(*) FILTER (WHERE ${archiveImages.isActive})::int`,
        public: sql<number>`count(*) FILTER (WHERE ${archiveImages.accessLevel} = 'public')::int`,
        featured: sql<number>`count(*) FILTER (WHERE ${archiveImages.isFeatured})::int`,
        usage: sql<number>`coalesce(sum(${archiveImages.usageCount}), 0)::bigint`,
        downloads: sql<number>`coalesce(sum(${archiveImages.downloadCount}), 0)::bigint`,
        totalSize: sql<number>`coalesce(sum(${archiveImages.fileSize}), 0)::bigint`,
      })
      .from(archiveImages),
    db
      .select({ category: archiveImages.category, count: sql<number>`count(*)::int` })
      .from(archiveImages)
      .groupBy(archiveImages.category)
      .orderBy(archiveImages.category),
    db
      .select({
        id: archiveImages.uploadedBy,
        name: sql<string | null>`max(${archiveImages.uploaderName})`,
        email: sql<string | null>`max(${archiveImages.uploaderEmail})`,
        count: sql<number>`count(*)::int`,
      })
      .from(archiveImages)
      .groupBy(archiveImages.uploadedBy)
      .orderBy(desc(sql`count(*)`)),
    db
      .select({
        albumId: sql<string>`${archiveImages.albumId}`,
        albumName: sql<string>`max(${archiveImages.albumName})`,
        count: sql<number>`count(*)::int`,
      })
      .from(archiveImages)
      .where(sql`${archiveImages.albumId} IS NOT NULL`)
      .groupBy(archiveImages.albumId)
      .orderBy(sql`max(${archiveImages.albumName})`),
  ]);
  return {
    stats: {
      total: stats!.total,
      active: stats!.active,
      public: stats!.public,
      featured: stats!.featured,
      usage: Number(stats!.usage),
      downloads: Number(stats!.downloads),
      totalSize: Number(stats!.totalSize),
    },
    facets: { categories: categories as ArchiveFacets['categories'], uploaders, albums },
  };
}

/** The share token after a change: kept while shareable, dropped when not (the link ends), a new one when shareable again. */
function nextShareToken(before: Pick<ImageRow, 'shareToken'>, after: Pick<ImageRow, 'accessLevel' | 'isActive'>): string | null {
  if (!isShareable(after)) return null;
  return before.shareToken ?? randomToken();
}

export async function editImage(
  deps: ArchiveDeps,
  admin: Admin,
  id: string,
  input: z.output<typeof archiveEditInput>,
): Promise<{ message: string; item: ArchiveItem }> {
  const { db } = deps;
  const [before] = await db.select().from(archiveImages).where(eq(archiveImages.id, id));
  if (!before) throw new AppError('archive_image_not_found', { status: 404 });
  const accessLevel =
    input.accessLevel ??
    (input.isPublic === true ? 'public' : input.isPublic === false && before.accessLevel === 'public' ? 'private' : before.accessLevel);
  const isActive = input.isActive ?? before.isActive;
  const next = {
    description: input.description ?? before.description,
    category: input.category ?? before.category,
    tags: input.tags ?? before.tags,
    albumName: input.albumName === undefined ? before.albumName : input.albumName || null,
    albumId:
      input.albumName === undefined
        ? before.albumId
        : input.albumName === before.albumName
          ? before.albumId
          : await albumIdFor(db, input.albumName),
    accessLevel,
    isActive,
    isFeatured: input.isFeatured ?? before.isFeatured,
    shareToken: nextShareToken(before, { accessLevel, isActive }),
  };
  await db.transaction(async (tx) => {
    await tx
      .update(archiveImages)
      .set({ ...next, searchText: searchTextOf({ ...before, ...next }), updatedAt: new Date() })
      .where(eq(archiveImages.id, id));
    if (!visibleToStudents(next)) await releasePhotos(deps, tx, [before]);
  });
  return { message: ARCHIVE_TEXTS.updated, item: await getImage(db, admin, id) };
}

/** Removes the stored objects of a record; a storage failure is logged and the caller goes on (spec §7). */
async function removeObjects(deps: ArchiveDeps, row: Pick<ImageRow, 'id' | 'fileKey'>): Promise<void> {
  const results = await Promise.allSettled(VARIANTS.map((variant) => deps.storage.delete(storageKey(row.fileKey, variant))));
  const failed = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed.length > 0)
    deps.warn(
      { imageId: row.id, fileKey: row.fileKey, err: failed[0]!.reason },
      'archive file not removed from storage; the record goes anyway',
    );
}

/**
 * Students using one of these images as their photo fall back to the placeholder: the image is
 * going, or students may no longer see it (made private, admin-only or inactive).
 */
async function releasePhotos(
  deps: Pick<ArchiveDeps, 'events'>,
  tx: DbOrTx,
  rows: Pick<ImageRow, 'fileKey' | 'hasVariants'>[],
): Promise<void> {
  const photoUrls = rows.flatMap((row) => Object.values(fileUrls(row)).filter((url): url is string => url !== null));
  if (photoUrls.length === 0) return;
  const cleared = await tx
    .update(students)
    .set({ photoUrl: null, photoVersion: sql`${students.photoVersion} + 1`, updatedAt: new Date() })
    .where(inArray(students.photoUrl, photoUrls))
    .returning({ id: students.id });
  if (cleared.length > 0) await deps.events.publish(tx, { type: 'students' });
}

/** Whether students may see the image: active, and public or restricted. */
function visibleToStudents(row: Pick<ImageRow, 'isActive' | 'accessLevel'>): boolean {
  return row.isActive && (row.accessLevel === 'public' || row.accessLevel === 'restricted');
}

/** Deletes images: their files first (failures only warn), then the records; students using one as photo fall back to the placeholder. */
async function deleteRows(deps: ArchiveDeps, rows: ImageRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  for (const row of rows) await removeObjects(deps, row);
  await deps.db.transaction(async (tx) => {
    await releasePhotos(deps, tx, rows);
    await tx.delete(archiveImages).where(
      inArray(
        archiveImages.id,
        rows.map((row) => row.id),
      ),
    );
  });
  return rows.length;
}

export async function deleteImage(deps: ArchiveDeps, id: string): Promise<{ message: string }> {
  const rows = await deps.db.select().from(archiveImages).where(eq(archiveImages.id, id));
  if (rows.length === 0) throw new AppError('archive_image_not_found', { status: 404 });
  await deleteRows(deps, rows);
  return { message: ARCHIVE_TEXTS.deleted };
}

export async function bulkImages(deps: ArchiveDeps, input: z.output<typeof archiveBulkInput>): Promise<{ message: string; count: number }> {
  const ids = [...new Set(input.ids)];
  if (input.action === 'delete') {
    const rows = await deps.db.select().from(archiveImages).where(inArray(archiveImages.id, ids));
    const count = await deleteRows(deps, rows);
    return { message: ARCHIVE_TEXTS.bulkDeleted(count), count };
  }
  const now = new Date();
  let changed: { id: string }[];
  if (input.action === 'category') {
    changed = await deps.db
      .update(archiveImages)
      .set({ category: input.category, updatedAt: now })
      .where(inArray(archiveImages.id, ids))
      .returning({ id: archiveImages.id });
  } else if (input.action === 'accessLevel') {
    const { accessLevel } = input;
    const shareable = accessLevel === 'public';
    changed = await deps.db.transaction(async (tx) => {
      const rows = await tx
        .update(archiveImages)
        .set({
          accessLevel,
          // Leaving 'public' ends the share link; becoming public (and active) makes a new one.
          shareToken: shareable
            ? sql`CASE WHEN ${archiveImages.isActive}
                THEN coalesce(${archiveImages.shareToken}, replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')) END`
            : null,
          updatedAt: now,
        })
        .where(inArray(archiveImages.id, ids))
        .returning({
          id: archiveImages.id,
          fileKey: archiveImages.fileKey,
          hasVariants: archiveImages.hasVariants,
          isActive: archiveImages.isActive,
        });
      await releasePhotos(
        deps,
        tx,
        rows.filter((row) => !visibleToStudents({ ...row, accessLevel })),
      );
      return rows;
    });
  } else {
    const albumId = await albumIdFor(deps.db, input.albumName);
    changed = await deps.db
      .update(archiveImages)
      .set({ albumName: input.albumName || null, albumId, updatedAt: now })
      .where(inArray(archiveImages.id, ids))
      .returning({ id: archiveImages.id });
  }
  return { message: ARCHIVE_TEXTS.bulkUpdated(changed.length), count: changed.length };
}

export async function setFavourite(db: Db, admin: Admin, id: string, favourite: boolean): Promise<{ favourite: boolean; message: string }> {
  const [exists] = await db.select({ id: archiveImages.id }).from(archiveImages).where(eq(archiveImages.id, id));
  if (!exists) throw new AppError('archive_image_not_found', { status: 404 });
  if (favourite) await db.insert(archiveFavourites).values({ adminUuid: admin.id, imageId: id }).onConflictDoNothing();
  else await db.delete(archiveFavourites).where(and(eq(archiveFavourites.adminUuid, admin.id), eq(archiveFavourites.imageId, id)));
  return { favourite, message: favourite ? ARCHIVE_TEXTS.favouriteAdded : ARCHIVE_TEXTS.favouriteRemoved };
}

function countersOf(row: Pick<ImageRow, 'usageCount' | 'downloadCount' | 'lastAccessedAt'>): ArchiveCounters {
  return { usageCount: row.usageCount, downloadCount: row.downloadCount, lastAccessedAt: row.lastAccessedAt?.toISOString() ?? null };
}

/** usageCount + 1 and lastAccessedAt now, in one UPDATE (atomic under concurrency). */
export async function countUsage(db: Db, id: string): Promise<ArchiveCounters> {
  const [row] = await db
    .update(archiveImages)
    .set({ usageCount: sql`${archiveImages.usageCount} + 1`, lastAccessedAt: new Date() })
    .where(eq(archiveImages.id, id))
    .returning();
  if (!row) throw new AppError('archive_image_not_found', { status: 404 });
  return countersOf(row);
}

async function countDownload(db: Db, id: string): Promise<void> {
  await db
    .update(archiveImages)
    .set({ downloadCount: sql`${archiveImages.downloadCount} + 1`, lastAccessedAt: new Date() })
    .where(eq(archiveImages.id, id));
}

/** The address a student photo takes when picked from the archive: the image's preview. */
function photoUrlOf(row: Pick<ImageRow, 'fileKey' | 'hasVariants'>): string | null {
  return fileUrls(row).previewUrl;
}

/** An image that students may see as a photo: active, public or restricted, decoded. */
async function photoCandidate(db: Db, id: string): Promise<ImageRow> {
  const [row] = await db.select().from(archiveImages).where(eq(archiveImages.id, id));
  if (!row) throw new AppError('archive_image_not_found', { status: 404 });
  if (!row.hasVariants || !visibleToStudents(row)) {
    throw new AppError('archive_photo_unavailable', { status: 409 });
  }
  return row;
}

/**
 * 'Selecionar Imagem para Cadastro': counts a use of the image and answers the address to store as a photo (its
 * preview); with `studentId` that student's photo becomes the image at once (audited).
 */
export async function selectImage(
  deps: ArchiveDeps,
  admin: Admin,
  id: string,
  studentId: string | undefined,
  context: { ip: string },
): Promise<ArchiveSelectResult> {
  const row = await photoCandidate(deps.db, id);
  const photoUrl = photoUrlOf(row)!;
  const message = studentId ? (await setStudentPhotoUrl(deps, admin, studentId, photoUrl, context)).message : ARCHIVE_TEXTS.selected;
  return { photoUrl, message, ...(await countUsage(deps.db, row.id)) };
}

export async function createShareLink(db: Db, id: string): Promise<{ shareUrl: string; message: string }> {
  const [row] = await db.select().from(archiveImages).where(eq(archiveImages.id, id));
  if (!row) throw new AppError('archive_image_not_found', { status: 404 });
  if (!isShareable(row)) throw new AppError('archive_share_unavailable', { status: 409 });
  const token = row.shareToken ?? randomToken();
  if (!row.shareToken) await db.update(archiveImages).set({ shareToken: token }).where(eq(archiveImages.id, id));
  return { shareUrl: sharePagePath(token), message: ARCHIVE_TEXTS.shareCreated };
}

export async function revokeShareLink(db: Db, id: string): Promise<{ message: string }> {
  const [row] = await db
    .update(archiveImages)
    .set({ shareToken: null })
    .where(eq(archiveImages.id, id))
    .returning({ id: archiveImages.id });
  if (!row) throw new AppError('archive_image_not_found', { status: 404 });
  return { message: ARCHIVE_TEXTS.shareRevoked };
}

/** The image a share token names, while it is shareable. */
export async function sharedImage(db: Db, token: string): Promise<ImageRow | null> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return null;
  const [row] = await db.select().from(archiveImages).where(eq(archiveImages.shareToken, token));
  return row && isShareable(row) ? row : null;
}

type ServeDecision = { ok: true; row: ImageRow } | { ok: false; code: 'unauthenticated' | 'archive_image_not_found' };

/**
 * Whether a principal may fetch an image's file or variants: administrators always; others
 * only active images, public to anyone, restricted to anyone signed in. Private, admin-only
 * and inactive images answer 404 to everyone else, so their existence is not confirmed.
 */
async function decideServe(db: Db, fileKey: string, principal: Principal | null): Promise<ServeDecision> {
  if (!FILE_KEY.test(fileKey)) return { ok: false, code: 'archive_image_not_found' };
  const [row] = await db.select().from(archiveImages).where(eq(archiveImages.fileKey, fileKey));
  if (!row) return { ok: false, code: 'archive_image_not_found' };
  if (principal?.role === 'admin') return { ok: true, row };
  if (!row.isActive) return { ok: false, code: 'archive_image_not_found' };
  if (row.accessLevel === 'public') return { ok: true, row };
  if (row.accessLevel === 'restricted') return principal ? { ok: true, row } : { ok: false, code: 'unauthenticated' };
  return { ok: false, code: 'archive_image_not_found' };
}

const FILE_VARIANTS = ['thumb', 'preview', 'download'] as const;
type FileVariant = (typeof FILE_VARIANTS)[number];
const isFileVariant = (value: string): value is FileVariant => (FILE_VARIANTS as readonly string[]).includes(value);

/** What a file route sends: the stored object, its type, size and caching, and how the browser gets it. */
type FileToServe = {
  imageId: string;
  objectKey: string;
  contentType: string;
  size?: number;
  cacheControl: string;
  etag?: string;
  disposition: { type: 'attachment' | 'inline'; fileName: string };
};

/**
 * The file an address names (the original, or the thumb, preview or download variant), if this principal may fetch it
 * (decideServe); a download is counted. An unknown variant, or one the image has not, is a missing file (404).
 */
export async function fileToServe(db: Db, fileKey: string, variant: string | undefined, principal: Principal | null): Promise<FileToServe> {
  if (variant !== undefined && !isFileVariant(variant)) throw new AppError('archive_image_not_found', { status: 404 });
  const decision = await decideServe(db, fileKey, principal);
  if (!decision.ok) throw new AppError(decision.code, { status: decision.code === 'unauthenticated' ? 401 : 404 });
  const { row } = decision;
  const isVariant = variant === 'thumb' || variant === 'preview';
  if (isVariant && !row.hasVariants) throw new AppError('archive_image_not_found', { status: 404 });
  if (variant === 'download') await countDownload(db, row.id);
  // SVG is a document that can carry script: its original only ever leaves as a download.
  const attachment = variant === 'download' || (!isVariant && row.mimeType === 'image/svg+xml');
  return {
    imageId: row.id,
    objectKey: storageKey(row.fileKey, isVariant ? variant : 'original'),
    contentType: isVariant ? 'image/webp' : row.mimeType,
    ...(isVariant ? {} : { size: row.fileSize }),
    // Revalidated on every use, so a change of access level takes effect at once. The size is in the validator: the
    // one-time metadata removal (stored-metadata-job.ts) rewrites an original under its key.
    cacheControl: row.accessLevel === 'public' && row.isActive ? 'public, no-cache' : 'private, no-cache',
    ...(variant === 'download' ? {} : { etag: `"${row.fileKey}-${variant ?? 'original'}-${row.fileSize}"` }),
    disposition: {
      type: attachment ? 'attachment' : 'inline',
      fileName: isVariant ? `${path.parse(row.fileName).name}.webp` : row.fileName,
    },
  };
}

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
 * key, then their record. The staging files are removed whatever happens.
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
  for (const { fileName: rawName, staged } of files) {
    try {
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
      results.push(refused(rawName, 'archive_save_failed'));
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
  if (answer.uploaded === 0) throw new AppError('archive_upload_failed', { message: answer.message, details: answer });
  return answer;
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

export type ArchiveIntegrity = {
  /** Stored objects under archive/ that no record names. */
  orphanFiles: StoredObject[];
  /** Records whose original (or variants, when they should exist) is missing. */
  missingFiles: { id: string; fileName: string; key: string }[];
};

/** Files without records and records without files (for the diagnostics screen). */
export async function archiveIntegrity(db: Db, storage: FileStorage): Promise<ArchiveIntegrity> {
  const [objects, rows] = await Promise.all([
    storage.list('archive/'),
    db
      .select({
        id: archiveImages.id,
        fileName: archiveImages.fileName,
        fileKey: archiveImages.fileKey,
        hasVariants: archiveImages.hasVariants,
      })
      .from(archiveImages),
  ]);
  const stored = new Set(objects.map((object) => object.key));
  const expected = new Set<string>();
  const missingFiles: ArchiveIntegrity['missingFiles'] = [];
  for (const row of rows) {
    for (const variant of row.hasVariants ? VARIANTS : (['original'] as const)) {
      const key = storageKey(row.fileKey, variant);
      expected.add(key);
      if (!stored.has(key)) missingFiles.push({ id: row.id, fileName: row.fileName, key });
    }
  }
  return { orphanFiles: objects.filter((object) => !expected.has(object.key)), missingFiles };
}
