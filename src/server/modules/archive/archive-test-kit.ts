import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import type { TestApp } from '../../test/test-app.ts';

export type UploadFile = { name: string; bytes: Buffer | (() => AsyncIterable<Buffer>); type?: string };

/** A multipart/form-data body as a browser's FormData sends it: text fields, then the files (field "files"). A generator body streams without being held whole. */
export function multipartBody(files: UploadFile[], fields: Record<string, string> = {}) {
  const boundary = `----meritus${randomUUID().replace(/-/g, '')}`;
  async function* parts(): AsyncGenerator<Buffer> {
    for (const [name, value] of Object.entries(fields)) {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    }
    for (const file of files) {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
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
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } }).png().toBuffer();
}

/** A JPEG with EXIF orientation 6 (shown rotated 90°) and GPS-like metadata to be stripped. */
export function orientedJpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({ IFD0: { Copyright: 'Escola', ImageDescription: 'GPS -23.5505, -46.6333' } })
    .toBuffer();
}
