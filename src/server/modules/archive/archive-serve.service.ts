import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { archiveImages } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import type { Principal } from '../auth/actor.ts';
import { storageKey, type ImageRow } from './archive-rows.ts';

const FILE_KEY = /^[A-Za-z0-9_-]{32}$/;

async function countDownload(db: Db, id: string): Promise<void> {
  await db
    .update(archiveImages)
    .set({ downloadCount: sql`${archiveImages.downloadCount} + 1`, lastAccessedAt: new Date() })
    .where(eq(archiveImages.id, id));
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
