import { randomBytes } from 'node:crypto';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { archiveFavourites, archiveImages } from '../../db/schema.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import { sharePagePath, type ArchiveItem } from '../../../shared/archive.ts';
import { urlOf } from '../../../shared/contract/route.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { foldText } from '../../../shared/student-match.ts';

export type ArchiveDeps = {
  db: Db;
  storage: FileStorage;
  events: EventBus;
  warn: (details: Record<string, unknown>, message: string) => void;
};
export type ImageRow = typeof archiveImages.$inferSelect;

export const VARIANTS = ['original', 'thumb', 'preview'] as const;
export type Variant = (typeof VARIANTS)[number];

export function storageKey(fileKey: string, variant: Variant): string {
  return `archive/${fileKey}/${variant === 'original' ? 'original' : `${variant}.webp`}`;
}

export function randomToken(): string {
  return randomBytes(24).toString('base64url');
}

/** What the search box matches: name, description, tags and uploader, folded (no accents, lower case). */
export function searchTextOf(row: Pick<ImageRow, 'fileName' | 'description' | 'tags' | 'uploaderName' | 'uploaderEmail'>): string {
  return foldText(
    [row.fileName, row.description, row.tags.join(' '), row.uploaderName ?? '', row.uploaderEmail ?? ''].join(' '),
  ).toLowerCase();
}

/** albumId as the spec derives it (name plus time, encoded, without + / =); the same name joins the album it already has. */
export async function albumIdFor(db: Db, albumName: string): Promise<string | null> {
  if (albumName === '') return null;
  const [existing] = await db
    .select({ albumId: archiveImages.albumId })
    .from(archiveImages)
    .where(eq(archiveImages.albumName, albumName))
    .limit(1);
  if (existing?.albumId) return existing.albumId;
  return Buffer.from(`${albumName}${Date.now()}`).toString('base64').replace(/[+/=]/g, '');
}

export function isShareable(row: Pick<ImageRow, 'accessLevel' | 'isActive'>): boolean {
  return row.accessLevel === 'public' && row.isActive;
}

/** Every column an item shows: the search text and content hash stay behind (on PGlite a page's time goes mostly into reading its rows). */
const { searchText, contentHash, ...itemFields } = getTableColumns(archiveImages);
type ItemRow = Omit<ImageRow, 'searchText' | 'contentHash'>;

export const itemColumns = (adminUuid: string) => ({
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

export function toItem(row: ItemRow, isFavourite: boolean): ArchiveItem {
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

/** Removes the stored objects of a record; a storage failure is logged and the caller goes on (spec §7). */
export async function removeObjects(deps: ArchiveDeps, row: Pick<ImageRow, 'id' | 'fileKey'>): Promise<void> {
  const results = await Promise.allSettled(VARIANTS.map((variant) => deps.storage.delete(storageKey(row.fileKey, variant))));
  const failed = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed.length > 0)
    deps.warn(
      { imageId: row.id, fileKey: row.fileKey, err: failed[0]!.reason },
      'archive file not removed from storage; the record goes anyway',
    );
}

/** Whether students may see the image: active, and public or restricted. */
export function visibleToStudents(row: Pick<ImageRow, 'isActive' | 'accessLevel'>): boolean {
  return row.isActive && (row.accessLevel === 'public' || row.accessLevel === 'restricted');
}
