import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { students } from '../../db/schema.ts';
import { addAdmin, addStudents, buildTestApp, TEST_PASSWORD, turmaIdOf, type TestApp, type TestStudent } from '../../test/test-app.ts';
import { pdfPages, pdfText } from '../../test/pdf-text.ts';
import { DEFAULT_RULES } from '../../../shared/settings.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { ACCESS_CARD_TEXTS } from '../../../shared/student-access.ts';

/**
 * Access cards (POST /api/admin/students/access-cards): a turma's or chosen students' new passwords, printed in a PDF
 * and nowhere else, that then sign them in while the old ones do not; a teacher only for their turmas.
 */
let t: TestApp;
let turmaId: string;
let other: TestStudent;
let serial = 0;

const PASSWORD = /[a-z]{4}-[a-z]{4}-\d{2}/g;

beforeAll(async () => {
  t = await buildTestApp({ env: { PUBLIC_URL: 'https://meritus.escola.test' } });
  turmaId = await turmaIdOf(t.db, '1º EM - Turma B');
  other = (await addStudents(t.db, [{ studentId: '5100001', name: 'Otávio Reis', grade: '1º EM - Turma B' }]))[0]!;
});
afterAll(async () => t?.close());

/** A turma of its own for a test: `names` in a fresh turma named after it (tests do not share students). */
async function turmaWith(names: string[]): Promise<{ id: string; name: string; list: TestStudent[] }> {
  serial += 1;
  const name = `Turma Cartões ${serial}`;
  const created = await t.request('POST', '/admin/turmas', { payload: { name } });
  expect(created.statusCode, created.body).toBe(201);
  const list =
    names.length === 0
      ? []
      : await addStudents(
          t.db,
          names.map((student, i) => ({ studentId: `52${serial}${String(i).padStart(3, '0')}`, name: student, grade: name })),
        );
  return { id: created.json<{ turma: { id: string } }>().turma.id, name, list };
}

const cards = (payload: unknown, cookie?: string) =>
  t.request('POST', '/admin/students/access-cards', { payload, ...(cookie ? { cookie } : {}) });

const signIn = (studentId: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/student/login', payload: { studentId, password } });

/** Each card's password, by matrícula: a card reads name, turma, matrícula, then its password. */
function passwordsOf(text: string, list: TestStudent[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const student of list) {
    const at = text.indexOf(student.studentId);
    expect(at, `${student.studentId} in the PDF`).toBeGreaterThan(-1);
    const password = text.slice(at).match(PASSWORD)?.[0];
    expect(password, `password of ${student.studentId}`).toBeDefined();
    found.set(student.studentId, password!);
  }
  return found;
}

describe('access cards', () => {
  test('a turma: every student gets a card with a new password that signs in, the old one no longer does, sessions end with the notice', async () => {
    const turma = await turmaWith([
      'Ícaro Nunes',
      'Ana Lívia Prado',
      'Bárbara Sá',
      'Caio Teles',
      'Davi Lopes',
      'Elisa Moura',
      'Fábio Dias',
      'Gabi Ramos',
      'Hugo Leal',
    ]);
    const open = await t.loginStudent(turma.list[0]!.studentId);

    const response = await cards({ turmaId: turma.id });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('application/pdf');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-disposition']).toContain(`cartoes-de-acesso-turma-cartoes-${serial}-`);
    // Eight cards a page: nine students take two.
    expect(await pdfPages(response.rawPayload)).toBe(2);
    const text = await pdfText(response.rawPayload);
    for (const student of turma.list) expect(text).toContain(student.name);
    expect(text).toContain('meritus.escola.test');
    expect(text).toContain(ACCESS_CARD_TEXTS.cut);
    // In name order, as a teacher reads the list out: Ana Lívia first, Ícaro between Hugo and nobody after.
    expect(text.indexOf('Ana Lívia Prado')).toBeLessThan(text.indexOf('Bárbara Sá'));
    expect(text.indexOf('Hugo Leal')).toBeLessThan(text.indexOf('Ícaro Nunes'));

    const passwords = passwordsOf(text, turma.list);
    expect(new Set(passwords.values()).size).toBe(turma.list.length);
    for (const student of turma.list) {
      expect((await signIn(student.studentId, passwords.get(student.studentId)!)).statusCode).toBe(200);
      expect((await signIn(student.studentId, TEST_PASSWORD)).statusCode).toBe(401);
    }
    // The student's open page is told why it was signed out.
    const ended = await t.request('GET', '/me/summary', { cookie: open });
    expect(ended.statusCode).toBe(401);
    expect(ended.json<{ error: { code: string } }>().error.code).toBe('session_password_reset');

    // Audited with who and which students, never the passwords; not stored in clear anywhere in the row either.
    const audit = await t.lastAudit('students.access_cards');
    expect(audit?.actorId).toBe(t.admin.id);
    const details = JSON.stringify(audit?.details);
    for (const student of turma.list) expect(details).toContain(student.id);
    for (const password of passwords.values()) expect(details).not.toContain(password);
    const [row] = await t.db.select().from(students).where(eq(students.id, turma.list[0]!.id));
    expect(JSON.stringify(row)).not.toContain(passwords.get(turma.list[0]!.studentId)!);
  });

  test('chosen students, of any turmas: only they are reset', async () => {
    const turma = await turmaWith(['Lara Campos', 'Mateus Vaz', 'Nina Rocha']);
    const [lara, mateus, nina] = turma.list as [TestStudent, TestStudent, TestStudent];
    const response = await cards({ studentIds: [lara.id, other.id] });
    expect(response.statusCode, response.body).toBe(200);
    const text = await pdfText(response.rawPayload);
    expect(text).not.toContain(mateus.name);
    const passwords = passwordsOf(text, [lara, other]);
    expect((await signIn(lara.studentId, passwords.get(lara.studentId)!)).statusCode).toBe(200);
    expect((await signIn(other.studentId, passwords.get(other.studentId)!)).statusCode).toBe(200);
    // The others of Lara's turma keep their passwords.
    expect((await signIn(mateus.studentId, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await signIn(nina.studentId, TEST_PASSWORD)).statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('cartoes-de-acesso-alunos-escolhidos-');
  });

  test('a teacher prints only for their turmas; a refusal changes no password', async () => {
    const turma = await turmaWith(['Olga Pires']);
    const outside = await turmaWith(['Paulo Brito']);
    const teacher = await addAdmin(t.db, {
      email: `prof.cartoes${serial}@escola.test`,
      name: 'Prof. Rui',
      role: 'teacher',
      turmaIds: [turma.id],
    });
    const cookie = await t.loginAdmin(teacher.email);

    // Without the school's rule a teacher does not manage students at all.
    expect((await cards({ turmaId: turma.id }, cookie)).statusCode).toBe(403);
    const rules = await t.request('PUT', '/admin/settings/rules', { payload: { ...DEFAULT_RULES, teachersManageStudents: true } });
    expect(rules.statusCode, rules.body).toBe(200);
    try {
      const turmaRefused = await cards({ turmaId: outside.id }, cookie);
      expect(turmaRefused.statusCode).toBe(403);
      expect(turmaRefused.json<{ error: { code: string } }>().error.code).toBe('turma_outside_turmas');
      const studentRefused = await cards({ studentIds: [turma.list[0]!.id, outside.list[0]!.id] }, cookie);
      expect(studentRefused.statusCode).toBe(403);
      expect(studentRefused.json<{ error: { code: string } }>().error.code).toBe('student_outside_turmas');
      expect(studentRefused.body).not.toContain(outside.list[0]!.name);
      for (const student of [...turma.list, ...outside.list]) expect((await signIn(student.studentId, TEST_PASSWORD)).statusCode).toBe(200);

      const own = await cards({ turmaId: turma.id }, cookie);
      expect(own.statusCode, own.body).toBe(200);
      const password = passwordsOf(await pdfText(own.rawPayload), turma.list).get(turma.list[0]!.studentId)!;
      expect((await signIn(turma.list[0]!.studentId, password)).statusCode).toBe(200);
      expect((await t.lastAudit('students.access_cards'))?.actorId).toBe(teacher.id);
    } finally {
      await t.request('PUT', '/admin/settings/rules', { payload: DEFAULT_RULES });
    }
  });

  test.each([
    ['neither a turma nor students', {}, 400, 'access_cards_choice'],
    ['both a turma and students', () => ({ turmaId, studentIds: [other.id] }), 400, 'access_cards_choice'],
    ['an empty choice', { studentIds: [] }, 400, 'access_cards_choice'],
    ['an unknown student', { studentIds: ['00000000-0000-4000-8000-000000000000'] }, 404, 'student_not_found'],
    ['an unknown turma', { turmaId: '00000000-0000-4000-8000-000000000000' }, 404, 'turma_not_found'],
    [
      'too many students',
      { studentIds: Array.from({ length: 301 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`) },
      400,
      'access_cards_too_many',
    ],
  ])('%s: a clear refusal, nothing reset', async (_name, body, status, code) => {
    const before = (await t.lastAudit('students.access_cards'))?.id;
    const response = await cards(typeof body === 'function' ? body() : body);
    expect(response.statusCode, response.body).toBe(status);
    const error = response.json<{ error: { code: string; message: string } }>().error;
    expect(error.code).toBe(code);
    expect(error.message).toBe(ERROR_MESSAGES[code as keyof typeof ERROR_MESSAGES]);
    expect((await t.lastAudit('students.access_cards'))?.id).toBe(before);
  });

  test('a turma without students: told so', async () => {
    const empty = await turmaWith([]);
    const response = await cards({ turmaId: empty.id });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: { code: string } }>().error.code).toBe('access_cards_none');
  });
});
