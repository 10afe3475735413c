import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { students } from '../../db/schema.ts';
import { addStudents, buildTestApp, cookieFrom, TEST_PASSWORD, type TestApp, type TestStudent } from '../../test/test-app.ts';
import { DEFAULT_RULES } from '../../../shared/settings.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import type { SessionUser } from '../../../shared/auth.ts';

/**
 * A student's own password (POST /api/me/password): the current one is required, other sessions end and this one stays;
 * and the school's rule that a password the staff gave must be changed before the area opens.
 */
let t: TestApp;
let serial = 0;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

async function newStudent(): Promise<TestStudent> {
  serial += 1;
  const [student] = await addStudents(t.db, [{ studentId: `53000${serial}`, name: `Aluna Senha ${serial}` }]);
  return student!;
}

const signIn = (studentId: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/student/login', payload: { studentId, password } });

const change = (cookie: string, currentPassword: string, newPassword: string) =>
  t.request('POST', '/me/password', { cookie, payload: { currentPassword, newPassword } });

const codeOf = (response: { json: <T>() => T }) => response.json<{ error: { code: string; message: string } }>().error;

async function setRule(studentsChangeResetPassword: boolean) {
  const response = await t.request('PUT', '/admin/settings/rules', { payload: { ...DEFAULT_RULES, studentsChangeResetPassword } });
  expect(response.statusCode, response.body).toBe(200);
}

/** The staff's single reset, as the Gerenciar Alunos screen does it; the new password. */
async function reset(student: TestStudent): Promise<string> {
  const response = await t.request('POST', `/admin/students/${student.id}/password`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ password: string }>().password;
}

describe('own password', () => {
  test('needs the current password; ends the other sessions, this one stays; the new one signs in, the old one not', async () => {
    const student = await newStudent();
    const here = await t.loginStudent(student.studentId);
    const elsewhere = await t.loginStudent(student.studentId);

    const wrong = await change(here, 'nao-e-esta', 'minha-senha-nova');
    expect(wrong.statusCode).toBe(400);
    expect(codeOf(wrong)).toEqual({
      code: 'current_password_wrong',
      message: ERROR_MESSAGES.current_password_wrong,
      fields: expect.anything(),
    });
    expect((await t.lastAudit('login.failure'))?.details).toMatchObject({ reason: 'wrong_current_password', studentUuid: student.id });
    const short = await change(here, TEST_PASSWORD, 'abc');
    expect(short.statusCode).toBe(400);
    expect(codeOf(short).message).toBe(ERROR_MESSAGES.password_too_short);
    const same = await change(here, TEST_PASSWORD, TEST_PASSWORD);
    expect(codeOf(same).code).toBe('password_unchanged');
    // Nothing changed so far: both sessions and the old password work.
    expect((await t.request('GET', '/auth/me', { cookie: elsewhere })).statusCode).toBe(200);

    const changed = await change(here, TEST_PASSWORD, 'minha-senha-nova');
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<{ message: string }>().message).toContain('Senha alterada');
    expect((await t.request('GET', '/me/summary', { cookie: here })).statusCode).toBe(200);
    expect((await t.request('GET', '/auth/me', { cookie: elsewhere })).statusCode).toBe(401);
    expect((await signIn(student.studentId, 'minha-senha-nova')).statusCode).toBe(200);
    expect((await signIn(student.studentId, TEST_PASSWORD)).statusCode).toBe(401);

    const audit = await t.lastAudit('student.password_change');
    expect(audit?.actorId).toBe(student.id);
    expect(JSON.stringify(audit?.details)).not.toContain('minha-senha-nova');
    expect(JSON.stringify(audit?.details)).not.toContain(TEST_PASSWORD);
  });

  test('only students change their own password here', async () => {
    const response = await t.request('POST', '/me/password', { payload: { currentPassword: TEST_PASSWORD, newPassword: 'outra-senha-1' } });
    expect(response.statusCode).toBe(403);
  });
});

describe("the school's rule: a password the staff gave is changed at the next sign-in", () => {
  test('with the rule, the reset student reaches only the change; after it, everything', async () => {
    await setRule(true);
    try {
      const student = await newStudent();
      const given = await reset(student);
      const login = await signIn(student.studentId, given);
      expect(login.statusCode).toBe(200);
      expect(login.json<SessionUser>()).toMatchObject({ role: 'student', passwordChangeRequired: true });
      const cookie = cookieFrom(login);

      for (const url of ['/me/summary', '/ranking', '/me/transactions', '/students/directory', '/store/items']) {
        const refused = await t.request('GET', url, { cookie });
        expect(refused.statusCode, url).toBe(403);
        expect(codeOf(refused), url).toEqual({ code: 'password_change_required', message: ERROR_MESSAGES.password_change_required });
      }
      const me = await t.request('GET', '/auth/me', { cookie });
      expect(me.json<SessionUser>()).toMatchObject({ passwordChangeRequired: true });
      expect((await t.request('GET', '/settings', { cookie })).statusCode).toBe(200);

      expect((await change(cookie, given, 'escolhida-por-mim')).statusCode).toBe(200);
      expect((await t.request('GET', '/me/summary', { cookie })).statusCode).toBe(200);
      expect((await t.request('GET', '/auth/me', { cookie })).json<SessionUser>()).not.toHaveProperty('passwordChangeRequired');
      // The next sign-in opens the area at once.
      expect((await signIn(student.studentId, 'escolhida-por-mim')).json<SessionUser>()).not.toHaveProperty('passwordChangeRequired');
    } finally {
      await setRule(false);
    }
  });

  test('access cards give temporary passwords too', async () => {
    await setRule(true);
    try {
      const student = await newStudent();
      const response = await t.request('POST', '/admin/students/access-cards', { payload: { studentIds: [student.id] } });
      expect(response.statusCode, response.body).toBe(200);
      // The flag the guard reads with the session.
      const [row] = await t.db.select({ temporary: students.temporaryPassword }).from(students).where(eq(students.id, student.id));
      expect(row?.temporary).toBe(true);
    } finally {
      await setRule(false);
    }
  });

  test('without the rule, a reset student uses the area at once', async () => {
    const student = await newStudent();
    const given = await reset(student);
    const login = await signIn(student.studentId, given);
    expect(login.json<SessionUser>()).not.toHaveProperty('passwordChangeRequired');
    expect((await t.request('GET', '/me/summary', { cookie: cookieFrom(login) })).statusCode).toBe(200);
  });

  test('a rule turned on applies to a session already open', async () => {
    const student = await newStudent();
    const login = await signIn(student.studentId, await reset(student));
    const cookie = cookieFrom(login);
    expect((await t.request('GET', '/me/summary', { cookie })).statusCode).toBe(200);
    await setRule(true);
    try {
      expect(codeOf(await t.request('GET', '/me/summary', { cookie })).code).toBe('password_change_required');
    } finally {
      await setRule(false);
    }
  });
});
