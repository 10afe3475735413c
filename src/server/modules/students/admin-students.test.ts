import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { desc, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, test } from 'vitest';
import { type TestApp, withSharedAdminApp } from '../../test/test-app.ts';
import { auditLog, ledgerEntries, passwordResetSessions, sessions, students, studentTags } from '../../db/schema.ts';
import { sweepAuthState } from '../auth/auth.service.ts';
import { SESSION_ABSOLUTE_MS } from '../../../shared/constants.ts';
import { reconcile } from '../ledger/reconciliation.service.ts';
import { sweepExpiredTags } from '../tags/tags.service.ts';
import { formatDate } from '../../../shared/format.ts';
import type { AdminStudent, AdminStudentsPage } from '../../../shared/admin-students.ts';

let t: TestApp;
let adminCookie: string;

withSharedAdminApp((app, cookie) => ([t, adminCookie] = [app, cookie]));
beforeEach(async () => {
  expect(await reconcile(t.db)).toEqual([]);
});

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

function call(method: Method, url: string, payload?: unknown, cookie = adminCookie) {
  return t.app.inject({ method, url: `/api${url}`, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });
}

/** A multipart/form-data body with one file, as a browser's FormData sends it. */
function multipart(fileName: string, contentType: string, bytes: Buffer, field = 'file') {
  const boundary = `----meritus${randomUUID().replace(/-/g, '')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function upload(url: string, fileName: string, contentType: string, bytes: Buffer, cookie = adminCookie) {
  const body = multipart(fileName, contentType, bytes);
  return t.app.inject({ method: 'POST', url: `/api${url}`, headers: { cookie, ...body.headers }, payload: body.payload });
}

let sequence = 0;
function newMatricula(): string {
  sequence += 1;
  return `77${String(sequence).padStart(5, '0')}`;
}

async function create(overrides: Record<string, unknown> = {}) {
  const response = await call('POST', '/admin/students', {
    studentId: newMatricula(),
    name: 'Júlia Araújo Conceição',
    password: 'segredo-123',
    grade: '2º EM - Turma C',
    ...overrides,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().student as AdminStudent;
}

/** Every current student, page after page. */
async function listed(): Promise<AdminStudent[]> {
  const all: AdminStudent[] = [];
  for (let page = 1; ; page += 1) {
    const response = await call('GET', `/admin/students?size=100&page=${page}`);
    expect(response.statusCode).toBe(200);
    const { items, total } = response.json() as AdminStudentsPage;
    all.push(...items);
    if (items.length === 0 || all.length >= total) return all;
  }
}

async function lastAudit(action: string) {
  const [row] = await t.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id)).limit(1);
  return row;
}

function errorOf(response: { json(): unknown }): string {
  return (response.json() as { error: { message: string } }).error.message;
}

async function loginStatus(studentId: string, password: string) {
  const response = await t.app.inject({ method: 'POST', url: '/api/auth/student/login', payload: { studentId, password } });
  return response.statusCode;
}

async function png(width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .png()
    .toBuffer();
}

describe('who may manage students', () => {
  test('a student is refused and a visitor is asked to sign in, on every endpoint', async () => {
    const studentCookie = await t.loginStudent('3000001');
    const id = t.students[1]!.id;
    const endpoints: [Method, string][] = [
      ['GET', '/admin/students'],
      ['POST', '/admin/students'],
      ['PATCH', `/admin/students/${id}`],
      ['DELETE', `/admin/students/${id}`],
      ['POST', `/admin/students/${id}/password`],
      ['POST', `/admin/students/${id}/photo`],
      ['PUT', `/admin/students/${id}/photo`],
      ['DELETE', `/admin/students/${id}/photo`],
      ['PUT', `/admin/students/${id}/tags/leader`],
      ['PATCH', `/admin/students/${id}/tags/leader`],
      ['DELETE', `/admin/students/${id}/tags/leader`],
      ['POST', '/admin/students/import/preview'],
      ['POST', '/admin/students/import'],
      ['GET', '/admin/students/export.csv'],
      ['GET', '/admin/ledger/export.csv'],
    ];
    for (const [method, url] of endpoints) {
      const asStudent = await call(method, url, method === 'GET' || method === 'DELETE' ? undefined : {}, studentCookie);
      expect(asStudent.statusCode, `${method} ${url}`).toBe(403);
      const anonymous = await t.app.inject({ method, url: `/api${url}` });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
    }
    expect((await t.db.select().from(students).where(eq(students.id, id)))[0]!.deletedAt).toBeNull();
  });
});

describe('listing', () => {
  test('lists current students with email, birth date, série, balances and tags, by name', async () => {
    const list = await listed();
    const ana = list.find((s) => s.studentId === '3000001')!;
    expect(ana).toMatchObject({
      name: 'Ana Beatriz Souza',
      email: 'ana@escola.test',
      birthDate: '2010-03-14',
      grade: '1º EM - Turma A',
      meritus: 0,
      estelecas: 0,
      tags: [],
      photo: null,
    });
    const names = list.map((s) => s.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'pt-BR')));
  });
});

describe('creating a student', () => {
  test.each([
    [{ studentId: '' }, 'Preencha todos os campos obrigatórios'],
    [{ studentId: '   ' }, 'Preencha todos os campos obrigatórios'],
    [{ name: undefined }, 'Preencha todos os campos obrigatórios'],
    [{ password: '' }, 'Preencha todos os campos obrigatórios'],
    [{ password: '12345' }, 'A senha deve ter pelo menos 6 caracteres'],
    [{ grade: '4º EM - Turma A' }, 'Selecione uma turma válida'],
    [{ grade: undefined }, 'Selecione uma turma válida'],
    [{ meritus: -1 }, 'O Méritus inicial deve ser um número inteiro maior ou igual a zero'],
    [{ meritus: 2.5 }, 'O Méritus inicial deve ser um número inteiro maior ou igual a zero'],
    [{ meritus: '10' }, 'O Méritus inicial deve ser um número inteiro maior ou igual a zero'],
    [{ email: 'ana@' }, 'Email inválido'],
    [{ birthDate: '2010-02-30' }, 'Data de nascimento inválida'],
    [{ birthDate: '14/03/2010' }, 'Data de nascimento inválida'],
    [{ birthDate: '2999-01-01' }, 'Data de nascimento inválida'],
    [{ photo: 'não é uma url' }, 'URL da imagem inválida ou inacessível'],
    [{ photo: 'javascript:alert(1)' }, 'URL da imagem inválida ou inacessível'],
    [{ photo: 'http://exemplo.com/foto.png' }, 'A URL da imagem deve começar com https:// (endereços http:// não são aceitos)'],
    [{ photo: '/uploads/../data/pglite' }, 'URL da imagem inválida ou inacessível'],
    // Names that look blank or like someone else's: invisible characters and text direction overrides.
    [{ name: '\u200b' }, 'O texto contém caracteres inválidos'],
    [{ name: 'Nicolas\u200b Dias' }, 'O texto contém caracteres inválidos'],
    [{ name: '\u202eSaid Ana' }, 'O texto contém caracteres inválidos'],
    [{ name: '\u200d' }, 'Preencha todos os campos obrigatórios'],
  ])('refuses %j with “%s” and writes nothing', async (overrides, message) => {
    const before = (await t.db.select().from(students)).length;
    const body = { studentId: newMatricula(), name: 'Teste Recusado', password: 'segredo-123', grade: '1º EM - Turma A', ...overrides };
    const response = await call('POST', '/admin/students', body);
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toBe(message);
    expect((await t.db.select().from(students)).length).toBe(before);
  });

  test('creates a student who can then sign in, recorded in the audit log with the administrator', async () => {
    const matricula = newMatricula();
    const response = await call('POST', '/admin/students', {
      studentId: ` ${matricula} `,
      name: 'Lívia Gonçalves',
      password: 'primeiro-acesso',
      grade: '3º EM - Turma B',
      email: 'Livia.Goncalves@Escola.test',
      birthDate: '2008-07-21',
      photo: 'https://images.example.org/livia.jpg',
    });
    expect(response.statusCode).toBe(201);
    const { message, student } = response.json();
    expect(message).toBe('Estudante Lívia Gonçalves cadastrado com sucesso!');
    expect(student).toMatchObject({
      studentId: matricula,
      email: 'livia.goncalves@escola.test',
      birthDate: '2008-07-21',
      photo: 'https://images.example.org/livia.jpg?v=0',
      photoSource: 'url',
      meritus: 0,
    });
    expect(await loginStatus(matricula, 'primeiro-acesso')).toBe(200);
    const audit = await lastAudit('student.create');
    expect(audit).toMatchObject({ actorKind: 'admin', actorId: t.admin.id, actorLabel: t.admin.name });
    expect(audit!.details).toMatchObject({ studentUuid: student.id, studentId: matricula, name: 'Lívia Gonçalves' });
    expect((await listed()).some((s) => s.studentId === matricula)).toBe(true);
  });

  test('initial Méritus is a ledger entry "Saldo inicial" by the administrator, not a bare number', async () => {
    const student = await create({ meritus: 150 });
    expect(student).toMatchObject({ meritus: 150, totalEarned: 150 });
    const rows = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.toStudentId, student.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      currency: 'meritus',
      type: 'admin_add',
      amount: 150,
      description: 'Saldo inicial',
      actorKind: 'admin',
      actorAdminId: t.admin.id,
    });
    expect(await reconcile(t.db)).toEqual([]);
    const zero = await create({ meritus: 0 });
    expect(await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.toStudentId, zero.id))).toEqual([]);
  });

  test('a matrícula or an email already used by a current student is refused', async () => {
    const first = await create({ email: 'repetido@escola.test' });
    const sameId = await call('POST', '/admin/students', {
      studentId: first.studentId,
      name: 'Outro',
      password: 'segredo-123',
      grade: '1º EM - Turma A',
    });
    expect(sameId.statusCode).toBe(409);
    expect(errorOf(sameId)).toBe('Já existe um estudante com esta matrícula');
    // The same digits typed full-width (a phone's keyboard, a spreadsheet) are the same matrícula.
    const fullWidth = first.studentId.replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit)));
    const sameIdFullWidth = await call('POST', '/admin/students', {
      studentId: fullWidth,
      name: 'Outro',
      password: 'segredo-123',
      grade: '1º EM - Turma A',
    });
    expect(sameIdFullWidth.statusCode).toBe(409);
    expect(await loginStatus(fullWidth, 'segredo-123')).toBe(200);
    const sameEmail = await call('POST', '/admin/students', {
      studentId: newMatricula(),
      name: 'Outro',
      password: 'segredo-123',
      grade: '1º EM - Turma A',
      email: 'REPETIDO@escola.test',
    });
    expect(sameEmail.statusCode).toBe(409);
    expect(errorOf(sameEmail)).toBe('Este email já está em uso');
  });
});

describe('editing a student', () => {
  test('changes name, matrícula, série, email and birth date; balances are not editable here', async () => {
    const student = await create({ meritus: 40 });
    const newId = newMatricula();
    const response = await call('PATCH', `/admin/students/${student.id}`, {
      studentId: newId,
      name: 'Júlia A. Conceição',
      grade: '3º EM - Turma D',
      email: '',
      birthDate: '2009-12-01',
      meritus: 9999,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Estudante Júlia A. Conceição atualizado com sucesso!');
    expect(response.json().student).toMatchObject({
      studentId: newId,
      grade: '3º EM - Turma D',
      email: null,
      birthDate: '2009-12-01',
      meritus: 40,
    });
    const audit = await lastAudit('student.update');
    expect(audit!.actorId).toBe(t.admin.id);
    expect(audit!.details).toMatchObject({ changed: { studentId: { from: student.studentId, to: newId } } });
  });

  test('a name is kept on one line with single spaces, however it was pasted, on creation and on edit', async () => {
    const student = await create({ name: 'Júlia\r\nAraújo \t Conceição' });
    expect(student.name).toBe('Júlia Araújo Conceição');
    const edited = await call('PATCH', `/admin/students/${student.id}`, { name: 'Júlia\nAraújo\u2028Lima' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().student.name).toBe('Júlia Araújo Lima');
  });

  test('refuses a matrícula taken by another student, an empty name and an unknown student', async () => {
    const student = await create();
    const taken = await call('PATCH', `/admin/students/${student.id}`, { studentId: '3000002' });
    expect(errorOf(taken)).toBe('Já existe um estudante com esta matrícula');
    const blank = await call('PATCH', `/admin/students/${student.id}`, { name: '  ' });
    expect(errorOf(blank)).toBe('Preencha todos os campos obrigatórios');
    const unknown = await call('PATCH', `/admin/students/${randomUUID()}`, { name: 'Ninguém' });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toBe('Estudante não encontrado');
  });
});

describe('removing a student', () => {
  test('they cannot sign in, their sessions end, they leave every list, and every history and total stays correct', async () => {
    const leaving = await create({ meritus: 100, name: 'Otávio Saída' });
    const stayingCookie = await t.loginStudent('3000002');
    const leavingCookie = await t.loginStudent(leaving.studentId, 'segredo-123');
    // Otávio sends 30 to Bruno, then is removed.
    const transfer = await t.app.inject({
      method: 'POST',
      url: '/api/meritus/transfers',
      headers: { cookie: leavingCookie },
      payload: { recipientId: t.students[1]!.id, amount: 30 },
    });
    expect(transfer.statusCode).toBe(201);
    await call('PUT', `/admin/students/${leaving.id}/tags/angel`, { days: 7 });
    const brunoBefore = (await t.db.select().from(students).where(eq(students.id, t.students[1]!.id)))[0]!;
    const ledgerBefore = await t.db.select().from(ledgerEntries);

    const response = await call('DELETE', `/admin/students/${leaving.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Estudante Otávio Saída excluído');

    expect(await loginStatus(leaving.studentId, 'segredo-123')).toBe(401);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: leavingCookie } });
    expect(me.statusCode).toBe(401);
    expect(await t.db.select().from(sessions).where(eq(sessions.studentUuid, leaving.id))).toEqual([]);

    expect((await listed()).some((s) => s.id === leaving.id)).toBe(false);
    const ranking = await t.app.inject({ method: 'GET', url: '/api/ranking?size=100', headers: { cookie: stayingCookie } });
    expect(ranking.json().entries.some((s: { id: string }) => s.id === leaving.id)).toBe(false);
    const directory = await t.app.inject({ method: 'GET', url: '/api/students/directory', headers: { cookie: stayingCookie } });
    expect(directory.json().items.some((s: { id: string }) => s.id === leaving.id)).toBe(false);
    const activeTags = await t.app.inject({ method: 'GET', url: '/api/tags/active', headers: { cookie: stayingCookie } });
    expect(activeTags.json().some((tag: { student: { id: string } }) => tag.student.id === leaving.id)).toBe(false);

    // Ledger rows stay; Bruno's history still shows the transfer, from a removed student.
    expect(await t.db.select().from(ledgerEntries)).toHaveLength(ledgerBefore.length);
    const history = await t.app.inject({ method: 'GET', url: '/api/me/transactions?limit=5', headers: { cookie: stayingCookie } });
    const received = history.json().find((op: { counterpart: { id: string } | null }) => op.counterpart?.id === leaving.id);
    expect(received).toMatchObject({ kind: 'transfer_in', amount: 30, counterpart: { name: 'Otávio Saída', removed: true } });
    const brunoAfter = (await t.db.select().from(students).where(eq(students.id, t.students[1]!.id)))[0]!;
    expect(brunoAfter.meritus).toBe(brunoBefore.meritus);
    expect(await reconcile(t.db)).toEqual([]);

    const audit = await lastAudit('student.delete');
    expect(audit).toMatchObject({ actorId: t.admin.id, actorLabel: t.admin.name });
    expect(audit!.details).toMatchObject({ studentUuid: leaving.id, studentId: leaving.studentId, balances: { meritus: 70 } });

    // Removed once: a second attempt finds no one; the matrícula can be given to a new student.
    expect((await call('DELETE', `/admin/students/${leaving.id}`)).statusCode).toBe(404);
    const again = await create({ studentId: leaving.studentId, name: 'Novo Otávio' });
    expect(again.meritus).toBe(0);
    const transfers = await t.app.inject({ method: 'GET', url: '/api/admin/operations?limit=20', headers: { cookie: adminCookie } });
    const feedRow = transfers.json().find((op: { from: { id: string } | null }) => op.from?.id === leaving.id);
    expect(feedRow.from).toMatchObject({ name: 'Otávio Saída', removed: true });
  });
});

describe('password reset', () => {
  test('generates a readable password shown once, ends the sessions and replaces the old password', async () => {
    const student = await create({ password: 'antiga-senha' });
    const cookie = await t.loginStudent(student.studentId, 'antiga-senha');
    const response = await call('POST', `/admin/students/${student.id}/password`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const { password, message } = response.json();
    expect(message).toBe('Nova senha gerada para Júlia Araújo Conceição');
    expect(password).toMatch(/^[a-z]{4}-[a-z]{4}-[2-9]{2}$/);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).statusCode).toBe(401);
    expect(await loginStatus(student.studentId, 'antiga-senha')).toBe(401);
    expect(await loginStatus(student.studentId, password)).toBe(200);
    const audit = await lastAudit('student.password_reset');
    expect(audit!.actorId).toBe(t.admin.id);
    expect(JSON.stringify(audit!.details)).not.toContain(password);
  });
});

describe("a reset password's sessions", () => {
  const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });

  test("a page still holding a session the reset ended is told why, until the session's longest life is over", async () => {
    const student = await create({ password: 'antiga-senha' });
    const [phone, laptop] = [
      await t.loginStudent(student.studentId, 'antiga-senha'),
      await t.loginStudent(student.studentId, 'antiga-senha'),
    ];
    expect((await call('POST', `/admin/students/${student.id}/password`)).statusCode).toBe(200);
    for (const cookie of [phone, laptop]) {
      for (const url of ['/api/auth/me', '/api/me/summary']) {
        const answer = await t.app.inject({ method: 'GET', url, headers: { cookie } });
        expect(answer.statusCode, url).toBe(401);
        expect(answer.json(), url).toEqual({
          error: { code: 'session_password_reset', message: 'Sua senha foi redefinida. Peça a nova ao professor.' },
        });
      }
    }
    // Past the longest life a session has (12 h), its cookie is only an expired one.
    await t.db.update(passwordResetSessions).set({ endedAt: new Date(Date.now() - SESSION_ABSOLUTE_MS - 60_000) });
    await sweepAuthState(t.db);
    expect((await me(phone)).json().error.code).toBe('unauthenticated');
    expect((await me(laptop)).json().error.code).toBe('unauthenticated');
  });

  test('a session ended otherwise (removal, sign-out, none at all) says only that nobody is signed in', async () => {
    const removed = await create({ password: 'antiga-senha' });
    const cookie = await t.loginStudent(removed.studentId, 'antiga-senha');
    expect((await call('DELETE', `/admin/students/${removed.id}`)).statusCode).toBe(200);
    expect((await me(cookie)).json().error.code).toBe('unauthenticated');
    const out = await create({ password: 'antiga-senha' });
    const signedOut = await t.loginStudent(out.studentId, 'antiga-senha');
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: signedOut } })).statusCode).toBe(204);
    expect((await me(signedOut)).json().error.code).toBe('unauthenticated');
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me' })).json().error.code).toBe('unauthenticated');
  });
});

describe('photos', () => {
  function fileOf(address: string): string {
    return path.join(t.config.uploadsDir, address.replace(/^\/uploads\//, '').split('?')[0]!);
  }

  test('an uploaded PNG is re-encoded to WebP (≤ 512 px) with a 96 px thumbnail and a cache-busting version', async () => {
    const student = await create();
    const response = await upload(`/admin/students/${student.id}/photo`, 'foto.png', 'image/png', await png(1200, 900));
    expect(response.statusCode, response.body).toBe(200);
    const { message, student: after } = response.json();
    expect(message).toBe('Foto enviada com sucesso!');
    expect(after.photo).toMatch(new RegExp(`^/uploads/students/${student.id}/[0-9a-f]{16}\\.webp\\?v=1$`));
    expect(after.photoThumb).toMatch(/\.thumb\.webp\?v=1$/);
    expect(after.photoSource).toBe('upload');
    const stored = await sharp(fileOf(after.photo)).metadata();
    expect(stored).toMatchObject({ format: 'webp', width: 512, height: 384 });
    expect(await sharp(fileOf(after.photoThumb)).metadata()).toMatchObject({ format: 'webp', width: 96, height: 96 });
    // Without the image consent, the staff's session is what lets the file through (decision 030).
    const served = await t.app.inject({ method: 'GET', url: after.photo, headers: { cookie: adminCookie } });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');

    // A second upload replaces the first: new version, old files gone.
    const second = await upload(
      `/admin/students/${student.id}/photo`,
      'outra.gif',
      'image/gif',
      await sharp(await png(64, 64))
        .gif()
        .toBuffer(),
    );
    expect(second.statusCode).toBe(200);
    expect(second.json().student.photo).toMatch(/\?v=2$/);
    expect(fs.existsSync(fileOf(after.photo))).toBe(false);
    expect(fs.existsSync(fileOf(after.photoThumb))).toBe(false);
    expect((await lastAudit('student.photo.upload'))!.actorId).toBe(t.admin.id);
  });

  test('EXIF and GPS metadata are stripped from an uploaded JPEG', async () => {
    const student = await create();
    const jpeg = await sharp(await png(300, 300))
      .jpeg()
      .withExif({
        IFD0: { Make: 'CameraCo', Model: 'Celular da Escola', Copyright: 'Aluno' },
        IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '23/1 33/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '46/1 38/1 0/1' },
      })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const response = await upload(`/admin/students/${student.id}/photo`, 'IMG_0001.JPG', 'image/jpeg', jpeg);
    expect(response.statusCode).toBe(200);
    const bytes = fs.readFileSync(fileOf(response.json().student.photo));
    const metadata = await sharp(bytes).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(bytes.includes(Buffer.from('Celular da Escola'))).toBe(false);
    expect(bytes.includes(Buffer.from('CameraCo'))).toBe(false);
  });

  test.each([
    ['a text file renamed to .png', 'foto.png', 'image/png', Buffer.from('isto não é uma imagem, é texto\n'.repeat(20))],
    ['an SVG', 'logo.svg', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')],
    ['a PDF', 'foto.jpg', 'image/jpeg', Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n')],
    ['a truncated PNG', 'foto.png', 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])],
  ])('refuses %s by its bytes: “Formato não suportado…”', async (_label, name, type, bytes) => {
    const student = await create();
    const response = await upload(`/admin/students/${student.id}/photo`, name, type, bytes);
    expect(response.statusCode).toBe(415);
    expect(errorOf(response)).toBe('Formato não suportado. Use JPG, PNG, GIF ou WebP.');
    expect((await t.db.select().from(students).where(eq(students.id, student.id)))[0]!.photoUrl).toBeNull();
    expect(fs.existsSync(path.join(t.config.uploadsDir, 'students', student.id))).toBe(false);
  });

  test('refuses a file over 5 MB with “Arquivo muito grande. Máximo 5MB.” and accepts one just under', async () => {
    const student = await create();
    const noise = Buffer.alloc(5 * 1024 * 1024 + 10, 1);
    const tooBig = await upload(`/admin/students/${student.id}/photo`, 'grande.png', 'image/png', noise);
    expect(tooBig.statusCode).toBe(413);
    expect(errorOf(tooBig)).toBe('Arquivo muito grande. Máximo 5MB.');
    // A real PNG of ~4.9 MB (random pixels do not compress).
    const side = 1270;
    const random = Buffer.alloc(side * side * 3);
    for (let i = 0; i < random.length; i++) random[i] = (i * 2654435761) >>> 24;
    const big = await sharp(random, { raw: { width: side, height: side, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeLessThan(5 * 1024 * 1024);
    expect(big.length).toBeGreaterThan(4 * 1024 * 1024);
    const accepted = await upload(`/admin/students/${student.id}/photo`, 'grande.png', 'image/png', big);
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  test('a request without a file says “Nenhum arquivo selecionado”; an empty one, “O arquivo está vazio”', async () => {
    const student = await create();
    const json = await call('POST', `/admin/students/${student.id}/photo`, {});
    expect(errorOf(json)).toBe('Nenhum arquivo selecionado');
    const empty = await upload(`/admin/students/${student.id}/photo`, 'vazio.png', 'image/png', Buffer.alloc(0));
    expect(errorOf(empty)).toBe('O arquivo está vazio');
  });

  test('a photo by URL must be an https address (or a stored file); setting one drops an uploaded photo; removing clears it', async () => {
    const student = await create();
    const uploaded = (await upload(`/admin/students/${student.id}/photo`, 'a.png', 'image/png', await png(100, 100))).json().student;
    for (const [url, message] of [
      ['ftp://exemplo.com/a.png', 'URL da imagem inválida ou inacessível'],
      ['http://exemplo.com/a.png', 'A URL da imagem deve começar com https:// (endereços http:// não são aceitos)'],
      ['exemplo.com/a.png', 'URL da imagem inválida ou inacessível'],
      ['', 'URL da imagem inválida ou inacessível'],
    ]) {
      const refused = await call('PUT', `/admin/students/${student.id}/photo`, { url });
      expect(refused.statusCode).toBe(400);
      expect(errorOf(refused)).toBe(message);
    }
    const byUrl = await call('PUT', `/admin/students/${student.id}/photo`, { url: 'https://cdn.exemplo.com.br/fotos/julia.webp' });
    expect(byUrl.statusCode).toBe(200);
    expect(byUrl.json().message).toBe('Foto atualizada com sucesso!');
    expect(byUrl.json().student).toMatchObject({ photo: 'https://cdn.exemplo.com.br/fotos/julia.webp?v=2', photoSource: 'url' });
    expect(fs.existsSync(fileOf(uploaded.photo))).toBe(false);
    const removed = await call('DELETE', `/admin/students/${student.id}/photo`);
    expect(removed.json()).toMatchObject({ message: 'Foto removida', student: { photo: null, photoSource: null } });
    expect((await lastAudit('student.photo.remove'))!.actorId).toBe(t.admin.id);
  });
});

describe('weekly tags', () => {
  async function activeTagKinds(studentUuid: string) {
    const cookie = await t.loginStudent('3000004');
    const response = await t.app.inject({ method: 'GET', url: '/api/tags/active', headers: { cookie } });
    return response
      .json()
      .filter((tag: { student: { id: string } }) => tag.student.id === studentUuid)
      .map((tag: { kind: string }) => tag.kind);
  }

  test('adds a tag for 7 days by default, with the expiry date in the message', async () => {
    const student = await create();
    const before = Date.now();
    const response = await call('PUT', `/admin/students/${student.id}/tags/leader`, {});
    expect(response.statusCode).toBe(200);
    const { tags, message } = response.json();
    expect(tags).toHaveLength(1);
    const expiresAt = new Date(tags[0].expiresAt).getTime();
    expect(expiresAt - before).toBeGreaterThanOrEqual(7 * 86_400_000 - 1000);
    expect(expiresAt - before).toBeLessThan(7 * 86_400_000 + 5000);
    expect(message).toBe(`Tag Líder da Semana adicionada até ${formatDate(tags[0].expiresAt)}`);
    expect(await activeTagKinds(student.id)).toEqual(['leader']);
    expect((await listed()).find((s) => s.id === student.id)!.tags.map((tag) => tag.kind)).toEqual(['leader']);
    const audit = await lastAudit('tag.add');
    expect(audit).toMatchObject({ actorId: t.admin.id });
    expect(audit!.details).toMatchObject({ kind: 'leader', days: 7 });
  });

  test.each([[0], [366], [1.5], ['7'], [-3]])('refuses a duration of %j days', async (days) => {
    const student = await create();
    const response = await call('PUT', `/admin/students/${student.id}/tags/angel`, { days });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toBe('A duração deve ser um número inteiro de 1 a 365 dias');
    expect(await t.db.select().from(studentTags).where(eq(studentTags.studentUuid, student.id))).toEqual([]);
  });

  test('1 and 365 days are accepted; the three tags are independent; removing one says so', async () => {
    const student = await create();
    const one = await call('PUT', `/admin/students/${student.id}/tags/counselor`, { days: 1 });
    expect(one.json().message).toMatch(/^Tag Conselheiro da Semana adicionada até \d{2}\/\d{2}\/\d{4}$/);
    const year = await call('PUT', `/admin/students/${student.id}/tags/angel`, { days: 365 });
    expect(
      year
        .json()
        .tags.map((tag: { kind: string }) => tag.kind)
        .sort(),
    ).toEqual(['angel', 'counselor']);
    const removed = await call('DELETE', `/admin/students/${student.id}/tags/counselor`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ message: 'Tag Conselheiro da Semana removida', tags: [{ kind: 'angel' }] });
    expect(await activeTagKinds(student.id)).toEqual(['angel']);
    const again = await call('DELETE', `/admin/students/${student.id}/tags/counselor`);
    expect(again.statusCode).toBe(404);
    expect((await lastAudit('tag.remove'))!.details).toMatchObject({ kind: 'counselor' });
    expect((await call('PUT', `/admin/students/${student.id}/tags/captain`, { days: 7 })).statusCode).toBe(400);
    expect((await call('PUT', `/admin/students/${randomUUID()}/tags/leader`, { days: 7 })).statusCode).toBe(404);
  });

  test('an expired tag stops counting at once, before any sweep, and the sweep then removes it', async () => {
    const student = await create();
    const cookie = await t.loginStudent(student.studentId, 'segredo-123');
    await call('PUT', `/admin/students/${student.id}/tags/leader`, { days: 1 });
    expect(await activeTagKinds(student.id)).toEqual(['leader']);
    // End it a second ago, as if the day had passed.
    const moved = await call('PATCH', `/admin/students/${student.id}/tags/leader`, {
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ message: 'Tag Líder da Semana removida', tags: [] });
    expect(await t.db.select().from(studentTags).where(eq(studentTags.studentUuid, student.id))).toHaveLength(1);
    expect(await activeTagKinds(student.id)).toEqual([]);
    expect((await listed()).find((s) => s.id === student.id)!.tags).toEqual([]);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(me.json().student.tags).toEqual([]);
    expect(await sweepExpiredTags(t.db)).toBeGreaterThanOrEqual(1);
    expect(await t.db.select().from(studentTags).where(eq(studentTags.studentUuid, student.id))).toEqual([]);
    // A new one can be given after expiry.
    expect((await call('PUT', `/admin/students/${student.id}/tags/leader`, { days: 2 })).json().tags).toHaveLength(1);
  });

  test('the expiry can be moved to a date, at most 365 days ahead', async () => {
    const student = await create();
    await call('PUT', `/admin/students/${student.id}/tags/angel`, { days: 3 });
    const target = new Date(Date.now() + 10 * 86_400_000);
    const moved = await call('PATCH', `/admin/students/${student.id}/tags/angel`, { expiresAt: target.toISOString() });
    expect(moved.json().message).toBe(`Tag Anjo da Semana válida até ${formatDate(target)}`);
    const tooFar = await call('PATCH', `/admin/students/${student.id}/tags/angel`, {
      expiresAt: new Date(Date.now() + 400 * 86_400_000).toISOString(),
    });
    expect(errorOf(tooFar)).toBe('Data de expiração inválida (no máximo 365 dias a partir de hoje)');
    const notDate = await call('PATCH', `/admin/students/${student.id}/tags/angel`, { expiresAt: 'amanhã' });
    expect(errorOf(notDate)).toBe('Data de expiração inválida (no máximo 365 dias a partir de hoje)');
    const missing = await call('PATCH', `/admin/students/${student.id}/tags/leader`, { expiresAt: target.toISOString() });
    expect(missing.statusCode).toBe(404);
  });
});

describe('CSV export', () => {
  test('students: UTF-8 with BOM, ";" separators, pt-BR headers, accents intact, formulas neutralised, removed students left out', async () => {
    await create({ name: '=HYPERLINK("http://mal.example","clique")', studentId: newMatricula() });
    const gone = await create({ name: 'Removida da Silva' });
    await call('DELETE', `/admin/students/${gone.id}`);
    const response = await call('GET', '/admin/students/export.csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="estudantes-\d{4}-\d{2}-\d{2}\.csv"; filename\*=UTF-8''estudantes-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = response.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Matrícula;Nome;Email;Turma;Data de nascimento;Méritus;Total ganho;Estelecas;Tags;Último acesso;Cadastrado em');
    const ana = lines.find((line) => line.startsWith('3000001;'))!.split(';');
    expect(ana.slice(0, 8)).toEqual(['3000001', 'Ana Beatriz Souza', 'ana@escola.test', '1º EM - Turma A', '14/03/2010', '0', '0', '0']);
    expect(ana[10]).toMatch(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/);
    expect(response.body).toContain(`"'=HYPERLINK(""http://mal.example"",""clique"")"`);
    expect(response.body).not.toContain('Removida da Silva');
    expect((await lastAudit('students.export'))!.actorId).toBe(t.admin.id);
  });
});

test('the OpenAPI document lists the student management endpoints', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  const paths = Object.keys(response.json().paths);
  for (const p of [
    '/api/admin/students',
    '/api/admin/students/{id}',
    '/api/admin/students/{id}/photo',
    '/api/admin/students/{id}/tags/{kind}',
    '/api/admin/students/import',
    '/api/admin/students/import/preview',
    '/api/admin/students/export.csv',
    '/api/admin/ledger/export.csv',
  ]) {
    expect(paths).toContain(p);
  }
});
