import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from './test/test-app.ts';

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await buildTestApp();
  cookie = await t.loginAdmin();
});
afterAll(async () => t?.close());

const UPLOAD_ROUTES = [
  '/api/admin/archive/images',
  '/api/admin/students/import/preview',
  '/api/admin/students/import',
  '/api/admin/settings/logo',
];

test('a malformed multipart body is refused as bad data on every upload route, never a server error', async () => {
  const student = t.students[0]!;
  const bodies = [
    // No boundary in the content type.
    { contentType: 'multipart/form-data', payload: 'x' },
    // A part cut short: the body ends before its closing boundary.
    {
      contentType: 'multipart/form-data; boundary=xyz',
      payload: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nabc',
    },
  ];
  for (const url of [...UPLOAD_ROUTES, `/api/admin/students/${student.id}/photo`]) {
    for (const { contentType, payload } of bodies) {
      const response = await t.app.inject({ method: 'POST', url, headers: { cookie, 'content-type': contentType }, payload });
      expect(response.statusCode, `${url} ${contentType}`).toBe(400);
      expect(response.json().error, url).toMatchObject({ code: 'bad_request', message: 'Dados inválidos' });
    }
  }
});
