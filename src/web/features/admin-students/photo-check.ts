import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { PHOTO_MAX_BYTES, PHOTO_URL_CHECK_MS } from '../../../shared/constants.ts';
import { isAcceptablePhotoUrl, PHOTO_EXTENSIONS, PHOTO_TYPES, sniffImageType } from '../../../shared/admin-students.ts';

/** What the file picker offers. */
export const PHOTO_ACCEPT = [...PHOTO_TYPES, ...PHOTO_EXTENSIONS.map((ext) => `.${ext}`)].join(',');

/**
 * The browser's check before sending a photo (the server checks again and decides):
 * the type by name and by the first bytes, then the size. Returns the message to show, or null.
 */
export async function checkPhotoFile(file: File): Promise<string | null> {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  const declared = (PHOTO_TYPES as readonly string[]).includes(file.type) || (PHOTO_EXTENSIONS as readonly string[]).includes(extension);
  if (!declared) return ERROR_MESSAGES.invalid_photo_type;
  if (file.size > PHOTO_MAX_BYTES) return ERROR_MESSAGES.photo_too_large;
  if (file.size === 0) return ERROR_MESSAGES.file_empty;
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  return sniffImageType(head) ? null : ERROR_MESSAGES.invalid_photo_type;
}

/**
 * A photo address must parse (https, or a file this server keeps) and load as an image
 * within 5 seconds.
 */
export function checkImageUrl(url: string, timeoutMs: number = PHOTO_URL_CHECK_MS): Promise<boolean> {
  const address = url.trim();
  if (!isAcceptablePhotoUrl(address)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const image = new Image();
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      image.onload = null;
      image.onerror = null;
      if (!ok) image.src = '';
      resolve(ok);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    image.onload = () => finish(image.naturalWidth > 0);
    image.onerror = () => finish(false);
    image.src = address;
  });
}
