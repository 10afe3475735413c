import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { multipartBody, png } from '../modules/archive/archive-test-kit.ts';
import type { ArchiveItem, ArchiveUploadResult } from '../../shared/archive.ts';
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
  type TestStudent,
} from '../test/test-app.ts';

/** Eight characters of Crockford's base32 (no I, L, O, U). */
const OWN_ID = /^[0-9A-HJKMNP-TV-Z]{8}$/;

describe('X-Request-Id on every answer', () => {
  let t: TestApp;
  let behindProxy: TestApp;
  beforeAll(async () => {
    [t, behindProxy] = await Promise.all([buildTestApp(), buildTestApp({ env: { TRUST_PROXY: 'on' } })]);
  });
  afterAll(async () => Promise.all([t?.close(), behindProxy?.close()]));

  test('an answer, a refusal, a route that does not exist and a path the router cannot read each carry a fresh id of 8 base32 characters', async () => {
    const answers = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/health' }),
      t.app.inject({ method: 'GET', url: '/api/auth/me' }),
      t.app.inject({ method: 'GET', url: '/api/nada-aqui' }),
      t.app.inject({ method: 'GET', url: '/api/students/%E0%A4%A' }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 401, 404, 400]);
    const ids = answers.map((answer) => answer.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(OWN_ID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("behind a trusted proxy, the proxy's sane id is kept, so its log and ours share it", async () => {
    const answer = await behindProxy.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': '5f2a9c0e-7b1d-4e8a-9c3f-2d6b8a1e4f70' },
    });
    expect(answer.headers['x-request-id']).toBe('5f2a9c0e-7b1d-4e8a-9c3f-2d6b8a1e4f70');
  });

  test('a hostile incoming id (markup, spaces, a CRLF-ish payload, over 64 characters, too short) is never echoed: a fresh one is made', async () => {
    const hostile = ['<script>alert(1)</script>', 'a b c d e', 'abc%0d%0aSet-Cookie:x=1', 'a'.repeat(65), 'ab', '../../etc/passwd'];
    for (const incoming of hostile) {
      const answer = await behindProxy.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': incoming } });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['x-request-id'], incoming).toMatch(OWN_ID);
    }
  });

  test('without a trusted proxy, an incoming id is ignored however sane: anyone could send it', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'nginx-7b1d4e8a9c3f' } });
    expect(answer.headers['x-request-id']).toMatch(OWN_ID);
  });
});

describe('one JSON log line per request', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let student: TestStudent;
  let dataDir: string;
  const lines: Record<string, unknown>[] = [];
  let text = '';

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig({ LOG_LEVEL: 'info' });
    dataDir = config.dataDir;
    app = await buildApp(config, database, {
      logStream: {
        write(line: string) {
          text += line;
          lines.push(JSON.parse(line) as Record<string, unknown>);
        },
      },
    });
    await addAdmin(database.db, TEST_ADMIN);
    student = (
      await addStudents(database.db, [
        { studentId: '3000001', name: 'Ana Beatriz Souza', email: 'ana@escola.test', birthDate: '2010-03-14' },
      ])
    )[0]!;
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const linesOf = (requestId: unknown) => lines.filter((line) => line.reqId === requestId);

  test('a sign-in and a signed-in request: id, route pattern, status, time, role and id of the actor; no password, cookie, token, name or email', async () => {
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/student/login',
      payload: { studentId: '3000001', password: TEST_PASSWORD },
    });
    expect(signIn.statusCode).toBe(200);
    const cookie = cookieFrom(signIn);
    const token = cookie.split('=')[1]!;
    const me = await app.inject({ method: 'GET', url: '/api/ranking?busca=Ana', headers: { cookie } });
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      payload: { email: TEST_ADMIN.email, password: 'senha-errada-123' },
    });
    expect(wrong.statusCode).toBe(401);

    // Exactly one line each (Fastify's 'incoming request' and 'request completed' are gone).
    const [signInLine] = linesOf(signIn.headers['x-request-id']);
    expect(linesOf(signIn.headers['x-request-id'])).toHaveLength(1);
    expect(signInLine).toMatchObject({
      level: 30,
      msg: 'requisição',
      method: 'POST',
      route: '/api/auth/student/login',
      status: 200,
      role: null,
      actor: null,
    });
    expect(signInLine!.ms).toEqual(expect.any(Number));

    const meLines = linesOf(me.headers['x-request-id']);
    expect(meLines).toHaveLength(1);
    // The pattern, never the URL: its query could name someone.
    expect(meLines[0]).toMatchObject({ method: 'GET', route: '/api/ranking', status: 200, role: 'student', actor: student.id });

    expect(linesOf(wrong.headers['x-request-id'])).toEqual([
      expect.objectContaining({ route: '/api/auth/admin/login', status: 401, role: null }),
    ]);

    for (const secret of [
      TEST_PASSWORD,
      'senha-errada-123',
      token,
      'meritus_session',
      'Ana Beatriz',
      'ana@escola.test',
      TEST_ADMIN.email,
      'busca=',
    ]) {
      expect(text, secret).not.toContain(secret);
    }
  });

  test('serving an archive file (original, thumbnail, download) logs its request and nothing worse: no false "file missing", no error', async () => {
    const admin = cookieFrom(
      await app.inject({ method: 'POST', url: '/api/auth/admin/login', payload: { email: TEST_ADMIN.email, password: TEST_PASSWORD } }),
    );
    const body = multipartBody([{ name: 'quadra.png', bytes: await png(16, 16, [10, 120, 200]), type: 'image/png' }]);
    const uploaded = await app.inject({
      method: 'POST',
      url: '/api/admin/archive/images',
      headers: { ...body.headers, cookie: admin },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const item = (uploaded.json() as ArchiveUploadResult).results[0] as { item: ArchiveItem };
    const worse = () => lines.filter((line) => Number(line.level) >= 40);
    const before = worse().length;
    for (const url of [item.item.fileUrl, item.item.thumbnailUrl!, item.item.downloadUrl]) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(linesOf(response.headers['x-request-id'])).toHaveLength(1);
    }
    expect(worse().slice(before)).toEqual([]);
  });
});
