import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { openPostgres } from '../db/client.ts';
import { buildTestApp, testConfig, type TestApp } from '../test/test-app.ts';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { multipartBody, phoneJpeg, png, storedAsBefore, upload } from '../modules/archive/archive-test-kit.ts';
import { archiveIntegrity } from '../modules/archive/archive-integrity.service.ts';
import { archiveStagingDir } from '../modules/archive/archive-files.ts';
import { stripStoredMetadata } from '../modules/archive/stored-metadata-job.ts';
import { archiveImages } from '../db/schema.ts';
import type { ArchiveItem } from '../../shared/archive.ts';
import { s3FileStorage } from './s3-storage.ts';

const BUCKET = 'meritus-arquivos';
let server: S3rver;
let directory: string;
let s3Env: Record<string, string>;
let t: TestApp;
let second: FastifyInstance;
let closeSecond: () => Promise<void>;

beforeAll(async () => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-s3rver-'));
  server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: BUCKET }] });
  const { port } = await server.run();
  s3Env = {
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'on',
  };
  t = await buildTestApp({ env: s3Env });
  // A second instance on the same database (its own pool on PostgreSQL; the same embedded database on PGlite) and the same bucket, with its own DATA_DIR.
  const database = t.database.url ? await openPostgres(t.database.url, { max: 2 }) : t.database;
  const config = testConfig(s3Env);
  second = await buildApp(config, database);
  closeSecond = async () => {
    await second.close();
    if (database !== t.database) await database.close();
    fs.rmSync(config.dataDir, { recursive: true, force: true });
  };
});

/** The test bucket through the S3 driver, as the app's configuration names it. */
function bucketStorage() {
  if (t.config.storage.driver !== 's3') throw new Error('the test app should use the S3 driver');
  return s3FileStorage(t.config.storage.s3);
}

afterAll(async () => {
  await closeSecond?.();
  await t?.close();
  await server?.close();
  fs.rmSync(directory, { recursive: true, force: true });
});

test('the S3 driver streams objects in, reads ranges back, lists and deletes them', async () => {
  const storage = bucketStorage();
  const bytes = Buffer.from('0123456789abcdefghij');
  await storage.write('testes/um.txt', Readable.from([bytes.subarray(0, 7), bytes.subarray(7)]), 'text/plain');
  expect(await storage.stat('testes/um.txt')).toMatchObject({ key: 'testes/um.txt', size: 20 });
  const part = await storage.read('testes/um.txt', { start: 5, end: 9 });
  const chunks: Buffer[] = [];
  for await (const chunk of part!.body) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).toString()).toBe('56789');
  expect(part!.size).toBe(20);
  expect((await storage.list('testes/')).map((object) => object.key)).toEqual(['testes/um.txt']);
  await storage.delete('testes/um.txt');
  expect(await storage.stat('testes/um.txt')).toBeNull();
  expect(await storage.read('testes/um.txt')).toBeNull();
});

test('two instances on one database and one bucket serve each other’s uploads, and a delete on one removes the objects for both', async () => {
  const response = await upload(t, [{ name: 'mural.png', bytes: await png(40, 30, [30, 120, 200]) }], { accessLevel: 'restricted' });
  expect(response.statusCode).toBe(200);
  const item = response.json().results[0].item as ArchiveItem;
  expect(fs.existsSync(path.join(t.config.uploadsDir, 'archive'))).toBe(false);

  const secondAdmin = await second.inject({
    method: 'POST',
    url: '/api/auth/admin/login',
    payload: { email: 'prof@escola.test', password: 'senha-teste-1' },
  });
  const cookie = String(secondAdmin.headers['set-cookie']).split(';')[0]!;
  const original = await second.inject({ method: 'GET', url: item.fileUrl, headers: { cookie } });
  expect(original.statusCode).toBe(200);
  expect(original.rawPayload.subarray(1, 4).toString()).toBe('PNG');
  const thumb = await second.inject({ method: 'GET', url: item.thumbnailUrl!, headers: { cookie } });
  expect(thumb.headers['content-type']).toBe('image/webp');
  expect((await second.inject({ method: 'GET', url: item.fileUrl })).statusCode).toBe(401);

  const storage = bucketStorage();
  expect(await archiveIntegrity(t.db, storage)).toEqual({ orphanFiles: [], missingFiles: [] });
  const deleted = await second.inject({ method: 'DELETE', url: `/api/admin/archive/images/${item.id}`, headers: { cookie } });
  expect(deleted.statusCode).toBe(200);
  expect(await storage.list('archive/')).toEqual([]);
  expect((await t.app.inject({ method: 'GET', url: item.fileUrl, headers: { cookie: await t.loginAdmin() } })).statusCode).toBe(404);
});

test('a student photo uploaded through one instance is stored in the bucket and served by the other; the diagnostics see it there', async () => {
  const student = t.students[0]!;
  const body = multipartBody([{ name: 'retrato.png', bytes: await png(64, 64, [200, 90, 40]), type: 'image/png' }]);
  const uploaded = await t.app.inject({
    method: 'POST',
    url: `/api/admin/students/${student.id}/photo`,
    headers: { ...body.headers, cookie: await t.loginAdmin() },
    payload: body.payload,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const photoUrl = uploaded.json().student.photo as string;
  expect(photoUrl).toMatch(/^\/uploads\/students\//);
  expect(fs.existsSync(path.join(t.config.uploadsDir, 'students'))).toBe(false);

  // The staff's session lets a photo without image consent through (decision 030).
  const staff = { cookie: await t.loginAdmin() };
  const served = await second.inject({ method: 'GET', url: photoUrl, headers: staff });
  expect(served.statusCode).toBe(200);
  expect(served.headers['content-type']).toBe('image/webp');
  expect(served.rawPayload.subarray(8, 12).toString()).toBe('WEBP');
  expect((await second.inject({ method: 'GET', url: photoUrl.replace(/\.webp$/, '.thumb.webp'), headers: staff })).statusCode).toBe(200);
  // Only photos: the archive's objects keep their own routes, which check each image's access level.
  expect((await second.inject({ method: 'GET', url: '/uploads/archive/qualquer/original' })).statusCode).toBe(404);
  expect((await second.inject({ method: 'GET', url: '/uploads/students/nao-existe.webp' })).statusCode).toBe(404);

  const overview = await second.inject({ method: 'GET', url: '/api/admin/system/overview', headers: { cookie: await t.loginAdmin() } });
  expect(overview.statusCode, overview.body).toBe(200);
  const run = await second.inject({ method: 'POST', url: '/api/admin/diagnostics/run', headers: { cookie: await t.loginAdmin() } });
  expect(run.statusCode, run.body).toBe(200);
  expect(JSON.stringify(run.json())).toContain('Todas as fotos armazenadas existem');
  expect(JSON.stringify(run.json())).not.toContain(photoUrl);
});

test('the one-time metadata removal rewrites an original in the bucket, and the other instance serves it without metadata and with its new size', async () => {
  const storage = bucketStorage();
  const jpeg = await phoneJpeg(120, 60);
  const row = await storedAsBefore(t.db, storage, 'IMG_0003.JPG', jpeg, 'image/jpeg');
  try {
    expect(await stripStoredMetadata({ db: t.db, storage, tmpDir: archiveStagingDir(t.config.dataDir) })).toMatchObject({
      checked: 1,
      stripped: 1,
      failed: [],
    });
    const served = await second.inject({ method: 'GET', url: `/api/archive/files/${row.fileKey}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(served.rawPayload).metadata();
    expect({ exif: meta.exif, xmp: meta.xmp, width: meta.width, height: meta.height }).toEqual({
      exif: undefined,
      xmp: undefined,
      width: 60,
      height: 120,
    });
    const [after] = await t.db.select().from(archiveImages).where(eq(archiveImages.id, row.id));
    expect(after!.fileSize).toBe(served.rawPayload.length);
    expect((await storage.stat(`archive/${row.fileKey}/original`))?.size).toBe(served.rawPayload.length);
  } finally {
    await t.db.delete(archiveImages).where(eq(archiveImages.id, row.id));
    await storage.delete(`archive/${row.fileKey}/original`);
  }
});
