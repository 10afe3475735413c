import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { archiveFavourites, archiveImages, students } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import type { AdminActor as Admin } from '../auth/actor.ts';
import {
  ARCHIVE_TEXTS,
  archiveBulkInput,
  archiveEditInput,
  mayChangeArchiveImage,
  sharePagePath,
  type ArchiveCounters,
  type ArchiveItem,
  type ArchiveSelectResult,
} from '../../../shared/archive.ts';
import type { z } from 'zod';
import { setStudentPhotoUrl } from '../students/student-photos.service.ts';
import { hasPermission, permissionsOf, type PermissionRules } from '../../../shared/permissions.ts';
import {
  albumIdFor,
  fileUrls,
  isShareable,
  randomToken,
  removeObjects,
  searchTextOf,
  visibleToStudents,
  type ArchiveDeps,
  type ImageRow,
} from './archive-rows.ts';
import { getImage } from './archive-listing.service.ts';

/** The share token after a change: kept while shareable, dropped when not (the link ends), a new one when shareable again. */
function nextShareToken(before: Pick<ImageRow, 'shareToken'>, after: Pick<ImageRow, 'accessLevel' | 'isActive'>): string | null {
  if (!isShareable(after)) return null;
  return before.shareToken ?? randomToken();
}

/** Refuses the whole change unless the member may change every one of these images (a teacher: only those they uploaded). */
function assertMayChange(admin: Admin, rules: PermissionRules, rows: readonly Pick<ImageRow, 'uploadedBy'>[]): void {
  const staff = { id: admin.id, permissions: permissionsOf(admin.staffRole, rules) };
  if (rows.some((row) => !mayChangeArchiveImage(staff, row.uploadedBy))) throw new AppError('archive_not_own_image');
}

export async function editImage(
  deps: ArchiveDeps,
  admin: Admin,
  rules: PermissionRules,
  id: string,
  input: z.output<typeof archiveEditInput>,
): Promise<{ message: string; item: ArchiveItem }> {
  const { db } = deps;
  const [before] = await db.select().from(archiveImages).where(eq(archiveImages.id, id));
  if (!before) throw new AppError('archive_image_not_found', { status: 404 });
  assertMayChange(admin, rules, [before]);
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

export async function deleteImage(deps: ArchiveDeps, admin: Admin, rules: PermissionRules, id: string): Promise<{ message: string }> {
  const rows = await deps.db.select().from(archiveImages).where(eq(archiveImages.id, id));
  if (rows.length === 0) throw new AppError('archive_image_not_found', { status: 404 });
  assertMayChange(admin, rules, rows);
  await deleteRows(deps, rows);
  return { message: ARCHIVE_TEXTS.deleted };
}

export async function bulkImages(
  deps: ArchiveDeps,
  admin: Admin,
  rules: PermissionRules,
  input: z.output<typeof archiveBulkInput>,
): Promise<{ message: string; count: number }> {
  const ids = [...new Set(input.ids)];
  // Who uploaded an image never changes, so the check holds for the writes below.
  const rows = await deps.db.select().from(archiveImages).where(inArray(archiveImages.id, ids));
  assertMayChange(admin, rules, rows);
  if (input.action === 'delete') {
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
  rules: PermissionRules,
  context: { ip: string },
): Promise<ArchiveSelectResult> {
  // Making the image a student's photo changes the student: the permission to manage students, not only the archive's.
  if (studentId && !hasPermission(admin.staffRole, rules, 'manageStudents')) throw new AppError('forbidden');
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

export async function revokeShareLink(db: Db, admin: Admin, rules: PermissionRules, id: string): Promise<{ message: string }> {
  const [row] = await db.select({ uploadedBy: archiveImages.uploadedBy }).from(archiveImages).where(eq(archiveImages.id, id));
  if (!row) throw new AppError('archive_image_not_found', { status: 404 });
  assertMayChange(admin, rules, [row]);
  await db.update(archiveImages).set({ shareToken: null }).where(eq(archiveImages.id, id));
  return { message: ARCHIVE_TEXTS.shareRevoked };
}

/** The image a share token names, while it is shareable. */
export async function sharedImage(db: Db, token: string): Promise<ImageRow | null> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return null;
  const [row] = await db.select().from(archiveImages).where(eq(archiveImages.shareToken, token));
  return row && isShareable(row) ? row : null;
}
