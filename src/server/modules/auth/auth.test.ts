import { desc, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addStudents, buildTestApp, TEST_ADMIN, TEST_PASSWORD, type TestApp } from '../../test/test-app.ts';
import { admins, auditLog, loginFailures, sessions, students } from '../../db/schema.ts';
import { registeredApiRoutes } from '../../test/routes.ts';
import { hashToken, sweepAuthState } from './auth.service.ts';
import { ERROR_MESSAGES, loginLockedMessage } from '../../../shared/errors.ts';
import { LOGIN_LIMITS, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../../shared/constants.ts';

const MINUTE = 60_000;

let t: TestApp;
beforeAll(async () => {
  // These tests move session times in the database behind the server's back, which a
  // remembered session cannot see; session-cache.test.ts covers the cache's own expiry.
  t = await buildTestApp({ env: { SESSION_CACHE_MS: '0' } });
});
afterAll(async () => t.close());

/** Each test signs in from its own address, so the per-IP limit of one test never touches another. */
let lastIp = 0;
function freshIp(): string {
  lastIp += 1;
  return `10.9.${Math.floor(lastIp / 200)}.${(lastIp % 200) + 1}`;
}

type LoginOptions = { ip?: string; headers?: Record<string, string>; app?: TestApp };

function studentLogin(studentId: string, password: string, options: LoginOptions = {}) {
  return (options.app ?? t).app.inject({
    method: 'POST',
    url: '/api/auth/student/login',
    payload: { studentId, password },
    remoteAddress: options.ip ?? freshIp(),
    headers: options.headers ?? {},
  });
}

function adminLogin(email: string, password: string, options: LoginOptions = {}) {
  return (options.app ?? t).app.inject({
    method: 'POST',
    url: '/api/auth/admin/login',
    payload: { email, password },
    remoteAddress: options.ip ?? freshIp(),
    headers: options.headers ?? {},
  });
}

function me(cookie: string | undefined, app: TestApp = t) {
  return app.app.inject({ url: '/api/auth/me', headers: cookie ? { cookie } : {} });
}

function setCookieHeader(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie'];
  const first = Array.isArray(header) ? header[0] : header;
  expect(first, `no Set-Cookie (status ${response.statusCode}: ${response.body})`).toBeDefined();
  return first!;
}

/** The `name=value` pair to send back, as a browser would. */
function sessionCookie(response: LightMyRequestResponse): string {
  return setCookieHeader(response).split(';')[0]!;
}

function tokenHashOf(cookie: string): string {
  return hashToken(cookie.slice(cookie.indexOf('=') + 1));
}

function errorBody(code: keyof typeof ERROR_MESSAGES) {
  return { error: { code, message: ERROR_MESSAGES[code] } };
}

/** A student of one test alone, so locking or timing them out disturbs no other test. */
let lastStudent = 0;
async function newStudent(name = 'Estudante de Teste') {
  lastStudent += 1;
  const [row] = await addStudents(t.db, [{ studentId: String(3100000 + lastStudent), name }]);
  return row!;
}

async function auditRows(ip: string) {
  return t.db.select().from(auditLog).where(eq(auditLog.ip, ip)).orderBy(auditLog.id);
}

describe('student sign-in', () => {
  test('the right password signs in and the cookie restores the session after a reload', async () => {
    const response = await studentLogin('3000001', TEST_PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      role: 'student',
      student: { studentId: '3000001', name: 'Ana Beatriz Souza', meritus: 0, estelecas: 0, totalEarned: 0, email: 'ana@escola.test' },
    });
    const reload = await me(sessionCookie(response));
    expect(reload.statusCode).toBe(200);
    expect(reload.json()).toMatchObject({ role: 'student', student: { id: t.students[0]!.id, studentId: '3000001' } });
  });

  test('a wrong password and an unknown matrícula get the same 401 and no cookie', async () => {
    const wrong = await studentLogin('3000001', 'senha-errada');
    const unknown = await studentLogin('9999999', TEST_PASSWORD);
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(errorBody('student_login_failed'));
      expect(response.json().error.message).toBe('Matrícula ou senha incorretos');
      expect(response.headers['set-cookie']).toBeUndefined();
    }
  });

  test.each([
    ['both empty', '', ''],
    ['empty matrícula', '', TEST_PASSWORD],
    ['blank matrícula', '   ', TEST_PASSWORD],
    ['empty password', '3000001', ''],
  ])('%s → 400 "Preencha todos os campos obrigatórios"', async (_label, studentId, password) => {
    const response = await studentLogin(studentId, password);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'missing_fields', message: 'Preencha todos os campos obrigatórios' });
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  test('a removed student can no longer sign in', async () => {
    const student = await newStudent();
    await t.db.update(students).set({ deletedAt: new Date() }).where(eq(students.id, student.id));
    const response = await studentLogin(student.studentId, TEST_PASSWORD);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(errorBody('student_login_failed'));
  });
});

describe('administrator sign-in', () => {
  test('the right password signs in (email in any case) and the cookie restores the session', async () => {
    const response = await adminLogin(TEST_ADMIN.email.toUpperCase(), TEST_PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ role: 'coordinator', admin: { email: TEST_ADMIN.email, name: TEST_ADMIN.name } });
    const reload = await me(sessionCookie(response));
    expect(reload.statusCode).toBe(200);
    expect(reload.json()).toMatchObject({ role: 'coordinator', admin: { id: t.admin.id } });
  });

  test('a wrong password and an unknown email get the same 401 and no cookie', async () => {
    const wrong = await adminLogin(TEST_ADMIN.email, 'senha-errada');
    const unknown = await adminLogin('ninguem@escola.test', TEST_PASSWORD);
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(errorBody('admin_login_failed'));
      expect(response.json().error.message).toBe('Email ou senha incorretos');
      expect(response.headers['set-cookie']).toBeUndefined();
    }
  });

  test.each([
    ['both empty', '', ''],
    ['empty email', '', TEST_PASSWORD],
    ['empty password', TEST_ADMIN.email, ''],
  ])('%s → 400 "Preencha todos os campos obrigatórios"', async (_label, email, password) => {
    const response = await adminLogin(email, password);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'missing_fields', message: 'Preencha todos os campos obrigatórios' });
  });
});

describe('what a sign-in leaves behind', () => {
  test('passwords are stored as argon2id hashes with at least 19 MiB and 2 passes', async () => {
    // Written by the product: a new student's, then the same student's reset one (the fixtures' own hash is cheap on
    // purpose, test-app.ts).
    const created = await t.request('POST', '/admin/students', {
      payload: { studentId: '3999001', name: 'Rita de Cássia Prado', password: 'senha-nova-1', grade: '1º EM - Turma A' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = (created.json() as { student: { id: string } }).student;
    const hashOf = async () => (await t.db.select({ hash: students.passwordHash }).from(students).where(eq(students.id, id)))[0]!.hash;
    const first = await hashOf();
    const reset = await t.request('POST', `/admin/students/${id}/password`);
    expect(reset.statusCode, reset.body).toBe(200);
    const { password } = reset.json() as { password: string };
    expect((await studentLogin('3999001', password)).statusCode).toBe(200);
    for (const hash of [first, await hashOf()]) {
      const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(hash);
      expect(match, hash).not.toBeNull();
      expect(Number(match![1])).toBeGreaterThanOrEqual(19456);
      expect(Number(match![2])).toBeGreaterThanOrEqual(2);
    }
  });

  test('lastLogin is recorded for students and administrators', async () => {
    const student = await newStudent();
    expect(student.lastLogin).toBeNull();
    const before = Date.now();
    const response = await studentLogin(student.studentId, TEST_PASSWORD);
    const after = Date.now();
    const [row] = await t.db.select().from(students).where(eq(students.id, student.id));
    expect(row!.lastLogin!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(row!.lastLogin!.getTime()).toBeLessThanOrEqual(after + 1000);
    expect(response.json().student.lastLogin).toBe(row!.lastLogin!.toISOString());

    await t.db.update(admins).set({ lastLogin: null }).where(eq(admins.id, t.admin.id));
    await adminLogin(TEST_ADMIN.email, TEST_PASSWORD);
    const [admin] = await t.db.select().from(admins).where(eq(admins.id, t.admin.id));
    expect(admin!.lastLogin!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  test('every success and failure is in the audit log with time, account and IP', async () => {
    const ip = freshIp();
    const started = Date.now();
    await studentLogin('3000002', TEST_PASSWORD, { ip });
    await studentLogin('3000002', 'senha-errada', { ip });
    await studentLogin('9999998', 'qualquer', { ip });
    await adminLogin(TEST_ADMIN.email, TEST_PASSWORD, { ip });
    await adminLogin(TEST_ADMIN.email, 'senha-errada', { ip });
    const rows = await auditRows(ip);
    expect(rows.map((row) => [row.action, row.actorKind, row.actorLabel])).toEqual([
      ['login.success', 'student', 'Bruno Henrique Lima (3000002)'],
      ['login.failure', 'anonymous', 'student:3000002'],
      ['login.failure', 'anonymous', 'student:9999998'],
      ['login.success', 'admin', TEST_ADMIN.name],
      ['login.failure', 'anonymous', `admin:${TEST_ADMIN.email}`],
    ]);
    expect(rows[0]!.actorId).toBe(t.students[1]!.id);
    expect(rows[3]!.actorId).toBe(t.admin.id);
    expect(rows.map((row) => row.details.reason)).toEqual([undefined, 'wrong_password', 'unknown_account', undefined, 'wrong_password']);
    for (const row of rows) {
      expect(row.ip).toBe(ip);
      expect(row.at.getTime()).toBeGreaterThanOrEqual(started - 1000);
      expect(row.at.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    }
  });
});

describe('session cookie', () => {
  test('is httpOnly, SameSite=Lax, for the whole site, not Secure over http, and expires after 12 hours', async () => {
    const before = Date.now();
    const header = setCookieHeader(await studentLogin('3000001', TEST_PASSWORD));
    expect(header).toMatch(/^meritus_session=[A-Za-z0-9_-]{43};/);
    expect(header).toMatch(/; HttpOnly/i);
    expect(header).toMatch(/; SameSite=Lax/i);
    expect(header).toMatch(/; Path=\//);
    expect(header).not.toMatch(/; Secure/i);
    expect(header).not.toMatch(/; Domain=/i);
    const expires = Date.parse(/; Expires=([^;]+)/i.exec(header)![1]!);
    expect(expires).toBeGreaterThan(before + SESSION_ABSOLUTE_MS - MINUTE);
    expect(expires).toBeLessThan(before + SESSION_ABSOLUTE_MS + MINUTE);
  });

  test('every sign-in issues a new token, even when the browser already sends one', async () => {
    const first = sessionCookie(await studentLogin('3000001', TEST_PASSWORD));
    const second = sessionCookie(await studentLogin('3000001', TEST_PASSWORD, { headers: { cookie: first } }));
    const third = sessionCookie(await studentLogin('3000001', TEST_PASSWORD));
    expect(new Set([first, second, third]).size).toBe(3);
    for (const cookie of [first, second, third]) expect((await me(cookie)).statusCode).toBe(200);
  });

  test('the database holds only a hash of the token', async () => {
    const cookie = sessionCookie(await studentLogin('3000001', TEST_PASSWORD));
    const token = cookie.split('=')[1]!;
    const [byToken] = await t.db.select().from(sessions).where(eq(sessions.tokenHash, token));
    const [byHash] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, tokenHashOf(cookie)));
    expect(byToken).toBeUndefined();
    expect(byHash).toBeDefined();
  });
});

describe('sign-out and expiry', () => {
  test('logout ends the session: the old cookie gets 401, other devices stay signed in', async () => {
    const cookie = sessionCookie(await studentLogin('3000003', TEST_PASSWORD));
    const otherDevice = sessionCookie(await studentLogin('3000003', TEST_PASSWORD));
    const ip = freshIp();
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie }, remoteAddress: ip });
    expect(response.statusCode).toBe(204);
    const cleared = setCookieHeader(response);
    expect(cleared).toMatch(/^meritus_session=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/i);

    const after = await me(cookie);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual(errorBody('unauthenticated'));
    expect(
      await t.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, tokenHashOf(cookie))),
    ).toEqual([]);
    expect((await me(otherDevice)).statusCode).toBe(200);
    expect((await auditRows(ip)).map((row) => [row.action, row.actorLabel])).toEqual([['logout', 'Carla Dias Ferreira']]);
  });

  test('logout without a session is a 401', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/logout' });
    expect(response.statusCode).toBe(401);
  });

  test('two hours without activity end the session', async () => {
    const cookie = sessionCookie(await studentLogin('3000001', TEST_PASSWORD));
    await t.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - SESSION_IDLE_MS - MINUTE) })
      .where(eq(sessions.tokenHash, tokenHashOf(cookie)));
    const response = await me(cookie);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(errorBody('unauthenticated'));
    expect(
      await t.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, tokenHashOf(cookie))),
    ).toEqual([]);
  });

  test('activity keeps a session alive: the idle clock restarts at every request', async () => {
    const cookie = sessionCookie(await studentLogin('3000001', TEST_PASSWORD));
    const where = eq(sessions.tokenHash, tokenHashOf(cookie));
    await t.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - SESSION_IDLE_MS + 2 * MINUTE) })
      .where(where);
    expect((await me(cookie)).statusCode).toBe(200);
    const [row] = await t.db.select().from(sessions).where(where);
    expect(Date.now() - row!.lastSeenAt.getTime()).toBeLessThan(MINUTE);
    // Another 1 h 59 min later the session is still there, because the clock restarted.
    await t.db
      .update(sessions)
      .set({ lastSeenAt: new Date(row!.lastSeenAt.getTime() - SESSION_IDLE_MS + 2 * MINUTE) })
      .where(where);
    expect((await me(cookie)).statusCode).toBe(200);
  });

  test('twelve hours after sign-in the session ends even while in use', async () => {
    const cookie = sessionCookie(await studentLogin('3000001', TEST_PASSWORD));
    const where = eq(sessions.tokenHash, tokenHashOf(cookie));
    const [row] = await t.db.select().from(sessions).where(where);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeGreaterThan(SESSION_ABSOLUTE_MS - MINUTE);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeLessThanOrEqual(SESSION_ABSOLUTE_MS + MINUTE);

    const signedInAt = Date.now() - SESSION_ABSOLUTE_MS + 30_000;
    await t.db
      .update(sessions)
      .set({ createdAt: new Date(signedInAt), expiresAt: new Date(signedInAt + SESSION_ABSOLUTE_MS), lastSeenAt: new Date() })
      .where(where);
    expect((await me(cookie)).statusCode).toBe(200);
    await t.db
      .update(sessions)
      .set({
        createdAt: new Date(signedInAt - MINUTE),
        expiresAt: new Date(signedInAt - MINUTE + SESSION_ABSOLUTE_MS),
        lastSeenAt: new Date(),
      })
      .where(where);
    const response = await me(cookie);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(errorBody('unauthenticated'));
  });
});

describe('sign-in limits', () => {
  const pair = LOGIN_LIMITS.perAccountAndAddress;

  /** Wrong passwords on one account from one address, each answered 401. */
  async function failStudent(studentId: string, times: number, ip: string) {
    for (let attempt = 1; attempt <= times; attempt++) {
      const response = await studentLogin(studentId, `errada-${attempt}`, { ip });
      expect(response.statusCode, `attempt ${attempt} on ${studentId} from ${ip}`).toBe(401);
    }
  }

  /** Moves the failures of an account into the past, as the clock would. */
  async function ageFailures(accountKey: string, minutes: number) {
    await t.db
      .update(loginFailures)
      .set({ at: sql`${loginFailures.at} - make_interval(mins => ${minutes})` })
      .where(eq(loginFailures.accountKey, accountKey));
  }

  function expectRefused(response: LightMyRequestResponse, retryAfter: { above: number; atMost: number }) {
    expect(response.statusCode, response.body).toBe(429);
    const seconds = Number(response.headers['retry-after']);
    expect(seconds).toBeGreaterThan(retryAfter.above);
    expect(seconds).toBeLessThanOrEqual(retryAfter.atMost);
    expect(response.json()).toEqual({ error: { code: 'login_locked', message: loginLockedMessage(seconds) } });
    expect(response.headers['set-cookie']).toBeUndefined();
    return seconds;
  }

  test('the refusal says the wait in words, rounded up to minutes, and the generic text is the 15-minute one', () => {
    expect(loginLockedMessage(720)).toBe('Muitas tentativas de login. Tente novamente em 12 minutos.');
    expect(loginLockedMessage(661)).toBe('Muitas tentativas de login. Tente novamente em 12 minutos.');
    expect(loginLockedMessage(60)).toBe('Muitas tentativas de login. Tente novamente em 1 minuto.');
    expect(loginLockedMessage(59)).toBe('Muitas tentativas de login. Tente novamente em 59 segundos.');
    expect(loginLockedMessage(1)).toBe('Muitas tentativas de login. Tente novamente em 1 segundo.');
    expect(loginLockedMessage(15 * 60)).toBe(ERROR_MESSAGES.login_locked);
  });

  test('one address alone can never reach the limit that closes an account everywhere', () => {
    const windowsPerAccountWindow = Math.ceil(LOGIN_LIMITS.perAccount.windowMs / pair.windowMs);
    expect(pair.max * windowsPerAccountWindow).toBeLessThan(LOGIN_LIMITS.perAccount.max);
  });

  test(`after ${pair.max} failures on one account from one address, that address waits for it; the owner signs in elsewhere and classmates there`, async () => {
    const victim = await newStudent();
    const classmate = await newStudent();
    const ip = freshIp();
    await failStudent(victim.studentId, pair.max, ip);

    const refused = await studentLogin(victim.studentId, TEST_PASSWORD, { ip });
    expectRefused(refused, { above: pair.windowMs / 1000 - 60, atMost: pair.windowMs / 1000 });
    expect(refused.json().error.message).toBe('Muitas tentativas de login. Tente novamente em 15 minutos.');
    expect((await studentLogin(victim.studentId, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await studentLogin(classmate.studentId, TEST_PASSWORD, { ip })).statusCode).toBe(200);
    expect((await adminLogin(TEST_ADMIN.email, TEST_PASSWORD, { ip })).statusCode).toBe(200);

    const blocked = (await auditRows(ip)).filter((row) => row.action === 'login.blocked');
    expect(blocked.map((row) => [row.actorLabel, row.details.limits])).toEqual([[`student:${victim.studentId}`, ['perAccountAndAddress']]]);
  });

  test('the wait counts from the failures: 12 minutes later it is 3 minutes, and after 15 the address may try again', async () => {
    const student = await newStudent();
    const ip = freshIp();
    await failStudent(student.studentId, pair.max, ip);
    await ageFailures(`student:${student.studentId}`, 12);
    const refused = await studentLogin(student.studentId, TEST_PASSWORD, { ip });
    expectRefused(refused, { above: 120, atMost: 180 });
    expect(refused.json().error.message).toBe('Muitas tentativas de login. Tente novamente em 3 minutos.');

    await ageFailures(`student:${student.studentId}`, 4);
    expect((await studentLogin(student.studentId, 'errada', { ip })).statusCode).toBe(401);
    expect((await studentLogin(student.studentId, TEST_PASSWORD, { ip })).statusCode).toBe(200);
  });

  test(`guesses sent together cannot pass the limit: of 25 sent at once from one address, at most ${pair.max} are checked`, async () => {
    const student = await newStudent();
    const ip = freshIp();
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, index) => studentLogin(student.studentId, `errada-${index}`, { ip })),
    );
    const checked = responses.filter((response) => response.statusCode === 401).length;
    expect(responses.filter((response) => response.statusCode === 429)).toHaveLength(25 - checked);
    expect(checked).toBeLessThanOrEqual(pair.max);
    const rows = await t.db
      .select()
      .from(loginFailures)
      .where(eq(loginFailures.accountKey, `student:${student.studentId}`));
    expect(rows.map((row) => row.pending)).toEqual(Array.from({ length: checked }, () => false));
    expect((await studentLogin(student.studentId, TEST_PASSWORD)).statusCode).toBe(200);
  });

  test('an administrator account is limited the same way (email in any case)', async () => {
    const ip = freshIp();
    for (let attempt = 1; attempt <= pair.max; attempt++) {
      expect((await adminLogin('Diretora@escola.test', 'errada', { ip })).statusCode).toBe(401);
    }
    expectRefused(await adminLogin('diretora@escola.test', 'errada', { ip }), { above: 0, atMost: pair.windowMs / 1000 });
    expect((await adminLogin('diretora@escola.test', 'errada')).statusCode).toBe(401);
    expect((await adminLogin(TEST_ADMIN.email, TEST_PASSWORD, { ip })).statusCode).toBe(200);
  });

  test('an account that does not exist gets the same answers, so the limit reveals nothing', async () => {
    const real = await newStudent();
    const answers = async (studentId: string) => {
      const ip = freshIp();
      const statuses: string[] = [];
      for (let attempt = 0; attempt <= pair.max; attempt++) {
        const response = await studentLogin(studentId, 'errada', { ip });
        statuses.push(`${response.statusCode} ${response.body}`);
      }
      return statuses;
    };
    const forReal = await answers(real.studentId);
    const forUnknown = await answers('8888888');
    expect(forUnknown).toEqual(forReal);
    expect(forReal.at(-1)).toBe(`429 ${JSON.stringify(errorBody('login_locked'))}`);
  });

  test('a successful sign-in clears the failures of its own address only; failures older than the window no longer count', async () => {
    const student = await newStudent();
    const key = `student:${student.studentId}`;
    const [home, elsewhere] = [freshIp(), freshIp()];
    await failStudent(student.studentId, pair.max - 1, home);
    await failStudent(student.studentId, pair.max - 1, elsewhere);
    expect((await studentLogin(student.studentId, TEST_PASSWORD, { ip: home })).statusCode).toBe(200);
    // Home starts over; the other address keeps its failures, so the owner's success hands a guesser nothing.
    await failStudent(student.studentId, pair.max - 1, home);
    await failStudent(student.studentId, 1, elsewhere);
    expectRefused(await studentLogin(student.studentId, TEST_PASSWORD, { ip: elsewhere }), { above: 0, atMost: pair.windowMs / 1000 });

    await ageFailures(key, pair.windowMs / MINUTE + 1);
    expect((await studentLogin(student.studentId, 'errada', { ip: elsewhere })).statusCode).toBe(401);
    expect((await studentLogin(student.studentId, TEST_PASSWORD, { ip: elsewhere })).statusCode).toBe(200);
  });

  test(`one address alone never closes an account elsewhere, even in an hour: ${pair.max * 4} failures in four windows`, async () => {
    const student = await newStudent();
    const ip = freshIp();
    for (let round = 1; round <= 4; round++) {
      if (round > 1) await ageFailures(`student:${student.studentId}`, pair.windowMs / MINUTE);
      await failStudent(student.studentId, pair.max, ip);
    }
    expect((await studentLogin(student.studentId, TEST_PASSWORD, { ip })).statusCode).toBe(429);
    expect((await studentLogin(student.studentId, 'errada')).statusCode).toBe(401);
    expect((await studentLogin(student.studentId, TEST_PASSWORD)).statusCode).toBe(200);
  });

  test(`failures from many addresses close the account everywhere at ${LOGIN_LIMITS.perAccount.max} in an hour`, async () => {
    const student = await newStudent();
    const addresses = Array.from({ length: LOGIN_LIMITS.perAccount.max / pair.max }, () => freshIp());
    for (const ip of addresses) await failStudent(student.studentId, pair.max, ip);
    const refused = await studentLogin(student.studentId, TEST_PASSWORD);
    expectRefused(refused, { above: LOGIN_LIMITS.perAccount.windowMs / 1000 - 60, atMost: LOGIN_LIMITS.perAccount.windowMs / 1000 });
    expect(refused.json().error.message).toBe('Muitas tentativas de login. Tente novamente em 60 minutos.');
    const [blocked] = (
      await t.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.actorLabel, `student:${student.studentId}`))
        .orderBy(desc(auditLog.id))
    ).filter((row) => row.action === 'login.blocked');
    expect(blocked!.details.limits).toEqual(['perAccount']);
  });

  test(`past ${LOGIN_LIMITS.perAddress.max} failures from one address across accounts, sign-ins from it wait; other addresses do not`, async () => {
    const ip = freshIp();
    // The failures a spray of guesses over many matrículas left, one each, then the last one through the API.
    await t.db
      .insert(loginFailures)
      .values(Array.from({ length: LOGIN_LIMITS.perAddress.max - 1 }, (_, index) => ({ accountKey: `student:${6600000 + index}`, ip })));
    expect((await studentLogin('6699999', 'errada', { ip })).statusCode).toBe(401);
    const refused = await adminLogin(TEST_ADMIN.email, TEST_PASSWORD, { ip });
    expectRefused(refused, { above: LOGIN_LIMITS.perAddress.windowMs / 1000 - 60, atMost: LOGIN_LIMITS.perAddress.windowMs / 1000 });
    expect((await adminLogin(TEST_ADMIN.email, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await studentLogin('3000001', TEST_PASSWORD)).statusCode).toBe(200);
  });

  test('an IPv6 client counts by its /64: other addresses of the same block share its failures', async () => {
    const student = await newStudent();
    for (let attempt = 1; attempt <= pair.max; attempt++) {
      expect((await studentLogin(student.studentId, 'errada', { ip: `2001:db8:77:1::${attempt.toString(16)}` })).statusCode).toBe(401);
    }
    expect((await studentLogin(student.studentId, TEST_PASSWORD, { ip: '2001:db8:77:1:ffff::9' })).statusCode).toBe(429);
    expect((await studentLogin(student.studentId, TEST_PASSWORD, { ip: '2001:db8:77:2::1' })).statusCode).toBe(200);
  });

  test('the sweep keeps failures as long as the longest limit counts them (an hour), and no longer', async () => {
    const student = await newStudent();
    const key = `student:${student.studentId}`;
    const ip = freshIp();
    const hourInMinutes = LOGIN_LIMITS.perAccount.windowMs / MINUTE;
    await failStudent(student.studentId, 1, ip);
    await ageFailures(key, 2);
    await failStudent(student.studentId, 1, ip);
    await ageFailures(key, hourInMinutes - 1);
    const [stillCounted] = await t.db.select().from(loginFailures).where(eq(loginFailures.accountKey, key)).orderBy(desc(loginFailures.at));
    await sweepAuthState(t.db);
    expect(await t.db.select().from(loginFailures).where(eq(loginFailures.accountKey, key))).toEqual([stillCounted]);
  });
});

describe('request origin and security headers', () => {
  test('a POST from a foreign origin is refused before it does anything', async () => {
    const login = await studentLogin('3000001', TEST_PASSWORD, { headers: { origin: 'https://evil.example' } });
    expect(login.statusCode).toBe(403);
    expect(login.json()).toEqual(errorBody('csrf'));
    expect(login.json().error.message).toBe('Requisição de origem não permitida');
    expect(login.headers['set-cookie']).toBeUndefined();

    const cookie = sessionCookie(await studentLogin('3000001', TEST_PASSWORD));
    const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie, origin: 'https://evil.example' } });
    expect(logout.statusCode).toBe(403);
    expect((await me(cookie)).statusCode).toBe(200);

    const crossSite = await studentLogin('3000001', TEST_PASSWORD, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.statusCode).toBe(403);
  });

  test('a POST from the page’s own origin is accepted', async () => {
    const response = await studentLogin('3000001', TEST_PASSWORD, {
      headers: { host: 'meritus.escola.test', origin: 'http://meritus.escola.test' },
    });
    expect(response.statusCode).toBe(200);
  });

  test('responses carry the CSP and the other security headers; no HSTS over plain http in development', async () => {
    for (const url of ['/api/health', '/api/auth/me', '/pagina-que-nao-existe']) {
      const response = await t.app.inject({ url });
      const csp = String(response.headers['content-security-policy']);
      for (const directive of ["default-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
        expect(csp, url).toContain(directive);
      }
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['strict-transport-security']).toBeUndefined();
    }
  });
});

describe('access to routes', () => {
  test('a protected route answers 401 without a session and 403 to the wrong role', async () => {
    const anonymous = await t.app.inject({ url: '/api/ranking' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual(errorBody('unauthenticated'));
    expect((await t.app.inject({ url: '/api/admin/operations' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/admin/nao-existe' })).statusCode).toBe(404);

    const student = await t.loginStudent('3000001');
    const admin = await t.loginAdmin();
    const studentOnAdmin = await t.app.inject({ url: '/api/admin/operations', headers: { cookie: student } });
    expect(studentOnAdmin.statusCode).toBe(403);
    expect(studentOnAdmin.json()).toEqual(errorBody('forbidden'));
    expect((await t.app.inject({ url: '/api/students/directory', headers: { cookie: admin } })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/ranking', headers: { cookie: student } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/admin/operations', headers: { cookie: admin } })).statusCode).toBe(200);
  });

  test('GET /api/health answers 200 while the database answers', async () => {
    const response = await t.app.inject({ url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: t.database.kind });
  });

  test('GET /api/openapi.json documents every registered API route', async () => {
    const registered = registeredApiRoutes(t.app);
    expect(registered.length).toBeGreaterThan(10);
    const response = await t.app.inject({ url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json() as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toMatch(/^3\./);
    const documented = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    // Not JSON endpoints: the document itself, and the Server-Sent Events stream (decision 005).
    const undocumented = ['GET /api/openapi.json'];
    expect(documented.sort()).toEqual(registered.filter((route) => !undocumented.includes(route)).sort());
  });
});

describe('served over https (PUBLIC_URL)', () => {
  let https: TestApp;
  beforeAll(async () => {
    https = await buildTestApp({ env: { PUBLIC_URL: 'https://meritus.escola.test', ALLOWED_ORIGINS: 'https://painel.escola.test' } });
  });
  afterAll(async () => https.close());

  test('the cookie is Secure with the __Host- prefix and signs the user in', async () => {
    const response = await studentLogin('3000001', TEST_PASSWORD, { app: https });
    expect(response.statusCode).toBe(200);
    const header = setCookieHeader(response);
    expect(header).toMatch(/^__Host-meritus_session=/);
    expect(header).toMatch(/; Secure/i);
    expect(header).toMatch(/; Path=\//);
    expect(header).not.toMatch(/; Domain=/i);
    const cookie = sessionCookie(response);
    expect((await me(cookie, https)).statusCode).toBe(200);
    // The same token under the plain name is not a session.
    expect((await me(cookie.replace('__Host-', ''), https)).statusCode).toBe(401);
  });

  test('HSTS is sent, and PUBLIC_URL and ALLOWED_ORIGINS are accepted origins while others are not', async () => {
    const health = await https.app.inject({ url: '/api/health' });
    expect(health.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    for (const origin of ['https://meritus.escola.test', 'https://painel.escola.test']) {
      expect((await studentLogin('3000001', TEST_PASSWORD, { app: https, headers: { origin } })).statusCode, origin).toBe(200);
    }
    expect(
      (await studentLogin('3000001', TEST_PASSWORD, { app: https, headers: { origin: 'http://meritus.escola.test' } })).statusCode,
    ).toBe(403);
  });
});

describe('production (NODE_ENV=production)', () => {
  let production: TestApp;
  beforeAll(async () => {
    production = await buildTestApp({ env: { NODE_ENV: 'production' } });
  });
  afterAll(async () => production.close());

  test('sends HSTS and the same security headers', async () => {
    const response = await production.app.inject({ url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    expect(String(response.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
