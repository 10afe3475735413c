import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import sharp, { type Metadata, type Sharp } from 'sharp';
import type { ArchiveMimeType } from '../../../shared/archive.ts';
import { ARCHIVE_MAX_PIXELS } from '../../../shared/constants.ts';
import { isDiskFull } from '../../app-error.ts';
import { opener } from './archive-files.ts';

/**
 * Location and personal metadata leave an image before its original is stored: EXIF (GPS,
 * camera serial, owner, dates), XMP, IPTC and PNG text. sharp rewrites the pixels without them
 * (orientation applied first); the ICC colour profile stays. Per type:
 *
 * - JPEG, PNG, WebP carrying any of it are re-encoded in their own type: JPEG at quality 92 with
 *   the source's chroma subsampling and scan mode (a 12 MP phone photo at about 94 comes out
 *   ~10% smaller, 44 dB PSNR; mozjpeg was 4× slower); PNG losslessly, palette and 16 bits kept;
 *   WebP lossless when it was (VP8L), else quality 90. Animated WebP keeps its frames, delays
 *   and loop (libvips cannot rotate several frames: an animation's orientation tag just goes).
 * - TIFF keeps camera and GPS tags among its own, which sharp does not list: every TIFF is
 *   rewritten (deflate, lossless, all pages).
 * - HEIC/HEIF (HEVC, which libvips can neither decode nor write) and AVIF (a minute per photo to
 *   encode on two cores) carrying metadata become a JPEG (a PNG when transparent): the name's
 *   extension follows.
 * - GIF (no EXIF; sharp re-quantises its colours), BMP (no metadata) and SVG (text, only ever
 *   sent as a download) are stored as they came.
 */

export type StripResult =
  /** Nothing to remove: the original is stored as it came. */
  | { status: 'clean' }
  /** The rewritten image, in `file` (the caller removes it). */
  | { status: 'stripped'; file: string; size: number; mimeType: ArchiveMimeType; fileName: string }
  /** It carries metadata (or cannot be read to tell) but does not decode, or is too large to: it cannot be rewritten. */
  | { status: 'failed'; code: 'archive_metadata_not_removed' | 'archive_metadata_too_many_pixels' };

const CONVERTED = new Set<ArchiveMimeType>(['image/heic', 'image/heif', 'image/avif']);
export const STRIPPED_TYPES: readonly ArchiveMimeType[] = ['image/jpeg', 'image/png', 'image/webp', 'image/tiff', ...CONVERTED];

function carriesMetadata(meta: Metadata): boolean {
  return Boolean(meta.exif || meta.xmp || meta.iptc || meta.tifftagPhotoshop || meta.comments?.length);
}

/** Whether a WebP's image is lossless (VP8L) rather than lossy (VP8): its chunks walked, an animation's first frame opened. */
async function isLosslessWebp(file: string): Promise<boolean> {
  const bytes = await fs.readFile(file);
  for (let at = 12; at + 8 <= bytes.length;) {
    const name = bytes.toString('latin1', at, at + 4);
    if (name === 'VP8L') return true;
    if (name === 'VP8 ') return false;
    const size = bytes.readUInt32LE(at + 4);
    // A frame (ANMF) holds its image's chunks after its own 16-byte header.
    at += name === 'ANMF' ? 24 : 8 + size + (size % 2);
  }
  return false;
}

/** sharp writes 8 bits per channel unless the image is kept in a 16-bit space. */
function keepDepth(image: Sharp, meta: Metadata): Sharp {
  return meta.space === 'rgb16' || meta.space === 'grey16' ? image.toColourspace(meta.space) : image;
}

async function encode(image: Sharp, meta: Metadata, file: string, mimeType: ArchiveMimeType): Promise<Sharp> {
  switch (mimeType) {
    case 'image/jpeg':
      return image.removeAlpha().jpeg({
        quality: 92,
        chromaSubsampling: meta.chromaSubsampling === undefined || meta.chromaSubsampling.startsWith('4:2:0') ? '4:2:0' : '4:4:4',
        progressive: meta.isProgressive,
      });
    case 'image/png':
      return keepDepth(image, meta).png(
        // At quality 100 without dithering the palette comes back with the same colours.
        meta.isPalette ? { palette: true, quality: 100, dither: 0, colours: 2 ** (meta.bitsPerSample ?? 8) } : {},
      );
    case 'image/webp':
      return image.webp((await isLosslessWebp(file)) ? { lossless: true } : { quality: 90 });
    default: {
      const perMillimetre = meta.density ? meta.density / 25.4 : undefined;
      return keepDepth(image, meta).tiff({
        compression: 'deflate',
        predictor: 'horizontal',
        ...(perMillimetre ? { xres: perMillimetre, yres: perMillimetre } : {}),
      });
    }
  }
}

/** The name with the extension of the type it became. */
function renamed(fileName: string, mimeType: ArchiveMimeType): string {
  const extension = mimeType === 'image/png' ? '.png' : '.jpg';
  return `${fileName.replace(/\.[^.]*$/, '').slice(0, 255 - extension.length)}${extension}`;
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The image `file` without its location and personal metadata (see the notes at the top). */
export async function stripMetadata(file: string, mimeType: ArchiveMimeType, fileName: string): Promise<StripResult> {
  if (!STRIPPED_TYPES.includes(mimeType)) return { status: 'clean' };
  const out = `${file}.stripped`;
  try {
    // The header alone: metadata is read without decoding the pixels.
    const meta = await sharp(file, { limitInputPixels: false }).metadata();
    if (mimeType !== 'image/tiff' && !carriesMetadata(meta)) return { status: 'clean' };
    if (meta.width * meta.height > ARCHIVE_MAX_PIXELS) return { status: 'failed', code: 'archive_metadata_too_many_pixels' };
    const animated = !CONVERTED.has(mimeType) && (meta.pages ?? 1) > 1;
    const open = await opener(file, mimeType, animated);
    const target = !CONVERTED.has(mimeType) ? mimeType : meta.hasAlpha && !(await open().stats()).isOpaque ? 'image/png' : 'image/jpeg';
    const image = open().keepIccProfile();
    await (await encode(animated ? image : image.autoOrient(), meta, file, target)).toFile(out);
    const size = (await fs.stat(out)).size;
    // A TIFF rewritten before comes back byte for byte: there was nothing to remove.
    if (target === mimeType && size === (await fs.stat(file)).size && (await sha256(out)) === (await sha256(file))) {
      await fs.rm(out, { force: true });
      return { status: 'clean' };
    }
    return { status: 'stripped', file: out, size, mimeType: target, fileName: target === mimeType ? fileName : renamed(fileName, target) };
  } catch (error) {
    await fs.rm(out, { force: true });
    // A full disk is the server's failure, not the image's.
    if (isDiskFull(error)) throw error;
    return { status: 'failed', code: 'archive_metadata_not_removed' };
  }
}
