import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp, { type Metadata } from 'sharp';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../test/test-app.ts';
import { openPostgres } from '../../db/client.ts';
import { localFileStorage, type FileStorage } from '../../storage/file-storage.ts';
import { archiveImages, auditLog } from '../../db/schema.ts';
import type { ArchiveItem, ArchiveMimeType, ArchiveUploadResult } from '../../../shared/archive.ts';
import { phoneJpeg, PHONE_TRACES, png, storedAsBefore, upload, withPhoneMetadata, withPngText } from './archive-test-kit.ts';
import { archiveStagingDir } from './archive-files.ts';
import { STORED_METADATA_DONE, stripStoredMetadata, stripStoredMetadataOnce } from './stored-metadata-job.ts';

/** Location and personal metadata leave every image type that carries it: on upload, and from originals stored before. */

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, '../../test/fixtures', name));
/** A phone's HEIC (HEVC, made with libheif's heif-enc from a JPEG) carrying EXIF with GPS, camera, owner and serial, and XMP. */
const phoneHeic = () => fixture('phone-gps-240x160.heic');
/** The same HEIC with the start of its coded image zeroed: its metadata reads, its pixels do not decode. */
function damagedHeic(): Buffer {
  const bytes = phoneHeic();
  const mdat = bytes.indexOf('mdat');
  return bytes.fill(0, mdat + 8, mdat + 400);
}

/** A PNG carrying EXIF whose header claims 20,000 × 20,000 pixels: too large to decode, so to clean. */
async function hugeCanvasPng(): Promise<Buffer> {
  const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
    .png()
    .withExif({ IFD0: { Make: 'Apple' } })
    .toBuffer();
  // IHDR's width and height, then its CRC (over its type and data).
  bytes.writeUInt32BE(20_000, 16);
  bytes.writeUInt32BE(20_000, 20);
  bytes.writeUInt32BE(zlib.crc32(bytes.subarray(12, 29)), 29);
  return bytes;
}

let t: TestApp;
let storage: FileStorage;

beforeAll(async () => {
  t = await buildTestApp();
  storage = localFileStorage(t.config.uploadsDir);
});
afterAll(async () => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });

async function uploaded(name: string, bytes: Buffer): Promise<ArchiveItem & { duplicate: boolean }> {
  const response = await upload(t, [{ name, bytes }]);
  expect(response.statusCode, response.body).toBe(200);
  const entry = response.json<ArchiveUploadResult>().results[0]!;
  if (!entry.ok) throw new Error(`${entry.fileName}: ${entry.message}`);
  return { ...entry.item, duplicate: entry.duplicate };
}

/** The original as /api/archive/files/<key> serves it, and what sharp reads in it. */
async function served(url: string): Promise<{ bytes: Buffer; meta: Metadata; contentType: string | undefined; etag: string | undefined }> {
  const response = await get(url);
  expect(response.statusCode).toBe(200);
  const etag = response.headers.etag;
  const contentType = response.headers['content-type'];
  return {
    bytes: response.rawPayload,
    meta: await sharp(response.rawPayload).metadata(),
    contentType: typeof contentType === 'string' ? contentType : undefined,
    etag: typeof etag === 'string' ? etag : undefined,
  };
}

function expectNoMetadata({ bytes, meta }: { bytes: Buffer; meta: Metadata }): void {
  // Upright: no orientation tag, or a TIFF's 1.
  expect({ exif: meta.exif, xmp: meta.xmp, iptc: meta.iptc, comments: meta.comments, orientation: meta.orientation ?? 1 }).toEqual({
    exif: undefined,
    xmp: undefined,
    iptc: undefined,
    comments: undefined,
    orientation: 1,
  });
  for (const trace of PHONE_TRACES) expect(bytes.includes(trace), trace).toBe(false);
}

function expectPhoneMetadata(meta: Metadata): void {
  expect(meta.exif).toBeDefined();
  expect(meta.xmp).toBeDefined();
}

/** A pixel's colour in steps of 32 per channel (lossy coding moves it a little). */
async function colourAt(bytes: Buffer, left: number, top: number): Promise<number[]> {
  const { data } = await sharp(bytes).extract({ left, top, width: 1, height: 1 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return [...data].map((channel) => Math.round(channel / 32));
}
const YELLOW = [8, 7, 0];
const BLUE = [2, 4, 7];

/** The decoded pixels, upright: a lossless rewrite must give the same. */
const pixels = (bytes: Buffer) => sharp(bytes).autoOrient().raw().toBuffer();

describe('on upload', () => {
  test(
    "a phone's JPEG (GPS, camera, owner and serial in EXIF, XMP, orientation 6) is stored upright without any of it, " +
      'keeps its colour profile, and the same photo sent again is a duplicate',
    async () => {
      const jpeg = await phoneJpeg(400, 200);
      const sent = await sharp(jpeg).metadata();
      expectPhoneMetadata(sent);
      expect(sent.orientation).toBe(6);

      const item = await uploaded('IMG_0001.JPG', jpeg);
      expect(item).toMatchObject({ mimeType: 'image/jpeg', fileName: 'IMG_0001.JPG', width: 200, height: 400 });
      const original = await served(item.fileUrl);
      expect(original.contentType).toBe('image/jpeg');
      expectNoMetadata(original);
      // The pixels were turned, not only the tag dropped: the square stored at the top left is now at the top right.
      expect(original.meta).toMatchObject({ format: 'jpeg', width: 200, height: 400, hasProfile: true });
      expect(await colourAt(original.bytes, 180, 20)).toEqual(YELLOW);
      expect(await colourAt(original.bytes, 20, 20)).toEqual(BLUE);
      expect(item.fileSize).toBe(original.bytes.length);

      const thumb = await served(item.thumbnailUrl!);
      expectNoMetadata(thumb);
      expect(thumb.meta).toMatchObject({ format: 'webp', width: 160, height: 320 });

      const again = await uploaded('outra cópia.jpg', jpeg);
      expect(again).toMatchObject({ duplicate: true, id: item.id });
    },
  );

  test('a PNG with eXIf, XMP and text chunks is stored upright and lossless without them; a palette stays a palette, 16 bits stay 16 bits', async () => {
    const withText = (bytes: Buffer) => withPngText(bytes, { Author: 'Helena Costa', Comment: 'Rua das Flores, 123' });
    const truecolour = withText(await withPhoneMetadata(60, 30, (image) => image.png()));
    const sent = await sharp(truecolour).metadata();
    expectPhoneMetadata(sent);
    expect(sent.comments).toHaveLength(2);

    const item = await uploaded('desenho.png', truecolour);
    const original = await served(item.fileUrl);
    expectNoMetadata(original);
    expect(original.bytes.includes('Rua das Flores')).toBe(false);
    expect(original.meta).toMatchObject({ format: 'png', width: 30, height: 60 });
    expect((await pixels(original.bytes)).equals(await pixels(truecolour))).toBe(true);

    const palette = withText(
      await sharp({ create: { width: 48, height: 24, channels: 3, background: '#c0392b' } })
        .png({ palette: true, colours: 4 })
        .toBuffer(),
    );
    const paletteOriginal = await served((await uploaded('paleta.png', palette)).fileUrl);
    expectNoMetadata(paletteOriginal);
    expect(paletteOriginal.meta.isPalette).toBe(true);
    expect((await pixels(paletteOriginal.bytes)).equals(await pixels(palette))).toBe(true);

    const deep = withText(
      await sharp({ create: { width: 24, height: 12, channels: 3, background: '#2980b9' } })
        .toColourspace('rgb16')
        .png()
        .toBuffer(),
    );
    const deepOriginal = await served((await uploaded('16-bits.png', deep)).fileUrl);
    expectNoMetadata(deepOriginal);
    expect(deepOriginal.meta).toMatchObject({ depth: 'ushort', bitsPerSample: 16 });
    expect((await pixels(deepOriginal.bytes)).equals(await pixels(deep))).toBe(true);
  });

  test('a WebP with EXIF and XMP chunks: lossy stays lossy and upright, lossless stays lossless, an animation keeps its frames, delays and loop', async () => {
    const lossy = await withPhoneMetadata(60, 30, (image) => image.webp({ quality: 90 }));
    expectPhoneMetadata(await sharp(lossy).metadata());
    const lossyOriginal = await served((await uploaded('foto.webp', lossy)).fileUrl);
    expectNoMetadata(lossyOriginal);
    expect(lossyOriginal.meta).toMatchObject({ format: 'webp', width: 30, height: 60 });
    expect(lossyOriginal.bytes.includes('VP8 ')).toBe(true);
    expect(await colourAt(lossyOriginal.bytes, 25, 5)).toEqual(YELLOW);

    const lossless = await withPhoneMetadata(60, 30, (image) => image.webp({ lossless: true }));
    const losslessOriginal = await served((await uploaded('desenho.webp', lossless)).fileUrl);
    expectNoMetadata(losslessOriginal);
    expect(losslessOriginal.bytes.includes('VP8L')).toBe(true);
    expect((await pixels(losslessOriginal.bytes)).equals(await pixels(lossless))).toBe(true);

    const frames = await Promise.all(
      ['#e74c3c', '#2ecc71', '#3498db'].map((colour) =>
        sharp({ create: { width: 30, height: 20, channels: 3, background: colour } })
          .png()
          .toBuffer(),
      ),
    );
    const animation = await sharp(frames, { join: { animated: true } })
      .webp({ delay: [100, 200, 300], loop: 2 })
      .withExif({ IFD0: { Make: 'Apple', Model: 'iPhone 13' } })
      .withXmp(
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><dc:creator xmlns:dc="http://purl.org/dc/elements/1.1/">Helena Costa</dc:creator></x:xmpmeta>',
      )
      .toBuffer();
    expectPhoneMetadata(await sharp(animation).metadata());
    const animated = await served((await uploaded('animacao.webp', animation)).fileUrl);
    expectNoMetadata(animated);
    expect(await sharp(animated.bytes, { animated: true }).metadata()).toMatchObject({
      pages: 3,
      delay: [100, 200, 300],
      loop: 2,
      pageHeight: 20,
    });
  });

  test("a phone's HEIC with GPS becomes a JPEG named .jpg without metadata, the same picture; sent again it is a duplicate", async () => {
    const heic = phoneHeic();
    expectPhoneMetadata(await sharp(heic).metadata());
    const item = await uploaded('IMG_0042.HEIC', heic);
    expect(item).toMatchObject({ mimeType: 'image/jpeg', fileName: 'IMG_0042.jpg', width: 240, height: 160 });
    const original = await served(item.fileUrl);
    expect(original.contentType).toBe('image/jpeg');
    expectNoMetadata(original);
    expect(original.meta).toMatchObject({ format: 'jpeg', width: 240, height: 160 });
    // The sun drawn at (190, 40).
    expect(await colourAt(original.bytes, 190, 40)).toEqual([8, 7, 0]);
    expect((await get(item.downloadUrl)).headers['content-disposition']).toMatch(/^attachment; filename="IMG_0042\.jpg"/);
    expectNoMetadata(await served(item.thumbnailUrl!));

    expect(await uploaded('IMG_0042 (1).HEIC', heic)).toMatchObject({ duplicate: true, id: item.id });
  });

  test('an AVIF with metadata becomes a JPEG; a TIFF is rewritten with all its pages; a GIF (no EXIF) is stored as it came', async () => {
    const avif = await withPhoneMetadata(60, 30, (image) => image.avif());
    expectPhoneMetadata(await sharp(avif).metadata());
    const avifItem = await uploaded('foto.avif', avif);
    expect(avifItem).toMatchObject({ mimeType: 'image/jpeg', fileName: 'foto.jpg' });
    expectNoMetadata(await served(avifItem.fileUrl));

    const pages = await Promise.all(
      ['#e74c3c', '#2ecc71'].map((colour) =>
        sharp({ create: { width: 30, height: 20, channels: 3, background: colour } })
          .png()
          .toBuffer(),
      ),
    );
    const tiff = await sharp(pages, { join: { animated: true } })
      .tiff()
      .withMetadata({ orientation: 1 })
      .withXmp(
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><dc:creator xmlns:dc="http://purl.org/dc/elements/1.1/">Helena Costa</dc:creator></x:xmpmeta>',
      )
      .toBuffer();
    expect((await sharp(tiff).metadata()).xmp).toBeDefined();
    const tiffOriginal = await served((await uploaded('digitalizado.tif', tiff)).fileUrl);
    expectNoMetadata(tiffOriginal);
    expect(tiffOriginal.meta).toMatchObject({ format: 'tiff', pages: 2 });
    expect(
      (await sharp(tiffOriginal.bytes, { pages: -1 }).raw().toBuffer()).equals(await sharp(tiff, { pages: -1 }).raw().toBuffer()),
    ).toBe(true);

    const gif = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#8e44ad' } })
      .gif()
      .toBuffer();
    expect((await get((await uploaded('icone.gif', gif)).fileUrl)).rawPayload.equals(gif)).toBe(true);
  });

  test(
    'an image whose metadata reads but whose pixels do not decode, or are too many to, ' +
      'is refused with its message, beside a good file that is stored',
    async () => {
      const before = (await storage.list('archive/')).length;
      // libheif-js reports the failed decoding with console.log.
      const log = vi.spyOn(console, 'log').mockImplementation(() => {});
      try {
        const response = await upload(t, [
          { name: 'boa.png', bytes: await png(12, 12, [10, 120, 200]) },
          { name: 'IMG_0666.HEIC', bytes: damagedHeic() },
          { name: 'enorme.png', bytes: await hugeCanvasPng() },
        ]);
        expect(response.statusCode).toBe(200);
        expect(
          response.json<ArchiveUploadResult>().results.map((result) => (result.ok ? 'ok' : `${result.fileName}: ${result.message}`)),
        ).toEqual([
          'ok',
          'IMG_0666.HEIC: Não foi possível ler esta imagem para remover a localização e os dados pessoais',
          'enorme.png: Imagem grande demais para remover a localização e os dados pessoais: no máximo 100 megapixels. Reduza-a e envie de novo.',
        ]);
      } finally {
        log.mockRestore();
      }
      // The good file's original, thumbnail and preview.
      expect((await storage.list('archive/')).length).toBe(before + 3);
    },
  );
});

describe('originals stored before metadata was removed on upload', () => {
  const tmpDir = () => archiveStagingDir(t.config.dataDir);

  const storedBefore = (fileName: string, bytes: Buffer, mimeType: ArchiveMimeType) =>
    storedAsBefore(t.db, storage, fileName, bytes, mimeType);
  const rowOf = async (id: string) => (await t.db.select().from(archiveImages).where(eq(archiveImages.id, id)))[0]!;
  const fileUrl = (row: { fileKey: string }) => `/api/archive/files/${row.fileKey}`;

  test(
    'the one-time run rewrites those that carry metadata, updates their size (type and name for HEIC), ' +
      'keeps the hash of the bytes sent, reports and records it; a second run changes nothing',
    async () => {
      // The archive as an older version left it: only what is stored below.
      await t.db.delete(archiveImages);
      for (const object of await storage.list('archive/')) await storage.delete(object.key);
      const jpeg = await phoneJpeg(420, 210);
      const phone = await storedBefore('IMG_0001.JPG', jpeg, 'image/jpeg');
      const heic = await storedBefore('IMG_0042.HEIC', phoneHeic(), 'image/heic');
      const clean = await storedBefore('logo.png', await png(16, 16, [1, 2, 3]), 'image/png');
      const damaged = await storedBefore('IMG_0666.HEIC', damagedHeic(), 'image/heic');
      const etagBefore = (await served(fileUrl(phone))).etag;
      expectPhoneMetadata((await served(fileUrl(phone))).meta);

      // Stopped before its first file (a shutdown): nothing changes and nothing is recorded, so the next start runs it.
      expect(
        await stripStoredMetadataOnce(t.database, { storage, tmpDir: tmpDir() }, { info: () => {}, warn: () => {} }, () => true),
      ).toBeNull();
      expect(await t.lastAudit(STORED_METADATA_DONE)).toBeUndefined();
      expect((await rowOf(phone.id)).fileSize).toBe(jpeg.length);

      const logged: string[] = [];
      const log = {
        info: (_details: object, line: string) => logged.push(line),
        warn: (_details: object, line: string) => logged.push(line),
      };
      const consoleLog = vi.spyOn(console, 'log').mockImplementation(() => {});
      const report = await stripStoredMetadataOnce(t.database, { storage, tmpDir: tmpDir() }, log as never).finally(() =>
        consoleLog.mockRestore(),
      );

      const [phoneAfter, heicAfter, cleanAfter, damagedAfter] = await Promise.all(
        [phone, heic, clean, damaged].map((row) => rowOf(row.id)),
      );
      const original = await served(fileUrl(phoneAfter!));
      const heicOriginal = await served(fileUrl(heicAfter!));
      expect(report).toEqual({
        checked: 4,
        stripped: 2,
        bytesBefore: phone.fileSize + heic.fileSize,
        bytesAfter: original.bytes.length + heicOriginal.bytes.length,
        failed: [{ id: damaged.id, fileName: 'IMG_0666.HEIC', code: 'archive_metadata_not_removed' }],
      });
      expect((await t.lastAudit(STORED_METADATA_DONE))?.details).toEqual(report);
      expect(logged).toEqual([
        expect.stringMatching(/^Data-Base: localização e metadados removidos de 2 das 4 imagens guardadas antes desta versão \(.+ → .+\)$/),
        'Data-Base: 1 imagens não puderam ser lidas (ou são grandes demais) para remover os metadados e continuam como estavam',
      ]);

      expectNoMetadata(original);
      expect(original.meta).toMatchObject({ format: 'jpeg', width: 210, height: 420 });
      expect(await colourAt(original.bytes, 190, 20)).toEqual(YELLOW);
      expect(phoneAfter).toMatchObject({
        fileSize: original.bytes.length,
        contentHash: phone.contentHash,
        mimeType: 'image/jpeg',
        fileName: 'IMG_0001.JPG',
      });
      // Caches that kept the old bytes revalidate to the new ones.
      expect(original.etag).not.toBe(etagBefore);
      expectNoMetadata(heicOriginal);
      expect(heicOriginal.contentType).toBe('image/jpeg');
      expect(heicAfter).toMatchObject({
        fileSize: heicOriginal.bytes.length,
        contentHash: heic.contentHash,
        mimeType: 'image/jpeg',
        fileName: 'IMG_0042.jpg',
      });
      expect(heicAfter!.searchText).toContain('img_0042.jpg');
      expect(cleanAfter).toEqual(clean);
      expect(damagedAfter).toEqual(damaged);

      // The same phone photo sent again is still found by the hash of the bytes sent.
      expect(await uploaded('de novo.jpg', jpeg)).toMatchObject({ duplicate: true, id: phone.id });

      const filesBefore = await Promise.all([phone, heic, clean].map(async (row) => (await served(fileUrl(row))).bytes));
      const consoleLog2 = vi.spyOn(console, 'log').mockImplementation(() => {});
      const second = await stripStoredMetadata({ db: t.db, storage, tmpDir: tmpDir() }).finally(() => consoleLog2.mockRestore());
      expect(second).toMatchObject({ checked: 4, stripped: 0, bytesBefore: 0, bytesAfter: 0, stopped: false });
      const filesAfter = await Promise.all([phone, heic, clean].map(async (row) => (await served(fileUrl(row))).bytes));
      expect(filesAfter.every((bytes, index) => bytes.equals(filesBefore[index]!))).toBe(true);

      // Recorded as done: later starts leave even a file with metadata alone.
      const late = await storedBefore('IMG_0002.JPG', await phoneJpeg(40, 20), 'image/jpeg');
      expect(await stripStoredMetadataOnce(t.database, { storage, tmpDir: tmpDir() }, log as never)).toBeNull();
      expect(await rowOf(late.id)).toEqual(late);
      await t.db.delete(archiveImages).where(eq(archiveImages.id, late.id));
    },
  );

  test.skipIf(process.env.TEST_DB !== 'postgres')('a second instance starting while the first runs it does not run it too', async () => {
    await t.db.delete(auditLog).where(eq(auditLog.action, STORED_METADATA_DONE));
    const other = await openPostgres(t.database.url!, { max: 2 });
    let reading!: () => void;
    const firstRead = new Promise<void>((resolve) => {
      reading = resolve;
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The first instance's storage holds its first read until the second instance has tried.
    const held: FileStorage = {
      ...storage,
      async read(key, range) {
        reading();
        await gate;
        return storage.read(key, range);
      },
    };
    const quiet = { info: () => {}, warn: () => {} };
    const consoleLog = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const first = stripStoredMetadataOnce(t.database, { storage: held, tmpDir: tmpDir() }, quiet);
      await firstRead;
      expect(await stripStoredMetadataOnce(other, { storage, tmpDir: tmpDir() }, quiet)).toBeNull();
      release();
      expect(await first).toMatchObject({ stripped: 0 });
      expect(await t.lastAudit(STORED_METADATA_DONE)).toBeDefined();
    } finally {
      release();
      consoleLog.mockRestore();
      await other.close();
    }
  });
});
