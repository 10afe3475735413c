import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { addAdmin, buildTestApp, TEST_ADMIN, turmaIdOf, type TestApp } from '../../test/test-app.ts';
import { seedDemoArchive } from '../../seed/demo-archive.ts';
import { localFileStorage, type FileStorage } from '../../storage/file-storage.ts';
import { admins, archiveImages, students } from '../../db/schema.ts';
import { ARCHIVE_MAX_FILE_BYTES, type ArchiveItem, type ArchiveUploadResult } from '../../../shared/archive.ts';
import { phoneJpeg, png, upload } from './archive-test-kit.ts';
import { archiveIntegrity } from './archive-integrity.service.ts';

let t: TestApp;
let storage: FileStorage;
/** Set by a test to make the storage's deletes fail (a storage outage). */
let failDeletes = false;

beforeAll(async () => {
  // The app's storage with a switch to make deletes fail; everything else is the local driver.
  const failing: FileStorage = new Proxy({} as FileStorage, {
    get(_target, name: keyof FileStorage) {
      if (name === 'delete' && failDeletes) return async () => Promise.reject(new Error('storage offline'));
      // Asked while the app is built, before the local driver below exists.
      if (name === 'driver') return 'local';
      return storage[name];
    },
  });
  t = await buildTestApp({ storage: failing });
  storage = localFileStorage(t.config.uploadsDir);
});
afterAll(async () => t?.close());

const uploadedItem = (result: ArchiveUploadResult, index = 0): ArchiveItem => {
  const entry = result.results[index]!;
  if (!entry.ok) throw new Error(`${entry.fileName}: ${entry.message}`);
  return entry.item;
};

const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

describe('upload', () => {
  test('a name with accents and an emoji is kept as sent, and the download carries it', async () => {
    const name = 'Conceição 😀 na feira.png';
    const response = await upload(t, [{ name, bytes: await png(8, 8, [200, 40, 90]), type: 'image/png' }]);
    expect(response.statusCode, response.body).toBe(200);
    const item = uploadedItem(response.json<ArchiveUploadResult>());
    expect(item.fileName).toBe(name);
    const download = await get(item.downloadUrl);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="Conceicao _ na feira.png"; filename*=UTF-8''${encodeURIComponent(name)}`,
    );
  });

  test(
    'an oriented JPEG gets an upright WebP thumbnail and preview without metadata; ' +
      'the same bytes again answer the existing image with duplicate: true',
    async () => {
      const jpeg = await phoneJpeg(400, 200);
      const first = await upload(t, [{ name: 'foto da turma.jpg', bytes: jpeg, type: 'image/jpeg' }], {
        tags: ' turma, 2024 ,,turma',
        category: 'perfil',
        albumName: 'Formatura',
      });
      expect(first.statusCode).toBe(200);
      const body = first.json<ArchiveUploadResult>();
      expect(body.message).toBe('1 arquivo enviado com sucesso!');
      const item = uploadedItem(body);
      expect(item).toMatchObject({
        fileName: 'foto da turma.jpg',
        mimeType: 'image/jpeg',
        kind: 'image',
        // EXIF orientation 6: the 400 × 200 pixels are shown as 200 × 400.
        width: 200,
        height: 400,
        description: 'Arquivo: foto da turma.jpg',
        category: 'perfil',
        tags: ['turma', '2024'],
        albumName: 'Formatura',
        accessLevel: 'public',
        isPublic: true,
        isActive: true,
        uploader: { name: 'Professora Helena Costa', email: 'prof@escola.test' },
      });
      expect(item.shareUrl).toMatch(/^\/share\/image\/[A-Za-z0-9_-]{32}$/);
      expect(item.fileUrl).toMatch(/^\/api\/archive\/files\/[A-Za-z0-9_-]{32}$/);
      // The size of what is stored: the original without its metadata (strip-metadata.test.ts).
      expect(item.fileSize).toBe((await get(item.fileUrl)).rawPayload.length);

      const thumb = await get(item.thumbnailUrl!);
      expect(thumb.headers['content-type']).toBe('image/webp');
      const meta = await sharp(thumb.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 160, height: 320 });
      expect(meta.exif).toBeUndefined();
      const preview = await sharp((await get(item.previewUrl!)).rawPayload).metadata();
      expect(preview).toMatchObject({ width: 200, height: 400 });
      expect(preview.exif).toBeUndefined();

      const again = await upload(t, [{ name: 'outro nome.jpg', bytes: jpeg }]);
      expect(again.statusCode).toBe(200);
      expect(again.json<ArchiveUploadResult>().results[0]).toMatchObject({
        ok: true,
        duplicate: true,
        item: { id: item.id, fileName: 'foto da turma.jpg' },
      });
      expect(
        await t.db
          .select()
          .from(archiveImages)
          .where(
            eq(archiveImages.contentHash, (await t.db.select().from(archiveImages).where(eq(archiveImages.id, item.id)))[0]!.contentHash),
          ),
      ).toHaveLength(1);
    },
  );

  test('hostile and empty files are refused one by one with their message, beside a good file that is stored', async () => {
    const goodJpeg = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#3366ff' } })
      .jpeg()
      .toBuffer();
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(60, 1)]);
    const response = await upload(t, [
      { name: 'boa.png', bytes: await png(30, 20, [10, 200, 30]) },
      { name: 'vazio.png', bytes: Buffer.alloc(0) },
      { name: 'pagina.png', bytes: Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>') },
      {
        name: 'desenho.svg',
        bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="5" height="5"/></svg>'),
      },
      {
        name: 'evento.svg',
        bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="5" height="5"/></svg>'),
      },
      {
        name: 'prefixo.svg',
        bytes: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" xmlns:s="http://www.w3.org/2000/svg"><s:script>alert(1)</s:script></svg>',
        ),
      },
      {
        name: 'animado.svg',
        bytes: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5"><set attributeName="onmouseover" to="alert(1)"/></rect></svg>',
        ),
      },
      { name: 'poliglota.jpg', bytes: Buffer.concat([goodJpeg, Buffer.from('<html><script>alert(1)</script></html>')]) },
      { name: 'cauda.jpg', bytes: Buffer.concat([goodJpeg, Buffer.from('dados escondidos depois do fim')]) },
      { name: 'compactado.jpg', bytes: zip },
      { name: '', bytes: goodJpeg },
    ]);
    expect(response.statusCode).toBe(200);
    const body = response.json<ArchiveUploadResult>();
    expect(body.message).toBe('1 arquivo enviado com sucesso! 10 erros no upload');
    expect(body.results.map((r) => (r.ok ? 'ok' : `${r.fileName}: ${r.message}`))).toEqual([
      'ok',
      'vazio.png: Arquivo vazio',
      'pagina.png: Tipo não permitido',
      'desenho.svg: Tipo não permitido',
      'evento.svg: Tipo não permitido',
      'prefixo.svg: Tipo não permitido',
      'animado.svg: Tipo não permitido',
      'poliglota.jpg: Tipo não permitido',
      'cauda.jpg: Tipo não permitido',
      'compactado.jpg: Tipo não permitido',
      '?: O arquivo precisa de um nome (até 255 caracteres)',
    ]);
  });

  test('audio known only by its MPEG sync word must read as a stream: two bytes or noise are refused, real MP3 and AAC frames are stored', async () => {
    // Silent MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz: 417 bytes each) and ADTS AAC frames of 200 bytes.
    const mp3Frame = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(413)]);
    const adtsFrame = Buffer.concat([Buffer.from([0xff, 0xf1, 0x50, 0x80, 200 >> 3, ((200 & 7) << 5) | 0x1f, 0xfc]), Buffer.alloc(193)]);
    const response = await upload(t, [
      { name: 'alunos.csv', bytes: Buffer.from([0xff, 0xe2]) },
      { name: 'ruido.mp3', bytes: Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(60, 0x55)]) },
      { name: 'ruido.aac', bytes: Buffer.from([0xff, 0xf1, 0x13, 0x37]) },
      { name: 'silencio.mp3', bytes: Buffer.concat(Array(20).fill(mp3Frame)) },
      { name: 'silencio.aac', bytes: Buffer.concat(Array(20).fill(adtsFrame)) },
    ]);
    expect(response.statusCode).toBe(200);
    const body = response.json<ArchiveUploadResult>();
    expect(body.results.map((r) => (r.ok ? `${r.fileName}: ${r.item.mimeType}` : `${r.fileName}: ${r.message}`))).toEqual([
      'alunos.csv: Tipo não permitido',
      'ruido.mp3: Tipo não permitido',
      'ruido.aac: Tipo não permitido',
      'silencio.mp3: audio/mpeg',
      'silencio.aac: audio/aac',
    ]);
  });

  test('a clean SVG is stored, shown as a rasterised thumbnail, and its original only leaves as a sandboxed download', async () => {
    const svg = Buffer.from(
      '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#f80"/></svg>',
    );
    const item = uploadedItem((await upload(t, [{ name: 'logo.svg', bytes: svg }])).json());
    expect(item).toMatchObject({ mimeType: 'image/svg+xml', width: 40, height: 20 });
    const original = await get(item.fileUrl);
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-disposition']).toMatch(/^attachment;/);
    expect(original.headers['content-security-policy']).toContain('sandbox');
    expect(original.headers['x-content-type-options']).toBe('nosniff');
    expect((await sharp((await get(item.thumbnailUrl!)).rawPayload).metadata()).format).toBe('webp');
  });

  test('a phone photo in HEIC (HEVC, which libvips here cannot decode) gets its WebP thumbnail and preview and is served as image/heic', async () => {
    // Made once with libheif's heif-enc (x265) from a drawn 1800 × 1200 PNG.
    const heic = fs.readFileSync(path.join(import.meta.dirname, '../../test/fixtures/drawing-1800x1200.heic'));
    const item = uploadedItem((await upload(t, [{ name: 'IMG_0042.HEIC', bytes: heic, type: 'application/octet-stream' }])).json());
    expect(item).toMatchObject({ mimeType: 'image/heic', kind: 'image', width: 1800, height: 1200, fileSize: heic.length });

    const thumb = await get(item.thumbnailUrl!);
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 320, height: 213 });
    const preview = await get(item.previewUrl!);
    expect(preview.headers['content-type']).toBe('image/webp');
    expect(await sharp(preview.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 1600, height: 1067 });
    // The preview shows the drawing, not a blank canvas: the sun's yellow at its place (1400, 300 of 1800 × 1200).
    const { data } = await sharp(preview.rawPayload)
      .extract({ left: 1244, top: 267, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)].map((channel) => Math.round(channel / 32))).toEqual([8, 7, 2]);

    const original = await get(item.fileUrl);
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('image/heic');
    expect(original.rawPayload.equals(heic)).toBe(true);
  });

  test('11 invalid files at once: a 400 listing all 11 and nothing stored', async () => {
    const before = (await storage.list('archive/')).length;
    const files = Array.from({ length: 11 }, (_, i) => ({ name: `ruim-${i + 1}.png`, bytes: Buffer.from(`texto ${i}`) }));
    const response = await upload(t, files);
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error).toMatchObject({ code: 'archive_upload_failed', message: '11 erros no upload' });
    expect(error.details.results).toHaveLength(11);
    expect(error.details.results[10]).toMatchObject({ ok: false, fileName: 'ruim-11.png', message: 'Tipo não permitido' });
    expect((await storage.list('archive/')).length).toBe(before);
  });

  test(
    '50 MB + 1 byte is refused with the spec message, nothing stored or left in staging, ' +
      'and the server holds far less than the file in memory',
    async () => {
      const before = (await storage.list('archive/')).length;
      const chunk = Buffer.alloc(1024 * 1024, 7);
      async function* big() {
        for (let i = 0; i < 50; i += 1) yield chunk;
        yield Buffer.from([7]);
      }
      global.gc?.();
      const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
      let peak = heapBefore;
      const sampler = setInterval(() => {
        const usage = process.memoryUsage();
        peak = Math.max(peak, usage.heapUsed + usage.arrayBuffers);
      }, 5);
      const response = await upload(t, [{ name: 'grande.mp4', bytes: big }]);
      clearInterval(sampler);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.details.results[0]).toMatchObject({
        fileName: 'grande.mp4',
        message: 'Arquivo muito grande (máx. 50MB)',
      });
      expect((await storage.list('archive/')).length).toBe(before);
      expect(fs.readdirSync(path.join(t.config.dataDir, 'tmp', 'archive'))).toEqual([]);
      // Streamed in chunks: the peak (garbage not yet collected included) stays well under the file (5.4 MB measured here).
      console.info(`archive upload of 50 MB + 1: heap + buffers grew by at most ${((peak - heapBefore) / 1024 / 1024).toFixed(1)} MB`);
      expect(peak - heapBefore).toBeLessThan(ARCHIVE_MAX_FILE_BYTES / 3);
    },
  );

  test('a request with no file, or with bad fields, is a 400 in pt-BR and stores nothing', async () => {
    const none = await upload(t, [], { description: 'só texto' });
    expect(none.json().error).toMatchObject({ code: 'file_missing', message: 'Nenhum arquivo selecionado' });
    const badCategory = await upload(t, [{ name: 'a.png', bytes: await png(5, 5, [1, 2, 3]) }], { category: 'qualquer' });
    expect(badCategory.statusCode).toBe(400);
    expect(badCategory.json().error).toMatchObject({ code: 'archive_invalid_category', message: 'Categoria inválida' });
    const json = await t.request('POST', '/admin/archive/images', { payload: { files: [] } });
    expect(json.json().error.message).toBe('Nenhum arquivo selecionado');
  });
});

describe('serving by access level', () => {
  const levels = ['public', 'restricted', 'private', 'admin', 'inactive'] as const;
  const items = new Map<(typeof levels)[number], ArchiveItem>();
  let studentCookie = '';
  let adminCookie = '';

  beforeAll(async () => {
    adminCookie = await t.loginAdmin();
    studentCookie = await t.loginStudent('3000001');
    for (const [i, level] of levels.entries()) {
      const item = uploadedItem(
        (await upload(t, [{ name: `${level}.png`, bytes: await png(12, 12, [i * 40, 99, 7]) }], {}, adminCookie)).json(),
      );
      const edit = level === 'inactive' ? { isActive: false } : { accessLevel: level };
      const edited = await t.request('PATCH', `/admin/archive/images/${item.id}`, { payload: edit, cookie: adminCookie });
      expect(edited.json().message).toBe('Imagem atualizada com sucesso!');
      items.set(level, item);
    }
  });

  const expected = {
    public: { anonymous: 200, student: 200, admin: 200 },
    restricted: { anonymous: 401, student: 200, admin: 200 },
    private: { anonymous: 404, student: 404, admin: 200 },
    admin: { anonymous: 404, student: 404, admin: 200 },
    inactive: { anonymous: 404, student: 404, admin: 200 },
  } as const;

  test.each(levels)('%s: file, thumbnail and share page for anonymous, student and administrator', async (level) => {
    const item = items.get(level)!;
    const [row] = await t.db.select().from(archiveImages).where(eq(archiveImages.id, item.id));
    const sharePage = row!.shareToken
      ? `/share/image/${row!.shareToken}`
      : (item.shareUrl ?? '/share/image/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    for (const who of ['anonymous', 'student', 'admin'] as const) {
      const cookie = who === 'anonymous' ? undefined : who === 'student' ? studentCookie : adminCookie;
      const status = expected[level][who];
      expect((await get(item.fileUrl, cookie)).statusCode, `${who} file`).toBe(status);
      expect((await get(item.thumbnailUrl!, cookie)).statusCode, `${who} thumbnail`).toBe(status);
      const share = await get(sharePage, cookie);
      expect(share.statusCode, `${who} share page`).toBe(level === 'public' ? 200 : 404);
      expect(share.headers['content-type']).toBe('text/html; charset=utf-8');
      if (level === 'public') expect(share.body).toContain(`href="${item.downloadUrl}"`);
      else expect(share.body).toContain('Link de compartilhamento inválido ou expirado');
    }
  });

  test('making the public image private ends its share link; public again gives a new one; a revoked link ends too', async () => {
    const item = items.get('public')!;
    const link = (await t.request('POST', `/admin/archive/images/${item.id}/share`)).json().shareUrl as string;
    expect((await get(link)).statusCode).toBe(200);
    await t.request('PATCH', `/admin/archive/images/${item.id}`, { payload: { isPublic: false } });
    expect((await get(link)).statusCode).toBe(404);
    const refused = await t.request('POST', `/admin/archive/images/${item.id}/share`);
    expect(refused.json().error.message).toBe('Somente imagens públicas e ativas podem ser compartilhadas');
    const back = (await t.request('PATCH', `/admin/archive/images/${item.id}`, { payload: { isPublic: true } })).json().item as ArchiveItem;
    expect(back.shareUrl).not.toBe(link);
    expect((await get(back.shareUrl!)).statusCode).toBe(200);
    await t.request('DELETE', `/admin/archive/images/${item.id}/share`);
    expect((await get(back.shareUrl!)).statusCode).toBe(404);
  });

  test('a download counts, sends the file as an attachment, and a range request answers 206 with the bytes asked', async () => {
    const item = items.get('public')!;
    const download = await get(item.downloadUrl);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="public.png"; filename*=UTF-8''public.png`);
    const ranged = await t.app.inject({ method: 'GET', url: item.fileUrl, headers: { range: 'bytes=0-7' } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect((await t.request('GET', `/admin/archive/images/${item.id}`)).json().downloadCount).toBe(1);
  });
});

describe('management', () => {
  test('concurrent copy-link calls all count', async () => {
    const item = uploadedItem((await upload(t, [{ name: 'contador.png', bytes: await png(9, 9, [5, 5, 250]) }])).json());
    const cookie = await t.loginAdmin();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.request('POST', `/admin/archive/images/${item.id}/copy-link`, { cookie })),
    );
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    const after = (await t.request('GET', `/admin/archive/images/${item.id}`, { cookie })).json() as ArchiveItem;
    expect(after.usageCount).toBe(20);
    expect(after.lastAccessedAt).not.toBeNull();
  });

  test('list: search, filters, sorting and cursor paging on the server; summary over the whole archive; favourites per administrator', async () => {
    const ids: string[] = [];
    for (const [i, name] of ['Zebra.png', 'abacate.png', 'Árvore.png'].entries()) {
      const item = uploadedItem(
        (
          await upload(t, [{ name, bytes: await png(8 + i, 8, [i, 1, 2]) }], {
            category: 'banner',
            tags: 'natureza',
            description: `Álbum da feira ${i}`,
          })
        ).json(),
      );
      ids.push(item.id);
    }
    const byName = (await t.request('GET', '/admin/archive/images?category=banner&sort=name&order=asc&limit=2')).json();
    expect(byName.total).toBe(3);
    expect(byName.items.map((i: ArchiveItem) => i.fileName)).toHaveLength(2);
    const rest = (
      await t.request('GET', `/admin/archive/images?category=banner&sort=name&order=asc&limit=2&cursor=${byName.nextCursor}`)
    ).json();
    expect(rest.items).toHaveLength(1);
    expect(rest.nextCursor).toBeNull();
    expect(rest.total).toBeNull();
    const search = (await t.request('GET', '/admin/archive/images?q=ALBUM%20DA%20FEIRA%201')).json();
    expect(search.items.map((i: ArchiveItem) => i.fileName)).toEqual(['abacate.png']);
    const tag = (await t.request('GET', '/admin/archive/images?q=natureza&sort=size&order=desc')).json();
    expect(tag.items.map((i: ArchiveItem) => i.id)).toHaveLength(3);

    const favourite = await t.request('PUT', `/admin/archive/images/${ids[0]}/favourite`, { payload: { favourite: true } });
    expect(favourite.json()).toEqual({ favourite: true, message: 'Adicionado aos favoritos' });
    const favourites = (await t.request('GET', '/admin/archive/images?favourites=true')).json();
    expect(favourites.items.map((i: ArchiveItem) => i.id)).toEqual([ids[0]]);

    const summary = (await t.request('GET', '/admin/archive/summary')).json();
    const rows = await t.db.select().from(archiveImages);
    expect(summary.stats).toMatchObject({ total: rows.length, totalSize: rows.reduce((sum, row) => sum + row.fileSize, 0) });
    expect(summary.facets.categories).toContainEqual({ category: 'banner', count: 3 });

    const bad = await t.request('GET', '/admin/archive/images?cursor=bm9wZQ');
    expect(bad.statusCode).toBe(400);
  });

  test('bulk: album, access level, category and delete', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1)
      ids.push(uploadedItem((await upload(t, [{ name: `lote-${i}.png`, bytes: await png(7, 7 + i, [9, 9, i]) }])).json()).id);
    const album = await t.request('POST', '/admin/archive/images/bulk', {
      payload: { action: 'album', ids, albumName: 'Feira de Ciências' },
    });
    expect(album.json()).toEqual({ message: '3 imagens atualizadas com sucesso!', count: 3 });
    await t.request('POST', '/admin/archive/images/bulk', { payload: { action: 'accessLevel', ids, accessLevel: 'restricted' } });
    await t.request('POST', '/admin/archive/images/bulk', { payload: { action: 'category', ids, category: 'ilustracao' } });
    const items = (await t.request('GET', '/admin/archive/images?category=ilustracao')).json().items as ArchiveItem[];
    expect(items).toHaveLength(3);
    expect(new Set(items.map((i) => i.albumId)).size).toBe(1);
    expect(items.every((i) => i.accessLevel === 'restricted' && i.shareUrl === null && i.albumName === 'Feira de Ciências')).toBe(true);
    const empty = await t.request('POST', '/admin/archive/images/bulk', { payload: { action: 'delete', ids: [] } });
    expect(empty.json().error.message).toBe('Selecione ao menos uma imagem');
    const deleted = await t.request('POST', '/admin/archive/images/bulk', { payload: { action: 'delete', ids } });
    expect(deleted.json()).toEqual({ message: '3 imagens excluídas com sucesso!', count: 3 });
    expect((await t.request('GET', '/admin/archive/images?category=ilustracao')).json().total).toBe(0);
  });

  test(
    'selecting for a student sets the photo (audited) and counts a use; ' +
      'deleting the image with the storage failing still removes the record and the student falls back to the placeholder',
    async () => {
      const item = uploadedItem(
        (await upload(t, [{ name: 'retrato.png', bytes: await png(64, 64, [120, 80, 40]) }], { category: 'perfil' })).json(),
      );
      const ana = t.students[0]!;
      const selected = await t.request('POST', `/admin/archive/images/${item.id}/select`, { payload: { studentId: ana.id } });
      expect(selected.statusCode).toBe(200);
      expect(selected.json()).toMatchObject({ photoUrl: item.previewUrl, usageCount: 1 });
      expect((await t.lastAudit('student.photo.url'))?.details).toMatchObject({ to: item.previewUrl });
      const listed = (await t.request('GET', '/admin/students')).json().items as { id: string; photoThumb: string | null }[];
      expect(listed.find((s) => s.id === ana.id)?.photoThumb).toMatch(new RegExp(`^${item.thumbnailUrl}\\?v=\\d+$`));
      // The student form may also send the address it got from the picker.
      const typed = await t.request('PUT', `/admin/students/${t.students[1]!.id}/photo`, { payload: { url: item.previewUrl } });
      expect(typed.statusCode).toBe(200);
      const anaCookie = await t.loginStudent(ana.studentId);
      expect((await get(item.previewUrl!, anaCookie)).statusCode).toBe(200);

      const priv = uploadedItem(
        (await upload(t, [{ name: 'privada.png', bytes: await png(10, 10, [1, 1, 1]) }], { accessLevel: 'private' })).json(),
      );
      const refused = await t.request('POST', `/admin/archive/images/${priv.id}/select`, { payload: { studentId: ana.id } });
      expect(refused.json().error.message).toBe('Somente imagens ativas, públicas ou restritas, podem ser foto de estudante');

      failDeletes = true;
      try {
        const deleted = await t.request('DELETE', `/admin/archive/images/${item.id}`);
        expect(deleted.json()).toEqual({ message: 'Imagem excluída com sucesso!' });
      } finally {
        failDeletes = false;
      }
      expect(await t.db.select().from(archiveImages).where(eq(archiveImages.id, item.id))).toEqual([]);
      const [after] = await t.db.select().from(students).where(eq(students.id, ana.id));
      expect(after!.photoUrl).toBeNull();
      // The files the failing storage kept are what the integrity check reports.
      const integrity = await archiveIntegrity(t.db, storage);
      expect(integrity.orphanFiles.map((object) => object.key)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^archive\/.+\/original$/)]),
      );
      expect(integrity.missingFiles).toEqual([]);
      const gone = await t.request('DELETE', `/admin/archive/images/${item.id}`);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().error.message).toBe('Imagem não encontrada');
    },
  );

  test('an unknown variant of a file is a missing file, for everyone', async () => {
    const item = uploadedItem((await upload(t, [{ name: 'variante.png', bytes: await png(16, 16, [9, 9, 9]) }])).json());
    for (const cookie of [await t.loginAdmin(), undefined]) {
      const response = await get(`${item.fileUrl}/bogus`, cookie);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.message).toBe('Imagem não encontrada');
    }
    expect((await get(`${item.fileUrl}/thumb`)).statusCode).toBe(200);
  });

  test("an image students may no longer see (private, admin-only or inactive) stops being anyone's photo, like a deleted one", async () => {
    const photoOf = async (id: string) =>
      (await t.db.select({ photoUrl: students.photoUrl }).from(students).where(eq(students.id, id)))[0]!.photoUrl;
    const [ana, bruno] = [t.students[0]!, t.students[1]!];
    const cases: { label: string; change: (id: string) => Promise<{ statusCode: number }> }[] = [
      { label: 'private', change: (id) => t.request('PATCH', `/admin/archive/images/${id}`, { payload: { accessLevel: 'private' } }) },
      { label: 'inactive', change: (id) => t.request('PATCH', `/admin/archive/images/${id}`, { payload: { isActive: false } }) },
      {
        label: 'admin in bulk',
        change: (id) =>
          t.request('POST', '/admin/archive/images/bulk', { payload: { action: 'accessLevel', accessLevel: 'admin', ids: [id] } }),
      },
    ];
    for (const [index, { label, change }] of cases.entries()) {
      const item = uploadedItem((await upload(t, [{ name: `foto-${index}.png`, bytes: await png(32, 32, [index * 60, 90, 30]) }])).json());
      expect((await t.request('POST', `/admin/archive/images/${item.id}/select`, { payload: { studentId: ana.id } })).statusCode).toBe(200);
      // A restricted image is still one students see: the photo stays.
      expect((await t.request('PATCH', `/admin/archive/images/${item.id}`, { payload: { accessLevel: 'restricted' } })).statusCode).toBe(
        200,
      );
      expect(await photoOf(ana.id), label).toBe(item.previewUrl);
      const bystander = await photoOf(bruno.id);
      expect((await change(item.id)).statusCode, label).toBe(200);
      expect(await photoOf(ana.id), label).toBeNull();
      expect(await photoOf(bruno.id), label).toBe(bystander);
    }
  });
});

describe('a teacher and the archive (issue 34)', () => {
  test(
    'uploads and sees every image, but edits, deletes, changes in bulk and revokes links only of their own; ' +
      "the coordination changes any; making an image a student's photo needs the permission to manage students",
    async () => {
      const turmaA = await turmaIdOf(t.db, '1º EM - Turma A');
      await addAdmin(t.db, { email: 'joana@escola.test', name: 'Joana Prado', role: 'teacher', turmaIds: [turmaA] });
      await addAdmin(t.db, { email: 'otavio@escola.test', name: 'Otávio Reis', role: 'teacher', turmaIds: [turmaA] });
      const joana = await t.loginAdmin('joana@escola.test');
      const otavio = await t.loginAdmin('otavio@escola.test');
      const coordination = await t.loginAdmin();
      const own = uploadedItem((await upload(t, [{ name: 'da-joana.png', bytes: await png(12, 12, [10, 200, 30]) }], {}, joana)).json());
      const other = uploadedItem((await upload(t, [{ name: 'da-coordenacao.png', bytes: await png(12, 13, [10, 20, 230]) }])).json());
      expect(own.uploader.name).toBe('Joana Prado');
      const refusal = { error: { code: 'archive_not_own_image', message: 'Você só pode editar ou excluir as imagens que você enviou' } };
      const share = await t.request('POST', `/admin/archive/images/${other.id}/share`, { cookie: joana });
      expect(share.statusCode).toBe(200);

      // Reading and sharing the others' images: allowed.
      const listed = (await t.request('GET', '/admin/archive/images?limit=200', { cookie: joana })).json().items as ArchiveItem[];
      expect(listed.map((item) => item.id)).toEqual(expect.arrayContaining([own.id, other.id]));
      expect((await t.request('GET', `/admin/archive/images/${other.id}`, { cookie: joana })).statusCode).toBe(200);
      expect(
        (await t.request('PUT', `/admin/archive/images/${other.id}/favourite`, { cookie: joana, payload: { favourite: true } })).statusCode,
      ).toBe(200);
      expect((await t.request('POST', `/admin/archive/images/${other.id}/copy-link`, { cookie: joana })).statusCode).toBe(200);
      expect((await t.request('POST', `/admin/archive/images/${other.id}/select`, { cookie: joana, payload: {} })).statusCode).toBe(200);

      // Changing them: refused, and nothing changes (a bulk change with one image of another is refused whole).
      const refused = [
        await t.request('PATCH', `/admin/archive/images/${other.id}`, { cookie: joana, payload: { description: 'trocada' } }),
        await t.request('DELETE', `/admin/archive/images/${other.id}`, { cookie: joana }),
        await t.request('DELETE', `/admin/archive/images/${other.id}/share`, { cookie: joana }),
        await t.request('POST', '/admin/archive/images/bulk', {
          cookie: joana,
          payload: { action: 'category', category: 'documento', ids: [own.id, other.id] },
        }),
        await t.request('POST', '/admin/archive/images/bulk', { cookie: joana, payload: { action: 'delete', ids: [other.id] } }),
        await t.request('PATCH', `/admin/archive/images/${own.id}`, { cookie: otavio, payload: { description: 'trocada' } }),
      ];
      for (const response of refused) {
        expect(response.statusCode, response.body).toBe(403);
        expect(response.json()).toEqual(refusal);
      }
      const rows = await t.db.select().from(archiveImages).where(eq(archiveImages.id, other.id));
      expect(rows[0]).toMatchObject({ description: other.description, category: other.category, shareToken: expect.any(String) });
      const [ownRow] = await t.db.select().from(archiveImages).where(eq(archiveImages.id, own.id));
      expect(ownRow).toMatchObject({ category: own.category, description: own.description });

      // A student's photo is the student's record: a teacher may set it only where the school lets teachers manage students.
      const photo = await t.request('POST', `/admin/archive/images/${own.id}/select`, {
        cookie: joana,
        payload: { studentId: t.students[0]!.id },
      });
      expect(photo.statusCode).toBe(403);
      expect(photo.json().error.code).toBe('forbidden');

      // Their own: everything.
      const edited = await t.request('PATCH', `/admin/archive/images/${own.id}`, { cookie: joana, payload: { description: 'Minha aula' } });
      expect(edited.statusCode, edited.body).toBe(200);
      const moved = await t.request('POST', '/admin/archive/images/bulk', {
        cookie: joana,
        payload: { action: 'album', albumName: 'Aulas', ids: [own.id] },
      });
      expect(moved.json()).toEqual({ message: '1 imagem atualizada com sucesso!', count: 1 });
      // The coordination changes anyone's.
      const byCoordination = await t.request('PATCH', `/admin/archive/images/${own.id}`, {
        cookie: coordination,
        payload: { isFeatured: true },
      });
      expect(byCoordination.statusCode).toBe(200);
      const deleted = await t.request('DELETE', `/admin/archive/images/${own.id}`, { cookie: joana });
      expect(deleted.json()).toEqual({ message: 'Imagem excluída com sucesso!' });
    },
  );
});

test('the demo archive: two dozen drawn images across categories, uploaders, access levels and albums, with uses and downloads', async () => {
  await t.db.update(admins).set({ adminId: 'admin001' }).where(eq(admins.id, t.admin.id));
  const before = (await t.request('GET', '/admin/archive/summary')).json().stats.total as number;
  await seedDemoArchive(t.db, storage, t.config.dataDir);
  const { stats, facets } = (await t.request('GET', '/admin/archive/summary')).json();
  expect(stats.total - before).toBe(24);
  expect(stats.usage).toBeGreaterThan(0);
  expect(facets.categories.map((c: { category: string }) => c.category)).toEqual(
    expect.arrayContaining(['perfil', 'banner', 'icone', 'ilustracao', 'documento', 'biblioteca', 'galeria', 'outros']),
  );
  expect(facets.uploaders.map((u: { name: string | null }) => u.name)).toEqual(
    expect.arrayContaining(['Prof. Marcos Almeida', null, TEST_ADMIN.name]),
  );
  const marcos = (await t.request('GET', '/admin/archive/images?q=marcos%20almeida')).json();
  expect(marcos.total).toBe(4);
  expect((await archiveIntegrity(t.db, storage)).missingFiles).toEqual([]);
});
