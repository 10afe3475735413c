import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addStudents, buildTestApp, createTestDatabase, testConfig, type TestApp, type TestDatabase } from '../test/test-app.ts';
import { buildApp, BODY_LIMIT_BYTES } from '../app.ts';
import { COMPRESSION_THRESHOLD_BYTES } from './compression.ts';
import { ERROR_MESSAGES } from '../../shared/errors.ts';
import { AREAS } from '../../shared/areas.ts';
import { RECENT_TRANSACTIONS_LIMIT } from '../../shared/constants.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

function decoded(response: LightMyRequestResponse): string {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(response.rawPayload).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(response.rawPayload).toString('utf8');
  if (encoding === undefined) return response.rawPayload.toString('utf8');
  throw new Error(`unexpected encoding ${String(encoding)}`);
}

function varies(response: LightMyRequestResponse): boolean {
  return String(response.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/)
    .includes('accept-encoding');
}

describe('API answers', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await buildTestApp();
    // A class of 40: the list is several KB, as the 2,000-student one is hundreds.
    await addStudents(
      t.db,
      Array.from({ length: 40 }, (_, n) => ({
        studentId: String(4100000 + n),
        name: `Estudante Compressão ${n}`,
        grade: '2º EM - Turma C',
      })),
    );
    admin = await t.loginAdmin();
  });
  afterAll(async () => t.close());

  const list = (acceptEncoding?: string) =>
    t.app.inject({
      url: '/api/admin/students',
      headers: { cookie: admin, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
    });

  test('a big answer comes in the encoding asked for (Brotli preferred), the same JSON, still no-store; plain when none is asked', async () => {
    const plain = await list();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(4 * COMPRESSION_THRESHOLD_BYTES);
    expect(plain.headers['cache-control']).toBe('no-store');

    for (const [asked, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['deflate, gzip;q=0.5', 'gzip'],
    ] as const) {
      const response = await list(asked);
      expect(response.statusCode, asked).toBe(200);
      expect(response.headers['content-encoding'], asked).toBe(encoding);
      expect(varies(response), asked).toBe(true);
      expect(response.headers['cache-control'], asked).toBe('no-store');
      expect(response.rawPayload.length, asked).toBeLessThan(plain.rawPayload.length / 3);
      expect(JSON.parse(decoded(response)), asked).toEqual(plain.json());
    }

    for (const asked of ['identity', 'deflate', 'compress']) {
      const response = await list(asked);
      expect(response.headers['content-encoding'], asked).toBeUndefined();
      expect(response.json(), asked).toEqual(plain.json());
    }
  });

  test('a small answer goes out as it is, whatever the client accepts', async () => {
    const response = await t.app.inject({ url: '/api/auth/me', headers: { cookie: admin, 'accept-encoding': 'gzip, br' } });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toMatchObject({ role: 'admin' });
  });

  test('a CSV download may come compressed and stays a no-store attachment', async () => {
    const plain = await t.app.inject({ url: '/api/admin/students/export.csv', headers: { cookie: admin } });
    const response = await t.app.inject({ url: '/api/admin/students/export.csv', headers: { cookie: admin, 'accept-encoding': 'gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['content-disposition']).toBe(plain.headers['content-disposition']);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename=".+\.csv"; filename\*=UTF-8''.+\.csv$/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(decoded(response)).toBe(plain.body);
    expect(decoded(response)).toContain('Estudante Compressão 39');
  });

  test('a body over the limit is still refused with 413 in our shape, compressed or not', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/students',
      headers: { cookie: admin, 'content-type': 'application/json', 'accept-encoding': 'gzip, br' },
      payload: JSON.stringify({ name: 'x'.repeat(BODY_LIMIT_BYTES) }),
    });
    expect(response.statusCode).toBe(413);
    expect(JSON.parse(decoded(response))).toEqual({ error: { code: 'body_too_large', message: ERROR_MESSAGES.body_too_large } });
  });

  test('a gzip request body is not inflated: what arrives is refused as sent, nothing is created', async () => {
    const before = (await list()).json();
    const body = zlib.gzipSync(
      JSON.stringify({ studentId: '4199999', name: 'Estudante Comprimido', password: 'senha-123', grade: '1º EM - Turma A' }),
    );
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/students',
      headers: { cookie: admin, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: body,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'bad_request', message: ERROR_MESSAGES.bad_request } });
    expect((await list()).json()).toEqual(before);
  });

  test('the event stream is never compressed: with Accept-Encoding gzip, br each event arrives while the stream is open', async () => {
    const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const [ana, bruno] = t.students;
    const cookie = await t.loginStudent(ana!.studentId);
    const request = http.get(`${baseUrl}/api/events`, { headers: { cookie, 'accept-encoding': 'gzip, br' } });
    try {
      const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
        request.once('response', resolve);
        request.once('error', reject);
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/event-stream');
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers['cache-control']).toBe('no-store, no-transform');

      let text = '';
      let ended = false;
      response.setEncoding('utf8');
      response.on('end', () => (ended = true));
      const waitFor = (what: string) =>
        new Promise<void>((resolve) => {
          const check = () => {
            if (!text.includes(what)) return;
            response.off('data', check);
            resolve();
          };
          response.on('data', check);
          check();
        });
      response.on('data', (chunk: string) => (text += chunk));

      await waitFor('event: ready\n');
      expect(ended).toBe(false);
      // Something happens after the stream opened: its event comes through on its own.
      const award = await t.app.inject({
        method: 'POST',
        url: `/api/admin/students/${bruno!.id}/meritus`,
        headers: { cookie: admin },
        payload: { type: 'reward', amount: 3, description: 'Monitoria' },
      });
      expect(award.statusCode).toBe(201);
      await waitFor('event: ranking\n');
      expect(ended).toBe(false);
    } finally {
      request.destroy();
    }
  });
});

describe('the built front end', () => {
  let dist: string;
  let app: FastifyInstance;
  let database: TestDatabase;
  let dataDir: string;
  const script = `export const welcome = ${JSON.stringify('Bem-vindo ao Méritus! '.repeat(200))};\n`;
  const page =
    '<!doctype html><html lang="pt-BR"><head><meta name="meritus-demo" content="off">' +
    '<script type="module" src="/assets/index-AbC123.js"></script></head>' +
    `<body><div id="root"></div><!-- ${'espaço '.repeat(200)} --></body></html>`;

  beforeAll(async () => {
    // What a build leaves: the page, a hashed asset with the .br and .gz copies vite.config.ts writes, a tiny one without.
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), page);
    for (const area of AREAS) fs.writeFileSync(path.join(dist, `${area}.html`), page.replace('</head>', `<!-- ${area} --></head>`));
    fs.writeFileSync(path.join(dist, 'assets', 'index-AbC123.js'), script);
    fs.writeFileSync(path.join(dist, 'assets', 'index-AbC123.js.br'), zlib.brotliCompressSync(script));
    fs.writeFileSync(path.join(dist, 'assets', 'index-AbC123.js.gz'), zlib.gzipSync(script));
    fs.writeFileSync(path.join(dist, 'assets', 'tiny-XyZ789.js'), 'export const x = 1;\n');
    database = await createTestDatabase();
    const config = { ...testConfig(), webDist: dist };
    dataDir = config.dataDir;
    app = await buildApp(config, database);
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
    fs.rmSync(dist, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  test('a hashed asset is served from its .br or .gz copy as the browser accepts, cached for a year, varying on Accept-Encoding', async () => {
    for (const [asked, encoding, file] of [
      ['gzip, deflate, br', 'br', 'index-AbC123.js.br'],
      ['gzip', 'gzip', 'index-AbC123.js.gz'],
      [undefined, undefined, 'index-AbC123.js'],
    ] as const) {
      const response = await get('/assets/index-AbC123.js', asked);
      expect(response.statusCode, asked).toBe(200);
      expect(response.headers['content-encoding'], asked).toBe(encoding);
      expect(response.headers['content-type'], asked).toMatch(/^(?:text|application)\/javascript/);
      expect(response.headers['cache-control'], asked).toBe(IMMUTABLE);
      expect(varies(response), asked).toBe(true);
      expect(response.rawPayload.equals(fs.readFileSync(path.join(dist, 'assets', file))), asked).toBe(true);
      expect(decoded(response), asked).toBe(script);
    }
  });

  test('an asset without compressed copies goes out as it is, not compressed per request', async () => {
    const response = await get('/assets/tiny-XyZ789.js', 'gzip, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.body).toBe('export const x = 1;\n');
  });

  test('the page is revalidated on every visit (no-cache) and comes compressed when asked', async () => {
    for (const url of ['/', '/student/transfer']) {
      const compressed = await get(url, 'gzip, br');
      expect(compressed.statusCode, url).toBe(200);
      expect(compressed.headers['cache-control'], url).toBe('no-cache');
      expect(compressed.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(compressed.headers['content-encoding'], url).toBe('br');
      expect(decoded(compressed), url).toContain('<meta name="meritus-demo" content="off">');

      const plain = await get(url);
      expect(plain.headers['cache-control'], url).toBe('no-cache');
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.body, url).toBe(decoded(compressed));
    }
  });

  test("an area's paths get the area's page (which preloads its chunks and first reads), every other path index.html", async () => {
    // Reads are preloaded only where the web asks for them as the page starts: an unused one would answer a later read.
    const session = ['/api/auth/me', '/api/settings'];
    const studentHome = [...session, '/api/me/summary', '/api/tags/active', `/api/me/transactions?limit=${RECENT_TRANSACTIONS_LIMIT}`];
    const pages = [
      ['/student', 'student', studentHome],
      ['/student?aba=1', 'student', studentHome],
      ['/student/', 'student', session],
      ['/student/ranking', 'student', session],
      ['/STUDENT', 'student', session],
      ['/STUDENT/Ranking', 'student', session],
      ['/admin', 'admin', [...session, '/api/admin/dashboard']],
      ['/admin/settings', 'admin', session],
      // Spellings the router reads as the area but the page's code does not (main.tsx): no reads.
      ['//admin', 'admin', []],
      ['/%61dmin', 'admin', []],
      ['/studentx', 'index', []],
      ['/administrator', 'index', []],
      ['/login', 'index', []],
      ['/', 'index', []],
    ] as const;
    for (const [url, expected, reads] of pages) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      const area = /<!-- (student|admin) -->/.exec(response.body)?.[1] ?? 'index';
      expect(area, url).toBe(expected);
      expect(
        [...response.body.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g)].map((match) => match[1]),
        url,
      ).toEqual(reads);
      expect(response.body, url).toContain('<meta name="meritus-demo" content="off">');
    }
    // The pages' files are not served raw (without the demo flag and the reads).
    for (const url of ['/index.html', '/student.html', '/admin.html']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('<html');
    }
  });
});
