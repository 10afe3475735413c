import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addAdmin, buildTestApp, TEST_PASSWORD, turmaIdOf, type TestApp } from '../../test/test-app.ts';
import { auditLog, students } from '../../db/schema.ts';
import { reconcile, totalBalances } from '../ledger/reconciliation.service.ts';
import { writeBackup } from '../../backup/archive.ts';
import { sqlClientOf } from '../../backup/sql-client.ts';
import { formatDate } from '../../../shared/format.ts';
import { uploadStudentPhoto } from '../../test/student-photo.ts';

/**
 * The LGPD (decision 030): erasure leaves no personal value anywhere the system answers, exports or backs up, while
 * every balance stays true; export, erasure and the access log are the coordination's; the image consent reaches every
 * answer that carries another student's photo, and the photo route itself; the retention sweep and the privacy page.
 */
let t: TestApp;
let coordinator: string;
let teacher: string;
let tmp: string;

beforeAll(async () => {
  t = await buildTestApp();
  coordinator = await t.loginAdmin();
  const turmaId = await turmaIdOf(t.db, t.students[0]!.grade);
  await addAdmin(t.db, { email: 'prof.lgpd@escola.test', name: 'Professor Paulo Prado', role: 'teacher', turmaIds: [turmaId] });
  teacher = await t.loginAdmin('prof.lgpd@escola.test', TEST_PASSWORD);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-lgpd-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const uploadPhoto = (id: string) => uploadStudentPhoto(t, id, coordinator);

/** How many students newStudent has made in this file: each gets a birth date of its own. */
let studentsMade = 0;

/** A new student of the test turma, with every personal field filled. */
async function newStudent(name: string) {
  const studentId = String(4_000_000 + Math.floor(Math.random() * 900_000));
  const email = `${studentId}@familia.test`;
  // A birth date of this student alone (in 2011, which the test app's students were not born in), so a scan for it finds
  // no other: from a counter, as two random ones matched now and then.
  const made = studentsMade++;
  const birthDate = `2011-${String(1 + (made % 12)).padStart(2, '0')}-${String(1 + Math.floor(made / 12)).padStart(2, '0')}`;
  const response = await t.request('POST', '/admin/students', {
    cookie: coordinator,
    payload: { studentId, name, password: TEST_PASSWORD, grade: t.students[0]!.grade, email, birthDate, meritus: 300 },
  });
  expect(response.statusCode, response.body).toBe(201);
  return { id: response.json().student.id as string, studentId, name, email, birthDate };
}

function erase(id: string, payload: unknown, cookie = coordinator) {
  return t.app.inject({ method: 'POST', url: `/api/admin/students/${id}/erase`, headers: { cookie }, payload: payload as object });
}

/** Every text inside a zip's entries (the export, an XLSX). */
function zipTexts(bytes: Buffer): string {
  return Object.values(unzipSync(new Uint8Array(bytes)))
    .map((entry) => strFromU8(entry, true))
    .join('\n');
}

type OpenApi = { paths: Record<string, Record<string, { parameters?: { in: string; name: string; required?: boolean }[] }>> };

/** Every GET of the API a cookie may call, with `id` in each path parameter: the answers as text (zips opened). */
async function everyAnswer(cookie: string, id: string): Promise<{ endpoint: string; text: string }[]> {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<OpenApi>();
  const answers: { endpoint: string; text: string }[] = [];
  for (const [route, methods] of Object.entries(doc.paths)) {
    if (!methods.get || route === '/api/events') continue;
    const query = new URLSearchParams();
    for (const parameter of methods.get.parameters ?? []) {
      if (parameter.in === 'query' && parameter.required) query.set(parameter.name, parameter.name === 'student' ? id : '2020-01-01');
    }
    const url = route.replace(/\{\w+\}/g, id) + (query.size ? `?${query}` : '');
    const response = await t.app.inject({ method: 'GET', url, headers: { cookie } });
    expect(response.statusCode, `${route} → ${response.body.slice(0, 200)}`).toBeLessThan(500);
    const type = String(response.headers['content-type'] ?? '');
    const bytes = response.rawPayload;
    const text = /zip|spreadsheet/.test(type) ? zipTexts(bytes) : bytes.toString('utf8');
    answers.push({ endpoint: `GET ${url}`, text });
  }
  return answers;
}

describe('erasure', () => {
  test('refused to teachers and students, and without the name typed again; changes nothing then', async () => {
    const target = await newStudent('Helena Refusada Prado');
    const reason = 'Pedido da família';
    expect((await erase(target.id, { confirm: target.name, reason }, teacher)).statusCode).toBe(403);
    const studentCookie = await t.loginStudent(t.students[1]!.studentId);
    expect((await erase(target.id, { confirm: target.name, reason }, studentCookie)).statusCode).toBe(403);
    const wrong = await erase(target.id, { confirm: 'Helena', reason });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('erase_confirmation_mismatch');
    const noReason = await erase(target.id, { confirm: target.name, reason: '  ' });
    expect(noReason.json().error.code).toBe('erase_reason_required');
    const [row] = await t.db.select().from(students).where(eq(students.id, target.id));
    expect(row).toMatchObject({ name: target.name, email: target.email, erasedAt: null });
  });

  test('leaves no personal value in any answer, export, report or backup, while balances reconcile', async () => {
    const target = await newStudent('Joaquim Apagado Nogueira');
    const photo = await uploadPhoto(target.id);
    const [bruno, carla] = [t.students[1]!, t.students[2]!];
    const targetCookie = await t.loginStudent(target.studentId);
    // History on both sides, with the name inside texts others wrote.
    const moves = [
      [
        `/admin/students/${target.id}/meritus`,
        coordinator,
        { type: 'reward', amount: 50, description: 'Ajudou Joaquim Apagado Nogueira na feira' },
      ],
      ['/meritus/transfers', targetCookie, { recipientId: bruno.id, amount: 20 }],
      [`/admin/students/${carla.id}/meritus`, coordinator, { type: 'reward', amount: 10, description: 'Participação' }],
      ['/meritus/transfers', await t.loginStudent(carla.studentId), { recipientId: target.id, amount: 5 }],
      [
        `/admin/students/${bruno.id}/meritus`,
        coordinator,
        { type: 'reward', amount: 10, description: 'Trabalho com joaquim apagado nogueira' },
      ],
    ] as const;
    for (const [url, cookie, payload] of moves) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api${url}`,
        headers: { cookie, 'idempotency-key': randomUUID() },
        payload,
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    const item = await t.request('POST', '/admin/store/items', {
      cookie: coordinator,
      payload: { name: `Caneca ${randomUUID().slice(0, 4)}`, price: 10, currency: 'meritus', category: 'material' },
    });
    const order = await t.app.inject({
      method: 'POST',
      url: `/api/store/items/${item.json().id}/orders`,
      headers: { cookie: targetCookie, 'idempotency-key': randomUUID() },
    });
    expect(order.statusCode, order.body).toBe(201);
    // An earlier name and email, kept by the audit of the change.
    const renamed = await t.request('PATCH', `/admin/students/${target.id}`, {
      cookie: coordinator,
      payload: { email: `novo.${target.email}`, name: 'Joaquim Apagado Nogueira Filho' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const totalsBefore = await totalBalances(t.db);

    const response = await erase(target.id, {
      confirm: '  joaquim   apagado NOGUEIRA filho',
      reason: 'Pedido de Joaquim Apagado Nogueira',
    });
    expect(response.statusCode, response.body).toBe(200);
    const anonymous = response.json().name as string;
    expect(anonymous).toMatch(/^Aluno removido #\d+$/);
    expect((await erase(target.id, { confirm: anonymous, reason: 'de novo' })).statusCode).toBe(409);

    // Balances: every student's stored balance is its ledger's sum, and the school's total moved only by the refund.
    expect(await reconcile(t.db)).toEqual([]);
    const totalsAfter = await totalBalances(t.db);
    expect(totalsAfter.estelecas).toBe(totalsBefore.estelecas);
    // Sign-in is impossible, the photo files are gone.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/student/login',
      payload: { studentId: target.studentId, password: TEST_PASSWORD },
    });
    expect(login.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: targetCookie } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: photo, headers: { cookie: coordinator } })).statusCode).toBe(404);

    const secrets = [target.name, target.email, `novo.${target.email}`, target.birthDate, formatDate(target.birthDate), 'joaquim apagado'];
    const leaks = (endpoint: string, text: string) =>
      secrets.filter((secret) => text.toLowerCase().includes(secret.toLowerCase())).map((secret) => `${endpoint}: ${secret}`);
    const found: string[] = [];
    const answers = [
      ...(await everyAnswer(coordinator, target.id)),
      ...(await everyAnswer(await t.loginStudent(bruno.studentId), target.id)),
    ];
    for (const { endpoint, text } of answers) found.push(...leaks(endpoint, text));
    // The erased student still shows in histories, anonymous: the scan read real answers.
    expect(answers.some(({ text }) => text.includes(anonymous))).toBe(true);
    const exported = await t.app.inject({
      method: 'GET',
      url: `/api/admin/students/${target.id}/personal-data-export`,
      headers: { cookie: coordinator },
    });
    expect(exported.statusCode).toBe(200);
    found.push(...leaks('export', zipTexts(exported.rawPayload)));
    // The database itself, as a backup holds it.
    const file = path.join(tmp, 'backup.tar.gz');
    const client = await sqlClientOf(t.database);
    try {
      await writeBackup(client, file, { kind: 'local', root: t.config.uploadsDir });
    } finally {
      await client.close();
    }
    found.push(...leaks('backup', zlib.gunzipSync(fs.readFileSync(file)).toString('utf8')));
    expect(found).toEqual([]);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'student.erase'));
    expect(audit).toMatchObject({ actorLabel: expect.any(String), details: expect.objectContaining({ reason: `Pedido de ${anonymous}` }) });
  }, 180_000);
});

describe('export and access log', () => {
  test('the export is the coordination’s, holds the records, photos and the PDF, and enters the access log', async () => {
    const target = await newStudent('Marina Exportada Reis');
    await uploadPhoto(target.id);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/admin/students/${target.id}/personal-data-export`, headers: { cookie: teacher } }))
        .statusCode,
    ).toBe(403);
    const student = await t.loginStudent(target.studentId);
    for (const url of ['personal-data-export', 'access-log', 'personal-data']) {
      expect(
        (await t.app.inject({ method: 'GET', url: `/api/admin/students/${target.id}/${url}`, headers: { cookie: student } })).statusCode,
      ).toBe(403);
    }
    const seen = await t.app.inject({
      method: 'GET',
      url: `/api/admin/students/${target.id}/personal-data`,
      headers: { cookie: coordinator },
    });
    expect(seen.json()).toMatchObject({ email: target.email, birthDate: target.birthDate, imageConsent: false });
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/admin/students/${target.id}/personal-data-export`,
      headers: { cookie: coordinator },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    const files = unzipSync(new Uint8Array(response.rawPayload));
    expect(Object.keys(files).sort()).toEqual(
      ['acessos.json', 'dados.json', 'fotos/foto.webp', 'fotos/miniatura.webp', 'operacoes.json', 'relatorio-dados-pessoais.pdf'].sort(),
    );
    const data = JSON.parse(strFromU8(files['dados.json']!));
    expect(data.student).toMatchObject({ name: target.name, email: target.email, birthDate: target.birthDate });
    expect(JSON.parse(strFromU8(files['operacoes.json']!))).toEqual([expect.objectContaining({ amount: 300, direction: 'in' })]);
    expect(strFromU8(files['relatorio-dados-pessoais.pdf']!.slice(0, 5))).toBe('%PDF-');
    const log = await t.app.inject({ method: 'GET', url: `/api/admin/students/${target.id}/access-log`, headers: { cookie: coordinator } });
    expect(log.json().items.map((item: { kind: string; who: string }) => [item.kind, item.who])).toEqual([
      ['export', 'Professora Helena Costa'],
      ['personal_data', 'Professora Helena Costa'],
    ]);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/admin/students/${target.id}/access-log`, headers: { cookie: teacher } })).statusCode,
    ).toBe(403);
  });
});

describe('image consent', () => {
  test('another student sees the photo only with consent, in every answer and on the photo route; the student and staff always', async () => {
    const owner = await newStudent('Otávio Fotografado Luz');
    const photo = await uploadPhoto(owner.id);
    const thumb = photo.replace('.webp', '.thumb.webp');
    const tagged = await t.request('PUT', `/admin/students/${owner.id}/tags/leader`, { cookie: coordinator, payload: {} });
    expect(tagged.statusCode, tagged.body).toBeLessThan(300);
    const viewer = await t.loginStudent(t.students[1]!.studentId);
    const ownCookie = await t.loginStudent(owner.studentId);
    const photosIn = async (cookie: string) => {
      const answers = [
        await t.app.inject({ method: 'GET', url: '/api/ranking?size=100', headers: { cookie } }),
        await t.app.inject({ method: 'GET', url: `/api/students/directory?q=${owner.studentId}`, headers: { cookie } }),
        await t.app.inject({ method: 'GET', url: '/api/tags/active', headers: { cookie } }),
      ];
      return answers.map((answer) => answer.body.includes(photo.split('?')[0]!));
    };
    const fetchPhoto = async (cookie: string | undefined, address: string) =>
      (await t.app.inject({ method: 'GET', url: address, headers: cookie ? { cookie } : {} })).statusCode;

    expect(await photosIn(viewer)).toEqual([false, false, false]);
    expect((await t.app.inject({ method: 'GET', url: '/api/ranking?size=100', headers: { cookie: coordinator } })).body).toContain(photo);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: ownCookie } })).json().student.photo).toBe(photo);
    for (const address of [photo, thumb]) {
      expect(await fetchPhoto(viewer, address)).toBe(404);
      expect(await fetchPhoto(undefined, address)).toBe(404);
      expect(await fetchPhoto(ownCookie, address)).toBe(200);
      expect(await fetchPhoto(coordinator, address)).toBe(200);
    }
    const served = await t.app.inject({ method: 'GET', url: photo, headers: { cookie: coordinator } });
    expect(served.headers['cache-control']).toContain('private');

    expect(
      (await t.request('PUT', `/admin/students/${owner.id}/image-consent`, { cookie: teacher, payload: { consent: true } })).statusCode,
    ).toBe(403);
    const given = await t.request('PUT', `/admin/students/${owner.id}/image-consent`, { cookie: coordinator, payload: { consent: true } });
    expect(given.statusCode, given.body).toBe(200);
    expect(await photosIn(viewer)).toEqual([true, true, true]);
    expect(await fetchPhoto(viewer, photo)).toBe(200);
  });
});

describe('retention and the privacy page', () => {
  test('the sweep previews, waits its day of grace, then anonymises the inactive and logs it', async () => {
    const idle = await newStudent('Vera Inativa Campos');
    const longAgo = new Date(Date.now() - 400 * 86_400_000);
    await t.db.update(students).set({ createdAt: longAgo, lastLogin: longAgo }).where(eq(students.id, idle.id));
    await t.db.execute(sql`UPDATE ledger_entries SET created_at = ${longAgo.toISOString()}::timestamptz WHERE to_student_id = ${idle.id}`);
    expect(
      (await t.request('PUT', '/admin/settings/privacy', { cookie: coordinator, payload: { contact: 'x', retentionMonths: 3 } })).json()
        .error.code,
    ).toBe('invalid_retention_months');
    const preview = await t.app.inject({
      method: 'GET',
      url: '/api/admin/privacy/retention-preview?months=12',
      headers: { cookie: coordinator },
    });
    expect(preview.json().students.map((s: { id: string }) => s.id)).toEqual([idle.id]);
    const saved = await t.request('PUT', '/admin/settings/privacy', {
      cookie: coordinator,
      payload: { contact: 'Secretaria: privacidade@escola.test', retentionMonths: 12 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const startsAt = Date.parse(saved.json().retentionStartsAt);
    expect(startsAt).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    expect(await t.app.sweepRetention(new Date())).toBe(0);
    expect(await t.app.sweepRetention(new Date(startsAt + 1000))).toBe(1);
    expect(await t.app.sweepRetention(new Date(startsAt + 2000))).toBe(0);
    const [row] = await t.db.select().from(students).where(eq(students.id, idle.id));
    expect(row).toMatchObject({ email: null, birthDate: null, name: expect.stringMatching(/^Aluno removido #/) });
    const [logged] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'privacy.retention_sweep'));
    expect(logged!.details).toMatchObject({ months: 12, erased: 1, names: [row!.name] });
    // Active students are not touched.
    expect(await reconcile(t.db)).toEqual([]);
  });

  test('the privacy page is public and says the school’s name and contact, nothing else', async () => {
    await t.request('PUT', '/admin/settings/privacy', {
      cookie: coordinator,
      payload: { contact: 'dpo@escola.test', retentionMonths: null },
    });
    const page = await t.app.inject({ method: 'GET', url: '/api/privacy' });
    expect(page.statusCode).toBe(200);
    expect(Object.keys(page.json()).sort()).toEqual(['contact', 'schoolName']);
    expect(page.json().contact).toBe('dpo@escola.test');
    expect((await t.request('GET', '/admin/settings/privacy', { cookie: teacher })).statusCode).toBe(403);
  });
});
