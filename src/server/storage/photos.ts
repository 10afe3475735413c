import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { AppError } from '../app-error.ts';
import { PHOTO_MAX_BYTES, PHOTO_MAX_PIXELS } from '../../shared/constants.ts';
import { PHOTO_MAX_SIDE, PHOTO_THUMB_SIDE, sniffImageType, type PHOTO_TYPES } from '../../shared/admin-students.ts';
import type { FileStorage } from './file-storage.ts';
import { ARCHIVE_PHOTO_URL } from '../../shared/archive.ts';

type PhotoType = (typeof PHOTO_TYPES)[number];

const SHARP_FORMATS: Record<PhotoType, string> = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' };

/**
 * Checks an uploaded photo by its bytes and re-encodes it: oriented by its EXIF, at most
 * 512 px on its longest side, as WebP, with every piece of metadata (EXIF, GPS, ICC
 * comments) dropped; plus a 96 px square thumbnail. Animated GIFs keep their first frame.
 */
export async function encodePhoto(bytes: Buffer): Promise<{ photo: Buffer; thumb: Buffer }> {
  if (bytes.length > PHOTO_MAX_BYTES) throw new AppError('photo_too_large', { status: 413 });
  const type = sniffImageType(bytes);
  if (!type) throw new AppError('invalid_photo_type', { status: 415 });
  const source = () => sharp(bytes, { limitInputPixels: PHOTO_MAX_PIXELS, animated: false, failOn: 'error' }).rotate();
  try {
    // The header alone (no decoding), read without the limit so a canvas over it gets its own message.
    const metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (metadata.format !== SHARP_FORMATS[type]) throw new AppError('invalid_photo_type', { status: 415 });
    if ((metadata.width ?? 0) * (metadata.height ?? 0) > PHOTO_MAX_PIXELS) throw new AppError('photo_too_many_pixels', { status: 413 });
    const [photo, thumb] = await Promise.all([
      source()
        .resize({ width: PHOTO_MAX_SIDE, height: PHOTO_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 82 })
        .toBuffer(),
      source()
        .resize({ width: PHOTO_THUMB_SIDE, height: PHOTO_THUMB_SIDE, fit: 'cover', position: sharp.strategy.attention })
        .webp({ quality: 78 })
        .toBuffer(),
    ]);
    return { photo, thumb };
  } catch (error) {
    if (error instanceof AppError) throw error;
    // Bytes that start like an image but do not decode as one.
    throw new AppError('invalid_photo_type', { status: 415 });
  }
}

const STUDENT_PHOTO = /^\/uploads\/students\/[0-9a-f-]{36}\/[0-9a-f]{16}\.webp$/;

/** Stores a student's photo and its thumbnail; returns the photo's address. */
export async function storeStudentPhoto(storage: FileStorage, studentUuid: string, bytes: Buffer): Promise<string> {
  const { photo, thumb } = await encodePhoto(bytes);
  const name = randomBytes(8).toString('hex');
  const thumbAddress = await storage.put(`students/${studentUuid}/${name}.thumb.webp`, thumb);
  try {
    return await storage.put(`students/${studentUuid}/${name}.webp`, photo);
  } catch (error) {
    // A photo that could not be stored (a full disk) leaves no thumbnail behind.
    await storage.remove(thumbAddress);
    throw error;
  }
}

/** The thumbnail beside a stored student photo or an archive image's preview, or null for any other address. */
export function thumbnailOf(photoUrl: string): string | null {
  if (ARCHIVE_PHOTO_URL.test(photoUrl)) return photoUrl.replace(/\/preview$/, '/thumb');
  return STUDENT_PHOTO.test(photoUrl) ? photoUrl.replace(/\.webp$/, '.thumb.webp') : null;
}

/** True for a photo uploaded for a student (as opposed to an address typed or picked from the archive). */
export function isUploadedStudentPhoto(photoUrl: string | null): photoUrl is string {
  return photoUrl !== null && STUDENT_PHOTO.test(photoUrl);
}

/**
 * Deletes an uploaded student photo and its thumbnail. External addresses and shared
 * files (the image archive, demo avatars) are left alone.
 */
export async function removeStoredPhoto(storage: FileStorage, photoUrl: string | null): Promise<void> {
  if (!isUploadedStudentPhoto(photoUrl) || !storage.owns(photoUrl)) return;
  await Promise.all([storage.remove(photoUrl), storage.remove(photoUrl.replace(/\.webp$/, '.thumb.webp'))]);
}
