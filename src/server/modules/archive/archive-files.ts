import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';
import { parseFile } from 'music-metadata';
import sharp, { type Sharp } from 'sharp';
import heicDecode from 'heic-decode';
import {
  ARCHIVE_MAX_FILE_BYTES,
  ARCHIVE_MIME_TYPES,
  ARCHIVE_PREVIEW_SIDE,
  ARCHIVE_THUMB_SIDE,
  type ArchiveMimeType,
} from '../../../shared/archive.ts';
import type { ErrorCode } from '../../../shared/errors.ts';
import { ARCHIVE_MAX_PIXELS } from '../../../shared/constants.ts';
import { stagingFileName } from './staging-sweep.ts';

/**
 * Checks on an uploaded file, decided by its bytes (never its name or the browser's claim):
 *
 * 1. While it streams to a staging file: its SHA-256 (duplicates), its size (50 MB), and a
 *    scan for markup a browser could run (`<script`, `<html`, `<iframe`, `<?php`…, any case),
 *    so HTML hidden inside or appended to an image, a PDF or a video is refused.
 * 2. Its type by signature (file-type). HTML and other text have none and are refused;
 *    a ZIP named .jpg is a ZIP and refused.
 * 3. Trailing data after the image's end marker: a JPEG must end with EOI (FF D9, only zero
 *    padding after it; the extra images of a multi-picture JPEG end with EOI too), a PNG
 *    with its IEND chunk, a GIF with its trailer (3B), a WebP where its RIFF length says.
 *    Bytes appended after the end (a polyglot) are refused. Some phones append vendor data
 *    after the EOI: those JPEGs are refused too, a trade we accept.
 * 4. MPEG audio and AAC: file-type knows them by a two-byte sync word alone, which any bytes
 *    may start with, so the file must also read as a stream (music-metadata finds its codec).
 * 5. SVG (XML, no signature) is accepted only without script: no <script>, event handlers
 *    (on…=), javascript: URLs, <foreignObject>, embedded documents, entities, or links to
 *    anything but the same document or data: images. Even so it is served only as a
 *    download with a sandboxing CSP; what the screens show is its rasterised WebP.
 */

/** Lower-case markup that makes a file something a browser would run. */
const MARKUP = ['<script', '<html', '<!doctype html', '<iframe', '<body', '<?php', '<svg', '<object', '<embed', '<meta http-equiv'].map(
  (text) => Buffer.from(text, 'latin1'),
);
const LONGEST_MARKUP = Math.max(...MARKUP.map((pattern) => pattern.length));

function markupAt(chunk: Buffer, at: number): boolean {
  return MARKUP.some((pattern) => {
    if (at + pattern.length > chunk.length) return false;
    for (let i = 0; i < pattern.length; i += 1) {
      const byte = chunk[at + i]!;
      const lower = byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte;
      if (lower !== pattern[i]) return false;
    }
    return true;
  });
}

/** Whether `chunk` holds markup starting before `limit` (positions past it are looked at with the next chunk). */
function findMarkup(chunk: Buffer, limit: number): boolean {
  for (let at = chunk.indexOf(0x3c); at !== -1 && at < limit; at = chunk.indexOf(0x3c, at + 1)) {
    if (markupAt(chunk, at)) return true;
  }
  return false;
}

/** Where uploads wait while they are checked, and stored files while their metadata is removed (swept: staging-sweep.ts). */
export function archiveStagingDir(dataDir: string): string {
  return path.join(dataDir, 'tmp', 'archive');
}

export type StagedFile = {
  path: string;
  size: number;
  sha256: string;
  /** Markup found somewhere in the bytes. */
  hasMarkup: boolean;
  /** Over ARCHIVE_MAX_FILE_BYTES: the staging file was cut there. */
  truncated: boolean;
};

/**
 * Streams an upload into a staging file under `dir`, hashing and scanning it on the way:
 * memory holds one chunk (plus a few bytes of overlap), whatever the file's size.
 * `isTruncated` says whether the multipart parser cut the file at its size limit.
 */
export async function stageUpload(source: Readable, dir: string, isTruncated: () => boolean): Promise<StagedFile> {
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, stagingFileName('upload'));
  const hash = createHash('sha256');
  let size = 0;
  let hasMarkup = false;
  let tail = Buffer.alloc(0);
  const inspect = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      hash.update(chunk);
      if (!hasMarkup) {
        // Markup across the boundary: the previous chunk's last bytes with this one's first, without copying the chunk.
        const seam = Buffer.concat([tail, chunk.subarray(0, LONGEST_MARKUP - 1)]);
        hasMarkup = findMarkup(seam, tail.length) || findMarkup(chunk, chunk.length - LONGEST_MARKUP + 1);
        tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - LONGEST_MARKUP + 1)));
      }
      done(null, chunk);
    },
    flush(done) {
      if (!hasMarkup) hasMarkup = findMarkup(tail, tail.length);
      done();
    },
  });
  try {
    await pipeline(source, inspect, createWriteStream(file));
  } catch (error) {
    await fs.rm(file, { force: true });
    throw error;
  }
  return { path: file, size, sha256: hash.digest('hex'), hasMarkup, truncated: isTruncated() || size > ARCHIVE_MAX_FILE_BYTES };
}

/** What file-type names a file, as the archive names it (one name per allowed type). */
const SNIFFED: Record<string, ArchiveMimeType> = {
  'image/heic-sequence': 'image/heic',
  'image/heif-sequence': 'image/heif',
  'video/vnd.avi': 'video/x-msvideo',
  'audio/ogg; codecs=opus': 'audio/ogg',
  'application/ogg': 'audio/ogg',
};

function isArchiveMime(value: string): value is ArchiveMimeType {
  return (ARCHIVE_MIME_TYPES as readonly string[]).includes(value);
}

/** SVG larger than this is not read as text (a drawing, not a photo). */
const SVG_MAX_BYTES = 5 * 1024 * 1024;

const SVG_DOCTYPE = /<!doctype\s+svg/iy;

function startsWithAt(sticky: RegExp, text: string, at: number): boolean {
  sticky.lastIndex = at;
  return sticky.test(text);
}

/**
 * Whether the text is an SVG document: an XML declaration, comments and an SVG doctype without
 * an internal subset may come before `<svg`. Walked with indexOf, so a hostile prolog costs one
 * pass (a regular expression for it backtracked exponentially over a run of comments).
 */
function startsAsSvg(text: string): boolean {
  let at = text.startsWith('\uFEFF') ? 1 : 0;
  let seenDoctype = false;
  const skipSpace = () => {
    while (at < text.length && /\s/.test(text[at]!)) at += 1;
  };
  skipSpace();
  if (text.startsWith('<?xml', at)) {
    const end = text.indexOf('?>', at);
    if (end < 0) return false;
    at = end + 2;
  }
  for (;;) {
    skipSpace();
    if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at + 4);
      if (end < 0) return false;
      at = end + 3;
    } else if (!seenDoctype && startsWithAt(SVG_DOCTYPE, text, at)) {
      const end = text.indexOf('>', at);
      if (end < 0 || text.slice(at, end).includes('[')) return false;
      seenDoctype = true;
      at = end + 1;
    } else {
      return /^<svg[\s>]/i.test(text.slice(at, at + 5));
    }
  }
}

/** An attribute's values, quoted or not: each alternative is deterministic, so a long run costs one pass. */
function attributeValues(text: string, name: string): string[] {
  const pattern = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]*))`, 'gi');
  return [...text.matchAll(pattern)].map((match) => (match[1] ?? match[2] ?? match[3] ?? '').trim());
}

// An unquoted address ends at a parenthesis, so a run of 'url(' without one costs one pass.
const CSS_URLS = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^()\s"']*))/gi;
const SVG_HOSTILE = [
  // Also under a namespace prefix of their own (<s:script> with xmlns:s set to SVG's).
  /<([\w.-]+:)?(script|foreignObject|iframe|embed|object|handler|listener)\b/i,
  /\son[a-z]+\s*=/i,
  /javascript\s*:/i,
  /<!ENTITY/i,
];
/** Links only within the drawing (#id) or to inline images. */
const SAFE_LINK = /^(#|data:image\/(png|jpeg|gif|webp);)/i;

/** Whether an SVG's text is an SVG, and whether it could run script or reach outside itself. */
export function svgVerdict(text: string): 'svg' | 'hostile' | null {
  if (!startsAsSvg(text)) return null;
  if (SVG_HOSTILE.some((pattern) => pattern.test(text))) return 'hostile';
  // An animation that sets an event handler or a link (<set attributeName="onmouseover" to="…">).
  if (attributeValues(text, 'attributeName').some((value) => /^(on|(xlink:)?href$)/i.test(value))) return 'hostile';
  const links = [
    ...attributeValues(text, 'href'),
    ...[...text.matchAll(CSS_URLS)].map((match) => (match[1] ?? match[2] ?? match[3] ?? '').trim()),
  ];
  return links.every((link) => SAFE_LINK.test(link)) ? 'svg' : 'hostile';
}

async function sniffSvg(file: string, size: number): Promise<'svg' | 'hostile' | null> {
  if (size > SVG_MAX_BYTES) return null;
  return svgVerdict(await fs.readFile(file, 'utf8'));
}

async function readTail(file: string, size: number, length: number): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const count = Math.min(size, length);
    const buffer = Buffer.alloc(count);
    await handle.read(buffer, 0, count, size - count);
    return buffer;
  } finally {
    await handle.close();
  }
}

/** Whether the image ends where its format says (see the notes at the top). */
async function endsCleanly(mime: ArchiveMimeType, file: string, size: number): Promise<boolean> {
  if (mime === 'image/jpeg') {
    const tail = await readTail(file, size, 4096);
    let end = tail.length;
    while (end > 0 && tail[end - 1] === 0) end -= 1;
    return end >= 2 && tail[end - 2] === 0xff && tail[end - 1] === 0xd9;
  }
  if (mime === 'image/png') {
    const iend = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
    return (await readTail(file, size, 12)).equals(iend);
  }
  if (mime === 'image/gif') return (await readTail(file, size, 1))[0] === 0x3b;
  if (mime === 'image/webp') {
    const handle = await fs.open(file, 'r');
    try {
      const header = Buffer.alloc(8);
      await handle.read(header, 0, 8, 0);
      const riffSize = header.readUInt32LE(4);
      return riffSize + 8 + (riffSize % 2) === size || riffSize + 8 === size;
    } finally {
      await handle.close();
    }
  }
  return true;
}

/** The types file-type names by an MPEG sync word (0xFFE…) when nothing stronger matched. */
const SYNC_WORD_AUDIO = new Set<ArchiveMimeType>(['audio/mpeg', 'audio/aac']);

/** Whether the file reads as an audio stream: its frames' headers give a codec (only headers are read). */
async function readsAsAudio(file: string): Promise<boolean> {
  try {
    const { format } = await parseFile(file, { duration: false, skipCovers: true });
    return format.codec !== undefined;
  } catch {
    return false;
  }
}

export type Sniffed = { ok: true; mimeType: ArchiveMimeType } | { ok: false; code: ErrorCode };

/** The file's type by its bytes, or why it is refused. */
export async function sniffStaged(staged: StagedFile, fileName: string): Promise<Sniffed> {
  if (staged.size === 0) return { ok: false, code: 'archive_file_empty' };
  if (staged.truncated) return { ok: false, code: 'archive_file_too_large' };
  const detected = await fileTypeFromFile(staged.path);
  if (!detected || detected.mime === 'application/xml') {
    const svg = await sniffSvg(staged.path, staged.size);
    return svg === 'svg' ? { ok: true, mimeType: 'image/svg+xml' } : { ok: false, code: 'archive_type_not_allowed' };
  }
  if (staged.hasMarkup) return { ok: false, code: 'archive_type_not_allowed' };
  // An OLE compound file is a .doc only by its name: the same container holds .xls, .msg…
  const mime =
    detected.mime === 'application/x-cfb' && /\.doc$/i.test(fileName) ? 'application/msword' : (SNIFFED[detected.mime] ?? detected.mime);
  if (!isArchiveMime(mime)) return { ok: false, code: 'archive_type_not_allowed' };
  if (!(await endsCleanly(mime, staged.path, staged.size))) return { ok: false, code: 'archive_type_not_allowed' };
  if (SYNC_WORD_AUDIO.has(mime) && !(await readsAsAudio(staged.path))) return { ok: false, code: 'archive_type_not_allowed' };
  return { ok: true, mimeType: mime };
}

export type Variants = { width: number; height: number; thumb: Buffer; preview: Buffer };

type Opener = () => Sharp;

/**
 * How to open an image for sharp (its first frame, or all of them when `animated`). HEIC/HEIF
 * coded with AVIF decode in libvips; phone photos (HEVC) do not, so the WASM decoder
 * (heic-decode) turns the main image into pixels, already rotated as the file says.
 */
export async function opener(file: string, mimeType: ArchiveMimeType, animated = false): Promise<Opener> {
  const fromFile: Opener = () => sharp(file, { limitInputPixels: ARCHIVE_MAX_PIXELS, animated, failOn: 'error' });
  if (mimeType !== 'image/heic' && mimeType !== 'image/heif') return fromFile;
  try {
    await fromFile().stats();
    return fromFile;
  } catch {
    const { width, height, data } = await heicDecode({ buffer: await fs.readFile(file) });
    if (width * height > ARCHIVE_MAX_PIXELS) throw new Error('image too large');
    const pixels = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    return () => sharp(pixels, { raw: { width, height, channels: 4 } });
  }
}

/**
 * The WebP thumbnail and preview of an image, oriented by its EXIF and with every piece of
 * metadata (EXIF with GPS, XMP, comments) left out, and its displayed width and height;
 * null when it does not decode (a BMP, a damaged file): the screens show a type icon.
 */
export async function makeVariants(file: string, mimeType: ArchiveMimeType): Promise<Variants | null> {
  if (!mimeType.startsWith('image/')) return null;
  try {
    const open = await opener(file, mimeType);
    const { autoOrient } = await open().metadata();
    const variant = (side: number, quality: number) =>
      open().autoOrient().resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true }).webp({ quality }).toBuffer();
    const [thumb, preview] = await Promise.all([variant(ARCHIVE_THUMB_SIDE, 78), variant(ARCHIVE_PREVIEW_SIDE, 82)]);
    return { width: autoOrient.width, height: autoOrient.height, thumb, preview };
  } catch {
    return null;
  }
}

/** Width and height of a BMP from its header (libvips has no BMP loader), or null. */
export async function bmpSize(file: string): Promise<{ width: number; height: number } | null> {
  const handle = await fs.open(file, 'r');
  try {
    const header = Buffer.alloc(26);
    const { bytesRead } = await handle.read(header, 0, 26, 0);
    if (bytesRead < 26) return null;
    // A negative height means rows stored top-down; the smallest int32 has no positive counterpart (and no such image exists).
    const [width, height] = [Math.abs(header.readInt32LE(18)), Math.abs(header.readInt32LE(22))];
    return width > 0 && height > 0 && width <= 0x7fffffff && height <= 0x7fffffff ? { width, height } : null;
  } finally {
    await handle.close();
  }
}
