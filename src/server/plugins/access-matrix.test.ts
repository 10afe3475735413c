import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { addAdmin, addStudents, buildTestApp, cookieFrom, type TestApp } from '../test/test-app.ts';
import { ledgerEntries, students, studentTags } from '../db/schema.ts';
import { ERROR_MESSAGES } from '../../shared/errors.ts';
import type { Access } from '../../shared/contract/route.ts';
import { ALL_ROUTES } from '../../shared/contract/routes.ts';
import { hasPermission } from '../../shared/permissions.ts';
import { DEFAULT_RULES } from '../../shared/settings.ts';

/**
 * Every registered route (Fastify's own table, so a new route cannot escape), called by
 * every kind of actor, under every spelling of its path that reaches it. A refused actor
 * gets exactly the error body; nobody but the coordination, Bruno's teacher or the student
 * themself ever sees a student's private fields.
 */
type Actor = 'anonymous' | 'studentA' | 'studentB' | 'teacherOfB' | 'teacherOfOther' | 'coordinator' | 'guardianOfA';
const ACTORS: Actor[] = ['anonymous', 'studentA', 'studentB', 'teacherOfB', 'teacherOfOther', 'coordinator', 'guardianOfA'];
const GUARDIAN = { email: 'familia.matriz@exemplo.test', password: 'senha-da-familia-1' };
const TEACHERS = { teacherOfB: 'prof.matriz@escola.test', teacherOfOther: 'prof.outra@escola.test' } as const;
const isTeacher = (actor: Actor): actor is keyof typeof TEACHERS => actor in TEACHERS;

/** Bruno's private fields: no other student and no anonymous caller may ever receive them. */
const B_PRIVATE = { email: 'bruno.privado@escola.test', birthDate: '2009-07-21' };

/**
 * Who each route admits, written out here rather than read from the route itself, so a
 * route declared with the wrong access fails this test. A new route must be added.
 */
const EXPECTED_ACCESS: Record<Access, string[]> = {
  public: [
    'POST /api/auth/student/login',
    'POST /api/auth/admin/login',
    'GET /api/health',
    'GET /api/openapi.json',
    // Declared public; each answer is decided by the image's access level (archive.test.ts covers it).
    'GET /api/archive/files/:key',
    'GET /api/archive/files/:key/:variant',
    // The login page's school name, logo and demo flag (no secrets).
    'GET /api/settings/public',
    // Sign-in with the school's accounts: the browser comes and goes before anyone is signed in.
    'GET /api/auth/oidc/:provider/start',
    'GET /api/auth/oidc/:provider/callback',
    // The privacy page (decision 030): the school's name and the contact it wrote.
    'GET /api/privacy',
    // Responsáveis (decision 037): a guardian's account is made with a child's code, then signs in.
    'POST /api/auth/guardian/signup',
    'POST /api/auth/guardian/login',
    // Email (decision 038): the weekly summary's one-click opt-out, by the signed link of the email itself.
    'POST /api/mail/unsubscribe',
    // The same, from a mail reader's own button (RFC 8058), and that address opened in a browser.
    'POST /api/mail/unsubscribe/one-click',
    'GET /api/mail/unsubscribe/one-click',
  ],
  signedIn: [
    'POST /api/auth/logout',
    'GET /api/auth/me',
    'GET /api/events',
    'GET /api/ranking',
    'GET /api/tags/active',
    'GET /api/settings',
    'GET /api/store/items/:id/image',
    // The Hall da Fama (decision 035): everyone reads it under the privacy rules; a student downloads only their own certificates.
    'GET /api/hall-of-fame',
    'GET /api/hall-of-fame/honours/:id/certificate.pdf',
  ],
  student: [
    'POST /api/meritus/transfers',
    'POST /api/estelecas/transfers',
    'GET /api/me/transactions',
    'GET /api/me/estelecas',
    'GET /api/me/operations',
    'GET /api/me/receipts/:code',
    'GET /api/students/directory',
    'GET /api/me/summary',
    'PUT /api/me/store-goal',
    'PUT /api/me/ranking-visibility',
    'PUT /api/tags/:tagId/like',
    'DELETE /api/tags/:tagId/like',
    'GET /api/store/items',
    'POST /api/store/items/:id/orders',
    'POST /api/store/items/:id/contributions',
    'GET /api/me/orders',
    'POST /api/me/orders/:id/cancel',
    'POST /api/me/password',
  ],
  guardian: [
    'POST /api/family/children',
    'GET /api/family/children',
    'GET /api/family/children/:id/summary',
    'PUT /api/family/children/:id/image-consent',
    'GET /api/family/mail',
    'PUT /api/family/mail',
  ],
  staffArea: [
    'GET /api/admin/operations',
    'GET /api/admin/operations/authors',
    'GET /api/admin/meritus/recent',
    'GET /api/admin/estelecas/history',
    'GET /api/admin/estelecas/ranking',
    'GET /api/admin/students',
    'GET /api/admin/students/export.csv',
    'GET /api/admin/ledger/export.csv',
    'GET /api/admin/dashboard',
    'GET /api/admin/reason-presets',
    'GET /api/admin/reports/overview',
    'GET /api/admin/reports/timeline',
    'GET /api/admin/reports/reasons',
    'GET /api/admin/reports/store',
    'GET /api/admin/reports/export',
    'GET /api/admin/reports/statement.pdf',
    'GET /api/admin/reports/certificate.pdf',
    'GET /api/admin/reports/workbook.xlsx',
    'GET /api/admin/reports/turma.pdf',
    'GET /api/admin/reports/statements.pdf',
    'GET /api/admin/reports/top-certificates.pdf',
    'GET /api/admin/archive/images',
    'POST /api/admin/archive/images',
    'GET /api/admin/archive/summary',
    'POST /api/admin/archive/images/bulk',
    'GET /api/admin/archive/images/:id',
    'PATCH /api/admin/archive/images/:id',
    'DELETE /api/admin/archive/images/:id',
    'PUT /api/admin/archive/images/:id/favourite',
    'POST /api/admin/archive/images/:id/copy-link',
    'POST /api/admin/archive/images/:id/select',
    'POST /api/admin/archive/images/:id/share',
    'DELETE /api/admin/archive/images/:id/share',
    'GET /api/admin/turmas',
    'GET /api/admin/store/items',
    'GET /api/admin/store/orders',
    'GET /api/admin/store/orders/pick-list.pdf',
    'POST /api/admin/store/orders/:id/deliver',
    'POST /api/admin/store/orders/:id/refuse',
    'POST /api/admin/store/orders/deliver',
    'PATCH /api/admin/me',
    'GET /api/admin/school-years',
  ],
  award: [
    'POST /api/admin/students/:id/meritus',
    'POST /api/admin/students/:id/estelecas',
    'POST /api/admin/operations/bulk',
    'POST /api/admin/operations/:id/reversal',
    'GET /api/me/budget',
    'PUT /api/admin/students/:id/tags/:kind',
    'PATCH /api/admin/students/:id/tags/:kind',
    'DELETE /api/admin/students/:id/tags/:kind',
  ],
  manageStudents: [
    'POST /api/admin/students',
    'PATCH /api/admin/students/:id',
    'DELETE /api/admin/students/:id',
    'POST /api/admin/students/:id/password',
    'POST /api/admin/students/:id/photo',
    'PUT /api/admin/students/:id/photo',
    'DELETE /api/admin/students/:id/photo',
    'POST /api/admin/students/import/preview',
    'POST /api/admin/students/import',
    'GET /api/admin/students/import/template',
    'GET /api/admin/students/:id/personal-data',
    'POST /api/admin/students/access-cards',
    'POST /api/admin/students/:id/guardian-codes',
    'GET /api/admin/students/:id/guardians',
    'DELETE /api/admin/guardians/:id/students/:studentId',
    'POST /api/admin/guardian-letters',
    'GET /api/admin/mail',
    'POST /api/admin/students/:id/guardian-letter-email',
  ],
  manageSchool: [
    'PUT /api/admin/dashboard/goals/:id',
    'POST /api/admin/reason-presets',
    'DELETE /api/admin/reason-presets/:id',
    'GET /api/admin/system/overview',
    'GET /api/admin/system/entities/:entity',
    'GET /api/admin/system/entities/:entity/export.csv',
    'GET /api/admin/system/monitoring',
    'GET /api/admin/system/configuration',
    'GET /api/admin/diagnostics/logs',
    'DELETE /api/admin/diagnostics/logs',
    'POST /api/admin/diagnostics/run',
    'POST /api/admin/diagnostics/fixes/administrators',
    'GET /api/admin/diagnostics/fixes/:fix/preview',
    'POST /api/admin/diagnostics/fixes/:fix',
    'PUT /api/admin/settings/school',
    'POST /api/admin/settings/logo',
    'DELETE /api/admin/settings/logo',
    'PUT /api/admin/settings/rules',
    'POST /api/admin/turmas',
    'PATCH /api/admin/turmas/:id',
    'DELETE /api/admin/turmas/:id',
    'GET /api/admin/staff',
    'POST /api/admin/staff',
    'PATCH /api/admin/staff/:id',
    'POST /api/admin/staff/:id/password',
    'POST /api/admin/store/items',
    'PATCH /api/admin/store/items/:id',
    'DELETE /api/admin/store/items/:id',
    'POST /api/admin/school-years',
    'PATCH /api/admin/school-years/:id',
    'POST /api/admin/rollover/preview',
    'POST /api/admin/rollover/apply',
    'GET /api/admin/students/:id/personal-data-export',
    'POST /api/admin/students/:id/erase',
    'GET /api/admin/students/:id/access-log',
    'PUT /api/admin/students/:id/image-consent',
    'GET /api/admin/settings/privacy',
    'PUT /api/admin/settings/privacy',
    'GET /api/admin/privacy/retention-preview',
  ],
};

function expectedAccess(method: string, url: string): Access | undefined {
  const key = `${method === 'HEAD' ? 'GET' : method} ${url}`;
  return (Object.keys(EXPECTED_ACCESS) as Access[]).find((access) => EXPECTED_ACCESS[access].includes(key));
}

let t: TestApp;
const cookies = new Map<Actor, string>();

beforeAll(async () => {
  // Email on (decision 038), so the letter by email acts for the teacher it admits; nothing here runs the outbox.
  t = await buildTestApp({
    env: { SMTP_URL: 'smtp://127.0.0.1:9', SMTP_FROM: 'Matriz <matriz@escola.test>', PUBLIC_URL: 'http://meritus.matriz.test' },
  });
  const bruno = t.students[1]!;
  await t.db.update(students).set(B_PRIVATE).where(eq(students.id, bruno.id));
  cookies.set('studentA', await t.loginStudent(t.students[0]!.studentId));
  cookies.set('studentB', await t.loginStudent(bruno.studentId));
  // Bruno's teacher teaches his turma; the other teacher teaches Ana's.
  const turmas = { teacherOfB: bruno.turmaId, teacherOfOther: t.students[0]!.turmaId };
  for (const actor of ['teacherOfB', 'teacherOfOther'] as const) {
    const email = TEACHERS[actor];
    await addAdmin(t.db, { email, name: `Professora ${actor}`, role: 'teacher', turmaIds: [turmas[actor]] });
    cookies.set(actor, await t.loginAdmin(email));
  }
  cookies.set('coordinator', await t.loginAdmin());
  // Ana's guardian, by the code the coordination made for her.
  const code = await t.request('POST', `/admin/students/${t.students[0]!.id}/guardian-codes`);
  const signup = await t.app.inject({
    method: 'POST',
    url: '/api/auth/guardian/signup',
    payload: { code: code.json().code, name: 'Família da Ana', ...GUARDIAN },
  });
  cookies.set('guardianOfA', cookieFrom(signup));
  await t.app.ready();
});
afterAll(async () => {
  await t.close();
});

/** Routes every signed-in user reaches but a guardian: the school's ranking (a family sees the child's position alone). */
const NOT_FOR_GUARDIANS = new Set(['GET /api/ranking']);

/** The status a refused actor gets, or null when the route admits them. */
function refusal(access: Access, actor: Actor, key: string): 401 | 403 | null {
  if (access === 'public') return null;
  if (actor === 'anonymous') return 401;
  if (access === 'signedIn') return actor === 'guardianOfA' && NOT_FOR_GUARDIANS.has(key) ? 403 : null;
  if (access === 'student') return actor === 'studentA' || actor === 'studentB' ? null : 403;
  if (access === 'guardian') return actor === 'guardianOfA' ? null : 403;
  if (actor === 'guardianOfA') return 403;
  if (actor === 'coordinator') return null;
  return isTeacher(actor) && hasPermission('teacher', DEFAULT_RULES, access) ? null : 403;
}

/** A concrete path for a route pattern: ids that match nothing, so no allowed call changes anybody's data. */
function concretePath(pattern: string): string {
  return pattern
    .replace(':kind', 'leader')
    .replace(/:\w+/g, () => randomUUID())
    .replace('*', 'nao-existe.webp');
}

/** Spellings of one path that the router reads as the same route. */
function sameRouteSpellings(path: string): Record<string, string> {
  const encodeFirstLetters = path
    .split('/')
    .map((segment) => (/^[a-z]/.test(segment) ? `%${segment.charCodeAt(0).toString(16)}${segment.slice(1)}` : segment))
    .join('/');
  return {
    plain: path,
    'percent-encoded letters': encodeFirstLetters,
    'doubled slashes': path.replace(/\//g, '//'),
    'trailing slash': `${path}/`,
  };
}

/** A spelling that reaches no route: paths are case-sensitive. */
function mixedCase(path: string): string {
  return path.replace(/^\/api\/(\w)/, (_match, letter: string) => `/API/${letter.toUpperCase()}`);
}

/** The reads answered with an ETag and `private, no-cache` (a HEAD of them too, which Fastify answers from the GET). */
const REVALIDATED = new Set(ALL_ROUTES.filter((route) => route.revalidate).map((route) => route.id));

function body(response: LightMyRequestResponse): string {
  return response.body;
}

test('every route × every actor × every spelling: refused with 401/403 before anything runs, admitted otherwise, no private field leaks', async () => {
  const routes = t.app.declaredRoutes.filter((route) => route.url.startsWith('/api/'));
  const apiRoutes = new Set(routes.map((route) => `${route.method} ${route.url}`));
  expect(apiRoutes.size).toBeGreaterThan(40);
  let calls = 0;
  const failures: string[] = [];

  for (const route of routes) {
    const access = expectedAccess(route.method, route.url);
    if (access === undefined) {
      failures.push(`${route.method} ${route.url}: not in EXPECTED_ACCESS (declared '${route.options.config?.access}')`);
      continue;
    }
    const path = concretePath(route.url);
    const hasBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
    for (const actor of ACTORS) {
      const expected = refusal(access, actor, `${route.method === 'HEAD' ? 'GET' : route.method} ${route.url}`);
      // The live stream never ends on its own; admitted callers are covered by the realtime tests.
      if (expected === null && route.url === '/api/events') continue;
      let plainStatus: number | undefined;
      for (const [spelling, url] of Object.entries({ ...sameRouteSpellings(path), 'mixed case': mixedCase(path) })) {
        // Signing out ends the caller's session: each admitted call uses a session of its own.
        const cookie =
          expected === null && route.url === '/api/auth/logout'
            ? actor === 'coordinator' || isTeacher(actor)
              ? await t.loginAdmin(isTeacher(actor) ? TEACHERS[actor] : undefined)
              : actor === 'guardianOfA'
                ? cookieFrom(await t.app.inject({ method: 'POST', url: '/api/auth/guardian/login', payload: GUARDIAN }))
                : await t.loginStudent(t.students[actor === 'studentA' ? 0 : 1]!.studentId)
            : cookies.get(actor);
        const response = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers: cookie ? { cookie } : {},
          ...(hasBody ? { payload: {} } : {}),
        });
        calls += 1;
        const where = `${route.method} ${url} as ${actor} (${spelling})`;
        const text = body(response);
        if (spelling === 'mixed case') {
          if (response.statusCode !== 404) failures.push(`${where}: ${response.statusCode}, expected 404`);
          continue;
        }
        if (response.statusCode >= 500) failures.push(`${where}: ${response.statusCode} ${text.slice(0, 200)}`);
        if (expected !== null) {
          const code = expected === 401 ? 'unauthenticated' : 'forbidden';
          const expectedBody = route.method === 'HEAD' ? '' : JSON.stringify({ error: { code, message: ERROR_MESSAGES[code] } });
          if (response.statusCode !== expected || text !== expectedBody) {
            failures.push(`${where}: ${response.statusCode} ${text.slice(0, 200)}, expected ${expected}`);
          }
        } else if (response.statusCode === 401 || response.statusCode === 403) {
          failures.push(`${where}: refused with ${response.statusCode} though the route admits ${actor}`);
        }
        if (spelling === 'plain') plainStatus = response.statusCode;
        else if (response.statusCode !== plainStatus)
          failures.push(`${where}: ${response.statusCode}, the plain path answered ${plainStatus}`);
        if (actor === 'anonymous' || actor === 'studentA' || actor === 'teacherOfOther' || actor === 'guardianOfA') {
          for (const value of Object.values(B_PRIVATE)) if (text.includes(value)) failures.push(`${where}: leaks ${value}`);
        }
        if (/password_?hash|token_?hash|\$argon2/i.test(text)) failures.push(`${where}: leaks a secret`);
        // A revalidated read (the contract's `revalidate`) may be kept by the user's own browser, asked again every time.
        const cacheControl = response.statusCode === 200 && REVALIDATED.has(`GET ${route.url}`) ? 'private, no-cache' : 'no-store';
        if (String(response.headers['cache-control']) !== cacheControl)
          failures.push(`${where}: Cache-Control ${response.headers['cache-control']}, expected ${cacheControl}`);
      }
    }
  }
  console.info(`authorization matrix: ${apiRoutes.size} routes × ${ACTORS.length} actors × 5 spellings → ${calls} calls`);
  expect(failures).toEqual([]);
  // About 160 routes × 6 actors × 5 spellings, one request each: longer than a test's default time on a busy machine.
}, 120_000);

test('a route without an access declaration stops the start-up', async () => {
  const other = await buildTestApp();
  try {
    other.app.get('/api/undeclared', async () => ({ ok: true }));
    await expect(other.app.ready()).rejects.toThrow('Rotas sem declaração de acesso (config.access): GET /api/undeclared');
  } finally {
    await other.close().catch(() => {});
  }
});

test('the admin reads answer the administrator in full and only the administrator, however the path is spelled', async () => {
  for (const url of ['/api/admin/students', '/%61pi/admin/students', '/api/%61dmin/students', '/api//admin//students/']) {
    const anonymous = await t.app.inject({ url });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('ana@escola.test');
    const student = await t.app.inject({ url, headers: { cookie: cookies.get('studentA')! } });
    expect(student.statusCode).toBe(403);
    const admin = await t.app.inject({ url, headers: { cookie: cookies.get('coordinator')! } });
    expect(admin.statusCode).toBe(200);
    expect(admin.body).toContain(B_PRIVATE.email);
  }
});

/** A small PNG, for the photo upload. */
async function pngBytes(): Promise<Buffer> {
  return sharp({ create: { width: 4, height: 4, channels: 3, background: '#4338ca' } })
    .png()
    .toBuffer();
}

/** A multipart body with one file, as the photo upload takes it. */
function multipartFile(bytes: Buffer): { payload: Buffer; contentType: string } {
  const boundary = 'matriz-limite';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="foto.png"\r\nContent-Type: image/png\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** What may differ after a call that changed nothing: a student's row, tags and ledger rows, and the ledger's size. */
async function stateOf(id: string) {
  const [row] = await t.db.select().from(students).where(eq(students.id, id));
  const tags = await t.db.select().from(studentTags).where(eq(studentTags.studentUuid, id));
  const [rows] = await t.db.select({ n: count() }).from(ledgerEntries);
  return { row, tags, ledgerRows: rows!.n };
}

test('every route that names a student, with a real student: her teacher is admitted and acts, another teacher is refused and changes nothing', async () => {
  // Teachers may manage students here, so every route of the matrix that names one is a teacher's.
  const rules = await t.request('PUT', '/admin/settings/rules', {
    cookie: cookies.get('coordinator')!,
    payload: { ...DEFAULT_RULES, teachersManageStudents: true },
  });
  expect(rules.statusCode, rules.body).toBe(200);
  const png = await pngBytes();
  const expiresAt = new Date(Date.now() + 2 * 86_400_000).toISOString();
  /** Each route that takes a student (in its path, query or body), with a request that does its work when admitted. */
  const calls: Record<string, (id: string, tagId: string) => { url: string; payload?: unknown; multipart?: boolean }> = {
    'POST /api/admin/students/:id/meritus': (id) => ({
      url: `/api/admin/students/${id}/meritus`,
      payload: { type: 'admin_add', amount: 1, description: 'Matriz' },
    }),
    'POST /api/admin/students/:id/estelecas': (id) => ({
      url: `/api/admin/students/${id}/estelecas`,
      payload: { type: 'penalty', amount: 1, description: 'Matriz' },
    }),
    'POST /api/admin/operations/bulk': (id) => ({
      url: '/api/admin/operations/bulk',
      payload: { currency: 'meritus', type: 'admin_add', amount: 1, description: 'Matriz', studentUuids: [id] },
    }),
    'PUT /api/admin/students/:id/tags/:kind': (id) => ({ url: `/api/admin/students/${id}/tags/angel`, payload: { days: 3 } }),
    'PATCH /api/admin/students/:id/tags/:kind': (id) => ({ url: `/api/admin/students/${id}/tags/leader`, payload: { expiresAt } }),
    'DELETE /api/admin/students/:id/tags/:kind': (id) => ({ url: `/api/admin/students/${id}/tags/leader` }),
    'PATCH /api/admin/students/:id': (id) => ({ url: `/api/admin/students/${id}`, payload: { name: 'Nome Trocado' } }),
    'DELETE /api/admin/students/:id': (id) => ({ url: `/api/admin/students/${id}` }),
    'POST /api/admin/students/:id/password': (id) => ({ url: `/api/admin/students/${id}/password` }),
    'POST /api/admin/students/access-cards': (id) => ({ url: '/api/admin/students/access-cards', payload: { studentIds: [id] } }),
    'POST /api/admin/students/:id/photo': (id) => ({ url: `/api/admin/students/${id}/photo`, multipart: true }),
    'PUT /api/admin/students/:id/photo': (id) => ({
      url: `/api/admin/students/${id}/photo`,
      payload: { url: 'https://images.example.org/matriz.jpg' },
    }),
    'DELETE /api/admin/students/:id/photo': (id) => ({ url: `/api/admin/students/${id}/photo` }),
    'GET /api/admin/students/:id/personal-data': (id) => ({ url: `/api/admin/students/${id}/personal-data` }),
    'GET /api/admin/reports/statement.pdf': (id) => ({ url: `/api/admin/reports/statement.pdf?period=today&student=${id}` }),
    'GET /api/admin/reports/certificate.pdf': (_id, tagId) => ({ url: `/api/admin/reports/certificate.pdf?tag=${tagId}` }),
    'POST /api/admin/students/:id/guardian-codes': (id) => ({ url: `/api/admin/students/${id}/guardian-codes` }),
    'GET /api/admin/students/:id/guardians': (id) => ({ url: `/api/admin/students/${id}/guardians` }),
    'POST /api/admin/students/:id/guardian-letter-email': (id) => ({
      url: `/api/admin/students/${id}/guardian-letter-email`,
      payload: { email: 'familia.matriz@exemplo.test' },
    }),
  };
  // Every route with a student in its path is here: a new one must be added. The coordination's alone (the LGPD's) no
  // teacher reaches, whatever the turma: the role matrix above holds them.
  const withStudent = t.app.declaredRoutes
    .filter((route) => route.method !== 'HEAD' && /^\/api\/admin\/students\/:id/.test(route.url))
    .filter((route) => route.options.config?.access !== 'manageSchool')
    .map((route) => `${route.method} ${route.url}`);
  expect(withStudent.filter((key) => !(key in calls))).toEqual([]);

  const failures: string[] = [];
  let serial = 0;
  for (const [key, call] of Object.entries(calls)) {
    const method = key.split(' ')[0] as 'GET';
    for (const actor of ['teacherOfOther', 'teacherOfB'] as const) {
      // A student of Bruno's turma of her own, with a balance, a running tag and private fields, for each call.
      serial += 1;
      const [student] = await addStudents(t.db, [
        {
          studentId: `39${String(serial).padStart(5, '0')}`,
          name: `Aluna Matriz ${serial}`,
          grade: t.students[1]!.grade,
          ...privateFieldsOf(serial),
        },
      ]);
      await t.award(student!.id, 10);
      await t.award(student!.id, 10, { currency: 'estelecas' });
      const [tag] = await t.db
        .insert(studentTags)
        .values({ studentUuid: student!.id, kind: 'leader', expiresAt: new Date(Date.now() + 86_400_000) })
        .returning();
      const { url, payload, multipart } = call(student!.id, tag!.id);
      const body = multipart ? multipartFile(png) : undefined;
      const before = await stateOf(student!.id);
      const response = await t.app.inject({
        method,
        url,
        headers: { cookie: cookies.get(actor)!, ...(body ? { 'content-type': body.contentType } : {}) },
        ...(body ? { payload: body.payload } : payload === undefined ? {} : { payload: payload as object }),
      });
      const where = `${key} as ${actor}`;
      if (actor === 'teacherOfB') {
        if (response.statusCode >= 300) failures.push(`${where}: ${response.statusCode} ${response.body.slice(0, 200)}, expected success`);
        continue;
      }
      const code = response.json<{ error?: { code?: string } }>().error?.code;
      if (response.statusCode !== 403 || code !== 'student_outside_turmas') {
        failures.push(`${where}: ${response.statusCode} ${response.body.slice(0, 200)}, expected 403 student_outside_turmas`);
      }
      for (const value of Object.values(privateFieldsOf(serial)))
        if (response.body.includes(value)) failures.push(`${where}: leaks ${value}`);
      if (response.body.includes(student!.name)) failures.push(`${where}: names the student`);
      expect(await stateOf(student!.id), where).toEqual(before);
    }
  }
  await t.request('PUT', '/admin/settings/rules', { cookie: cookies.get('coordinator')!, payload: DEFAULT_RULES });
  expect(failures).toEqual([]);
});

/** The private fields of the matrix's students of Bruno's turma, one set each. */
function privateFieldsOf(serial: number) {
  return { email: `matriz.${serial}@escola.test`, birthDate: `2009-07-${String((serial % 28) + 1).padStart(2, '0')}` };
}
