import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  addAdmin,
  addStudents,
  buildTestApp,
  cookieFrom,
  createTestDatabase,
  TEST_ADMIN,
  TEST_PASSWORD,
  testConfig,
  type TestApp,
  type TestDatabase,
} from '../test/test-app.ts';
import { buildApp, BODY_LIMIT_BYTES } from '../app.ts';
import { COMPRESSION_THRESHOLD_BYTES } from './compression.ts';
import { ERROR_MESSAGES } from '../../shared/errors.ts';
import { AREAS } from '../../shared/areas.ts';
import { BUILD_HEADER, BUILD_META, FIRST_ANSWERS_ID, RECENT_TRANSACTIONS_LIMIT } from '../../shared/constants.ts';
import { RETIRED_ASSETS_FILE, webBuildOf } from '../web-assets.ts';
import { firstReadsOf } from '../../shared/first-reads.ts';

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
    expect(response.json()).toMatchObject({ role: 'coordinator' });
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
  const NAME_WITH_MARKUP = 'Ana </script><script>alert(1)</script>';
  const script = `export const welcome = ${JSON.stringify('Bem-vindo ao Méritus! '.repeat(200))};\n`;
  const page =
    '<!doctype html><html lang="pt-BR"><head><meta name="meritus-demo" content="off"><meta name="meritus-build" content="">' +
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
    fs.writeFileSync(path.join(dist, RETIRED_ASSETS_FILE), JSON.stringify({ 'assets/old-Zz0000.js': Date.now() }));
    database = await createTestDatabase();
    await addAdmin(database.db, TEST_ADMIN);
    await addStudents(database.db, [{ studentId: '3900001', name: NAME_WITH_MARKUP }]);
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

  const signIn = async (url: string, payload: object) => cookieFrom(await app.inject({ method: 'POST', url, payload }));
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

  test('the page names its build, and every answer the build the server serves, so a page of an earlier build can tell', async () => {
    const build = webBuildOf(page);
    for (const url of ['/login', '/student/ranking', '/api/health', '/api/auth/me', '/assets/index-AbC123.js', '/assets/nada.js']) {
      expect((await get(url)).headers[BUILD_HEADER.toLowerCase()], url).toBe(build);
    }
    expect((await get('/admin')).body).toContain(`<meta name="${BUILD_META}" content="${build}">`);
    // The record of the earlier builds' files is the build's own: its address is only a path of the app.
    expect((await get(`/${RETIRED_ASSETS_FILE}`)).body).not.toContain('old-Zz0000.js');
  });

  test("an area's paths get the area's page (which preloads its chunks), every other path index.html", async () => {
    const pages = [
      ['/student', 'student'],
      ['/student?aba=1', 'student'],
      ['/student/ranking', 'student'],
      ['/STUDENT/Ranking', 'student'],
      ['/admin', 'admin'],
      ['/admin/settings', 'admin'],
      ['//admin', 'admin'],
      ['/studentx', 'index'],
      ['/administrator', 'index'],
      ['/login', 'index'],
      ['/', 'index'],
    ] as const;
    for (const [url, expected] of pages) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      const area = /<!-- (student|admin) -->/.exec(response.body)?.[1] ?? 'index';
      expect(area, url).toBe(expected);
      expect(response.body, url).toContain('<meta name="meritus-demo" content="off">');
      // Nobody signed in: no answers in the page, which any cache may keep if it asks again.
      expect(response.body, url).not.toContain(FIRST_ANSWERS_ID);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
    // The pages' files are not served raw (without the demo flag and the reads).
    for (const url of ['/index.html', '/student.html', '/admin.html']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('<html');
    }
  });

  test("a signed-in page comes with its first reads' answers, as the API gives them to that visitor, and no cache keeps it", async () => {
    const answersIn = (body: string) => {
      const json = new RegExp(`<script type="application/json" id="${FIRST_ANSWERS_ID}">(.*?)</script>`).exec(body)?.[1];
      return json === undefined ? undefined : (JSON.parse(json) as Record<string, unknown>);
    };
    const asVisitor = (url: string, cookie: string) => app.inject({ url, headers: { cookie, 'accept-encoding': 'br' } });
    const student = await signIn('/api/auth/student/login', { studentId: '3900001', password: TEST_PASSWORD });
    const admin = await signIn('/api/auth/admin/login', { email: TEST_ADMIN.email, password: TEST_PASSWORD });
    const session = ['/api/auth/me', '/api/settings'];
    const pages = [
      [student, '/student', [...session, '/api/me/summary', '/api/tags/active', `/api/me/transactions?limit=${RECENT_TRANSACTIONS_LIMIT}`]],
      [student, '/student?aba=1', firstReadsOf('/student')],
      [student, '/student/ranking', session],
      [student, '/student/', session],
      // A read the visitor may not make (a student's /admin: the dashboard) is left to the web, which is refused as before.
      [student, '/admin', session],
      // The dashboard and its period picker's years (decision 036).
      [admin, '/admin', [...session, '/api/admin/dashboard', '/api/admin/school-years']],
      [admin, '/admin/settings', session],
      // Spellings the router reads as the area but the page's code does not (main.tsx): no reads, no answers.
      [admin, '//admin', []],
      [admin, '/%61dmin', []],
      [admin, '/login', []],
      [admin, '/', []],
    ] as const;
    for (const [cookie, url, reads] of pages) {
      const response = await asVisitor(url, cookie);
      expect(response.statusCode, url).toBe(200);
      const answers = answersIn(decoded(response));
      if (reads.length === 0) {
        expect(answers, url).toBeUndefined();
        expect(response.headers['cache-control'], url).toBe('no-cache');
        continue;
      }
      expect(response.headers['cache-control'], url).toBe('private, no-store');
      expect(Object.keys(answers ?? {}), url).toEqual(reads);
      for (const read of reads) {
        const asked = (await app.inject({ url: read, headers: { cookie } })).json<unknown>();
        // The dashboard says when it was made; the rest is the same.
        const sameBut = asked && typeof asked === 'object' && 'generatedAt' in asked ? { generatedAt: expect.any(String) } : {};
        expect(answers?.[read], `${url} ${read}`).toEqual(Array.isArray(asked) ? asked : { ...(asked as object), ...sameBut });
      }
    }
    // The student's name ends no script element: every < of an answer is escaped.
    const body = decoded(await asVisitor('/student', student));
    expect(body.match(/<\/script>/g)?.length).toBe(2);
    expect(answersIn(body)?.['/api/auth/me']).toMatchObject({ student: { name: NAME_WITH_MARKUP } });
    // A session that ended (or a forged cookie): the page comes as for anyone, and the web's own reads are refused.
    const ended = await asVisitor('/student', 'meritus_session=forjado');
    expect(answersIn(decoded(ended))).toBeUndefined();
    expect(ended.headers['cache-control']).toBe('no-cache');
  });
});
