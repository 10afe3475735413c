import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import sharp, { type Sharp } from 'sharp';
import type { TestApp } from '../../test/test-app.ts';
import type { Db } from '../../db/client.ts';
import { archiveImages } from '../../db/schema.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { ArchiveMimeType } from '../../../shared/archive.ts';
import { searchTextOf, storageKey } from './archive-rows.ts';

export type UploadFile = { name: string; bytes: Buffer | (() => AsyncIterable<Buffer>); type?: string };

/**
 * A multipart/form-data body as a browser's FormData sends it: text fields, then the files (field "files").
 * A generator body streams without being held whole.
 */
export function multipartBody(files: UploadFile[], fields: Record<string, string> = {}) {
  const boundary = `----meritus${randomUUID().replace(/-/g, '')}`;
  async function* parts(): AsyncGenerator<Buffer> {
    for (const [name, value] of Object.entries(fields)) {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    }
    for (const file of files) {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\n` +
          `Content-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      );
      if (Buffer.isBuffer(file.bytes)) yield file.bytes;
      else for await (const chunk of file.bytes()) yield chunk;
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return { payload: Readable.from(parts()), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function upload(t: TestApp, files: UploadFile[], fields: Record<string, string> = {}, cookie?: string) {
  const body = multipartBody(files, fields);
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/archive/images',
    headers: { ...body.headers, cookie: cookie ?? (await t.loginAdmin()) },
    payload: body.payload,
  });
}

/** A small PNG of one colour (different colours make different bytes). */
export function png(width: number, height: number, rgb: [number, number, number]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer();
}

/** What a phone writes into a photo: camera, owner, time, serial number and where it was taken (São Paulo). */
const PHONE_EXIF = {
  IFD0: { Make: 'Apple', Model: 'iPhone 13', Software: '17.1', DateTime: '2024:05:10 09:41:00', Artist: 'Helena Costa' },
  IFD2: { DateTimeOriginal: '2024:05:10 09:41:00', LensModel: 'iPhone 13 back camera 5.1mm f/1.6', BodySerialNumber: 'F2LXK0ABCD' },
  IFD3: {
    GPSLatitudeRef: 'S',
    GPSLatitude: '23/1 33/1 1802/100',
    GPSLongitudeRef: 'W',
    GPSLongitude: '46/1 38/1 1188/100',
    GPSAltitudeRef: '0',
    GPSAltitude: '760/1',
  },
};
/** The place again, and the photographer, as editors write them in XMP. */
const PHONE_XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" ' +
  'xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" exif:GPSLatitude="23,33.30S" exif:GPSLongitude="46,38.20W">' +
  '<dc:creator><rdf:Seq><rdf:li>Helena Costa</rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>';
/** Text that must not survive in a stored file. */
export const PHONE_TRACES = ['iPhone', 'Helena Costa', 'F2LXK0ABCD'];

/**
 * A blue picture with a yellow square (a third of its height) in its top-left corner as stored, carrying a phone's metadata
 * with EXIF orientation 6: shown rotated 90° clockwise, so the square is seen at the top right.
 */
export function withPhoneMetadata(width: number, height: number, encode: (image: Sharp) => Sharp): Promise<Buffer> {
  const side = Math.floor(Math.min(width, height) / 3);
  const square = { input: { create: { width: side, height: side, channels: 3, background: '#ffd500' } }, left: 0, top: 0 } as const;
  return encode(sharp({ create: { width, height, channels: 3, background: '#3a7bd5' } }).composite([square]))
    .withMetadata({ orientation: 6 })
    .withExif(PHONE_EXIF)
    .withXmp(PHONE_XMP)
    .toBuffer();
}

/** A phone-like JPEG (see withPhoneMetadata). */
export function phoneJpeg(width: number, height: number): Promise<Buffer> {
  return withPhoneMetadata(width, height, (image) => image.jpeg({ quality: 94 }));
}

/** PNG text chunks (tEXt), as drawing programs write an author or a comment, after the header chunk (IHDR, bytes 8–32). */
export function withPngText(png: Buffer, entries: Record<string, string>): Buffer {
  const chunks = Object.entries(entries).map(([keyword, text]) => {
    const typed = Buffer.from(`tEXt${keyword}\0${text}`, 'latin1');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(typed.length - 4);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(typed));
    return Buffer.concat([length, typed, crc]);
  });
  return Buffer.concat([png.subarray(0, 33), ...chunks, png.subarray(33)]);
}

/** An original as the archive stored it before metadata was removed on upload: the bytes as sent, under a random key, and its row. */
export async function storedAsBefore(db: Db, storage: FileStorage, fileName: string, bytes: Buffer, mimeType: ArchiveMimeType) {
  const fileKey = randomBytes(24).toString('base64url').slice(0, 32);
  await storage.write(storageKey(fileKey, 'original'), Readable.from([bytes]), mimeType);
  const { width, height } = (await sharp(bytes).metadata()).autoOrient;
  const values = {
    fileKey,
    contentHash: createHash('sha256').update(bytes).digest('hex'),
    fileName,
    mimeType,
    kind: 'image' as const,
    fileSize: bytes.length,
    width,
    height,
    description: fileName,
    uploaderName: 'Professora Helena Costa',
  };
  const [row] = await db
    .insert(archiveImages)
    .values({ ...values, searchText: searchTextOf({ ...values, tags: [], uploaderEmail: null }) })
    .returning();
  return row!;
}
