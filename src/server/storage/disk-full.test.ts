import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../test/test-app.ts';
import { archiveImages, students } from '../db/schema.ts';
import { archiveStagingDir } from '../modules/archive/archive-files.ts';
import { multipartBody, phoneJpeg, upload } from '../modules/archive/archive-test-kit.ts';
import { stripMetadata } from '../modules/archive/strip-metadata.ts';
import { ERROR_MESSAGES } from '../../shared/errors.ts';

/**
 * A full disk while a request writes its files: a clear 507 'storage_full' in pt-BR, no file
 * left half-written, nothing changed. The disk fills through Node's own write path (fs.write
 * and fs.writev, which every write stream calls), for files under one folder only.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());
afterEach(() => {
  vi.restoreAllMocks();
});

type WriteCall = (fd: number, ...rest: unknown[]) => void;

/** From now on, a file under `dir` takes `room` bytes; a write past that fails as on a full disk (ENOSPC). */
function fillDisk(dir: string, room: number): void {
  const written = new Map<string, number>();
  const full = (real: WriteCall, size: (rest: unknown[]) => number): WriteCall =>
    function (fd, ...rest) {
      const file = fs.readlinkSync(`/proc/self/fd/${fd}`);
      if (file.startsWith(dir + path.sep)) {
        const total = (written.get(file) ?? 0) + size(rest);
        if (total > room) {
          const callback = rest.at(-1) as (error: Error) => void;
          const error = Object.assign(new Error('ENOSPC: no space left on device, write'), {
            code: 'ENOSPC',
            errno: -28,
            syscall: 'write',
          });
          process.nextTick(callback, error);
          return;
        }
        written.set(file, total);
      }
      real(fd, ...rest);
    };
  const realWrite = fs.write.bind(fs) as WriteCall;
  const realWritev = fs.writev.bind(fs) as WriteCall;
  vi.spyOn(fs, 'write').mockImplementation(full(realWrite, (rest) => (rest[0] as Buffer).length) as never);
  vi.spyOn(fs, 'writev').mockImplementation(
    full(realWritev, (rest) => (rest[0] as Buffer[]).reduce((sum, b) => sum + b.length, 0)) as never,
  );
}

/** Every file under `dir`, by its path below it. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/** A PNG of noise: it does not compress, so it streams in several chunks. */
const noisyPng = () =>
  sharp(randomBytes(256 * 256 * 3), { raw: { width: 256, height: 256, channels: 3 } })
    .png()
    .toBuffer();

const expectRefusal = (response: { statusCode: number; json(): unknown }) => {
  expect(response.statusCode).toBe(507);
  expect(response.json()).toMatchObject({ error: { code: 'storage_full', message: ERROR_MESSAGES.storage_full } });
};

describe('a full disk during an upload', () => {
  test('while the archive stages the file: 507 in pt-BR, the partial staging file removed, nothing stored', async () => {
    const bytes = await noisyPng();
    expect(bytes.length).toBeGreaterThan(128 * 1024);
    const cookie = await t.loginAdmin();
    const staging = archiveStagingDir(t.config.dataDir);
    fillDisk(staging, 64 * 1024);
    const response = await upload(t, [{ name: 'turma.png', bytes, type: 'image/png' }], {}, cookie);
    expectRefusal(response);
    expect(filesUnder(staging)).toEqual([]);
    expect(filesUnder(t.config.uploadsDir)).toEqual([]);
    expect(await t.db.select().from(archiveImages)).toEqual([]);
  });

  test('while the archive stores the file: 507, no partial object, no record, the staging file removed', async () => {
    const bytes = await noisyPng();
    const cookie = await t.loginAdmin();
    fillDisk(t.config.uploadsDir, 64 * 1024);
    const response = await upload(t, [{ name: 'turma.png', bytes, type: 'image/png' }], {}, cookie);
    expectRefusal(response);
    expect(response.json()).toMatchObject({ error: { details: { uploaded: 0, results: [{ ok: false, code: 'storage_full' }] } } });
    expect(filesUnder(archiveStagingDir(t.config.dataDir))).toEqual([]);
    expect(filesUnder(t.config.uploadsDir)).toEqual([]);
    expect(await t.db.select().from(archiveImages)).toEqual([]);
  });

  test("a student's photo: 507, the student's photo unchanged, no file of it left", async () => {
    const [ana] = t.students;
    const cookie = await t.loginAdmin();
    const [before] = await t.db.select({ photoUrl: students.photoUrl }).from(students).where(eq(students.id, ana!.id));
    // The thumbnail fits; the photo does not.
    fillDisk(t.config.uploadsDir, 8 * 1024);
    const body = multipartBody([{ name: 'ana.png', bytes: await noisyPng(), type: 'image/png' }]);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/admin/students/${ana!.id}/photo`,
      headers: { ...body.headers, cookie },
      payload: body.payload,
    });
    expectRefusal(response);
    const [after] = await t.db.select({ photoUrl: students.photoUrl }).from(students).where(eq(students.id, ana!.id));
    expect(after).toEqual(before);
    expect(filesUnder(t.config.uploadsDir)).toEqual([]);
  });

  test('while a photo is rewritten without its location (libvips writes it, not Node): a full disk, not an image that failed', async () => {
    const dir = fs.mkdtempSync(path.join(t.config.dataDir, 'strip-'));
    const file = path.join(dir, 'foto.jpg');
    fs.writeFileSync(file, await phoneJpeg(64, 48));
    // The rewrite lands on a device that is always full.
    fs.symlinkSync('/dev/full', `${file}.stripped`);
    await expect(stripMetadata(file, 'image/jpeg', 'foto.jpg')).rejects.toThrow(/no space left on device/i);
    expect(fs.readdirSync(dir)).toEqual(['foto.jpg']);
  });
});
