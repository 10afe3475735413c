import { count, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addAdmin, addStudents, buildTestApp, cookieFrom, TEST_ADMIN, type TestApp } from '../../test/test-app.ts';
import { startOpenIdProvider, type TestIdentity, type TestOpenIdProvider } from '../../test/openid-provider.ts';
import { admins, oidcStates, sessions, students } from '../../db/schema.ts';
import { LOGIN_LIMITS } from '../../../shared/constants.ts';
import type { SignInProvider } from '../../../shared/school-accounts.ts';
import { sweepAuthState } from './auth.service.ts';

/** Where users open Méritus: the provider sends the browser back to its callback there. */
const PUBLIC_URL = 'http://meritus.test';
const DOMAIN = 'escola.test';

let idp: TestOpenIdProvider;
let t: TestApp;
beforeAll(async () => {
  idp = await startOpenIdProvider(PUBLIC_URL, DOMAIN);
  t = await buildTestApp({ env: { ...idp.env, SESSION_CACHE_MS: '0' } });
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

/** Each sign-in comes from its own address, so the limits of one test never touch another. */
let lastIp = 0;
function freshIp(): string {
  lastIp += 1;
  return `10.34.${Math.floor(lastIp / 200)}.${(lastIp % 200) + 1}`;
}

/** A browser: its address, and the cookie the start left for the callback. */
type Browser = { ip: string; stateCookie?: string };

async function start(provider: SignInProvider, browser: Browser): Promise<URL> {
  const response = await t.app.inject({ url: `/api/auth/oidc/${provider}/start`, remoteAddress: browser.ip });
  expect(response.statusCode, response.body).toBe(302);
  browser.stateCookie = cookieFrom(response);
  return new URL(response.headers.location as string);
}

/**
 * The browser at the provider, over real HTTP: it follows the provider's redirects (its login and consent, which approve
 * whoever `signInAs` named) with the provider's cookies, until the provider sends it back to Méritus.
 */
async function atProvider(authorization: URL): Promise<URL> {
  const jar = new Map<string, string>();
  let next = authorization;
  for (let hop = 0; hop < 10; hop += 1) {
    if (next.origin === PUBLIC_URL) return next;
    const response = await fetch(next, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`the provider answered ${response.status} without a redirect: ${await response.text()}`);
    next = new URL(location, next);
  }
  throw new Error('the provider kept redirecting');
}

function callback(url: URL, browser: Browser): Promise<LightMyRequestResponse> {
  return t.app.inject({
    url: `${url.pathname}${url.search}`,
    remoteAddress: browser.ip,
    headers: browser.stateCookie ? { cookie: browser.stateCookie } : {},
  });
}

/** The whole sign-in of `identity` with a provider, from a fresh browser: what the callback answered, and how to repeat it. */
async function signIn(identity: TestIdentity, provider: SignInProvider = 'google', browser: Browser = { ip: freshIp() }) {
  idp.signInAs(identity);
  const back = await atProvider(await start(provider, browser));
  return { answer: await callback(back, browser), back, browser };
}

function sessionCookieOf(response: LightMyRequestResponse): string | undefined {
  const header = response.headers['set-cookie'];
  const cookies = Array.isArray(header) ? header : header ? [header] : [];
  return cookies.find((cookie) => cookie.startsWith('meritus_session='))?.split(';')[0];
}

function expectRefused(response: LightMyRequestResponse, refusal: 'school_account_unknown' | 'school_account_failed' | 'login_locked') {
  expect(response.statusCode, response.body).toBe(302);
  expect(response.headers.location).toBe(`/login?error=${refusal}`);
  expect(sessionCookieOf(response)).toBeUndefined();
}

async function me(cookie: string) {
  return (await t.app.inject({ url: '/api/auth/me', headers: { cookie } })).json();
}

async function lastFailure() {
  return (await t.lastAudit('login.failure'))?.details;
}

describe('configuration', () => {
  test('the login page is told which providers are configured; a server without them offers none and has no such route', async () => {
    const settings = (await t.app.inject({ url: '/api/settings/public' })).json();
    expect(settings.signInProviders).toEqual(['google', 'microsoft']);

    const plain = await buildTestApp();
    try {
      expect((await plain.app.inject({ url: '/api/settings/public' })).json().signInProviders).toEqual([]);
      const response = await plain.app.inject({ url: '/api/auth/oidc/google/start' });
      expect(response.statusCode).toBe(404);
      expect((await plain.app.inject({ url: '/api/auth/oidc/facebook/start' })).statusCode).toBe(400);
    } finally {
      await plain.close();
    }
  });

  test('a provider out of reach sends the browser back to the login page with a message, never an error page', async () => {
    const closed = await startOpenIdProvider(PUBLIC_URL, DOMAIN);
    await closed.close();
    const down = await buildTestApp({ env: closed.env });
    try {
      const response = await down.app.inject({ url: '/api/auth/oidc/microsoft/start' });
      expectRefused(response, 'school_account_failed');
      expect(await down.db.select().from(oidcStates)).toEqual([]);
    } finally {
      await down.close();
    }
  });

  test('the start sends the browser to the provider with PKCE, state, nonce and the registered callback, and keeps the state once', async () => {
    const browser: Browser = { ip: freshIp() };
    const authorization = await start('google', browser);
    expect(authorization.origin).toBe(idp.issuer);
    const params = authorization.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/oidc/google/callback`);
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('nonce')).toMatch(/^[\w-]{43}$/);
    expect(params.get('scope')).toBe('openid email profile');
    expect(browser.stateCookie).toBe(`meritus_oidc_state=${params.get('state')}`);

    const response = await t.app.inject({ url: '/api/auth/oidc/google/start', remoteAddress: freshIp() });
    const cookie = ([] as string[]).concat(response.headers['set-cookie'] ?? [])[0]!;
    expect(cookie).toMatch(/; Path=\/api\/auth\/oidc\/google\/callback/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    // The verifier stays on the server: the browser and the provider see only its hash.
    const [kept] = await t.db.select().from(oidcStates).limit(1);
    expect(authorization.href).not.toContain(kept!.codeVerifier);
  });
});

describe('a school account signs in', () => {
  test('a student, by the verified email of their record (in any case), lands in their area with a session', async () => {
    const [ana] = t.students;
    const { answer } = await signIn({ email: 'Ana@Escola.Test', email_verified: true });
    expect(answer.statusCode, answer.body).toBe(302);
    expect(answer.headers.location).toBe('/student');
    const cookie = sessionCookieOf(answer)!;
    expect(await me(cookie)).toMatchObject({ role: 'student', student: { id: ana!.id, studentId: '3000001' } });
    const [row] = await t.db.select({ lastLogin: students.lastLogin }).from(students).where(eq(students.id, ana!.id));
    expect(row!.lastLogin).not.toBeNull();
    expect(await t.lastAudit('login.success')).toMatchObject({
      actorKind: 'student',
      actorId: ana!.id,
      details: { method: 'oidc', provider: 'google' },
    });
  });

  test('a staff member with Microsoft, whose token vouches for the email with xms_edov, lands in the admin area', async () => {
    const { answer } = await signIn({ email: TEST_ADMIN.email, xms_edov: true }, 'microsoft');
    expect(answer.headers.location).toBe('/admin');
    expect(await me(sessionCookieOf(answer)!)).toMatchObject({ role: 'coordinator', admin: { id: t.admin.id } });
    expect(await t.lastAudit('login.success')).toMatchObject({ actorKind: 'admin', details: { method: 'oidc', provider: 'microsoft' } });
    const [row] = await t.db.select({ lastLogin: admins.lastLogin }).from(admins).where(eq(admins.id, t.admin.id));
    expect(row!.lastLogin).not.toBeNull();
  });

  test('a teacher signs in as a teacher, and the password sign-in keeps working beside it', async () => {
    await addAdmin(t.db, { email: 'luiza@escola.test', name: 'Luiza Prado', role: 'teacher' });
    const { answer } = await signIn({ email: 'luiza@escola.test', email_verified: true });
    expect(answer.headers.location).toBe('/admin');
    expect(await me(sessionCookieOf(answer)!)).toMatchObject({ role: 'teacher' });
    expect(await me(await t.loginAdmin('luiza@escola.test'))).toMatchObject({ role: 'teacher' });
  });
});

describe('who is refused, never created', () => {
  async function accountCounts() {
    const [staff] = await t.db.select({ n: count() }).from(admins);
    const [pupils] = await t.db.select({ n: count() }).from(students);
    return { staff: staff!.n, pupils: pupils!.n };
  }

  test('an email of no student or staff member: "Conta não cadastrada na escola", and no account appears', async () => {
    const before = await accountCounts();
    const { answer } = await signIn({ email: 'ninguem@escola.test', email_verified: true });
    expectRefused(answer, 'school_account_unknown');
    expect(await accountCounts()).toEqual(before);
    expect(await lastFailure()).toMatchObject({ reason: 'unknown_account', method: 'oidc', provider: 'google' });
  });

  test("an email of another domain is refused, even when it is a student's", async () => {
    await addStudents(t.db, [{ studentId: '3400001', name: 'Beatriz Lopes', email: 'bia@gmail.test' }]);
    const { answer } = await signIn({ email: 'bia@gmail.test', email_verified: true });
    expectRefused(answer, 'school_account_unknown');
    expect(await lastFailure()).toMatchObject({ reason: 'wrong_domain' });
  });

  test('an email the provider does not vouch for is refused (Google without email_verified, Microsoft without xms_edov)', async () => {
    expectRefused((await signIn({ email: TEST_ADMIN.email, email_verified: false })).answer, 'school_account_unknown');
    expect(await lastFailure()).toMatchObject({ reason: 'unverified_email' });
    expectRefused((await signIn({ email: TEST_ADMIN.email }, 'microsoft')).answer, 'school_account_unknown');
    expect(await lastFailure()).toMatchObject({ reason: 'unverified_email', provider: 'microsoft' });
    expectRefused((await signIn({ email_verified: true })).answer, 'school_account_unknown');
  });

  test('a deactivated staff member is refused', async () => {
    const teacher = await addAdmin(t.db, { email: 'saiu@escola.test', name: 'Rui Alves', role: 'teacher' });
    await t.db.update(admins).set({ active: false }).where(eq(admins.id, teacher.id));
    expectRefused((await signIn({ email: 'saiu@escola.test', email_verified: true })).answer, 'school_account_unknown');
    expect(await lastFailure()).toMatchObject({ reason: 'inactive_account' });
  });

  test('a removed student is refused', async () => {
    const [student] = await addStudents(t.db, [{ studentId: '3400002', name: 'Caio Nunes', email: 'caio@escola.test' }]);
    const removal = await t.request('DELETE', `/admin/students/${student!.id}`);
    expect(removal.statusCode, removal.body).toBeLessThan(300);
    expectRefused((await signIn({ email: 'caio@escola.test', email_verified: true })).answer, 'school_account_unknown');
    expect(await lastFailure()).toMatchObject({ reason: 'unknown_account' });
  });

  test('an email two students share does not pick one of them', async () => {
    await addStudents(t.db, [
      { studentId: '3400003', name: 'Davi Souza', email: 'irmaos@escola.test' },
      { studentId: '3400004', name: 'Elisa Souza', email: 'irmaos@escola.test' },
    ]);
    expectRefused((await signIn({ email: 'irmaos@escola.test', email_verified: true })).answer, 'school_account_unknown');
    expect(await lastFailure()).toMatchObject({ reason: 'ambiguous_account' });
  });

  test('refusals count toward the sign-in limits of that email from that address', async () => {
    const browser = { ip: freshIp() };
    const identity = { email: 'insiste@escola.test', email_verified: true };
    for (let i = 0; i < LOGIN_LIMITS.perAccountAndAddress.max; i += 1) {
      expectRefused((await signIn(identity, 'google', browser)).answer, 'school_account_unknown');
    }
    expectRefused((await signIn(identity, 'google', browser)).answer, 'login_locked');
    expect(await t.lastAudit('login.blocked')).toMatchObject({ actorLabel: 'oidc:insiste@escola.test' });
  });
});

describe('the flow cannot be replayed or forged', () => {
  test('a callback sent again (a replayed state) is refused, and opens no second session', async () => {
    const { answer, back, browser } = await signIn({ email: 'ana@escola.test', email_verified: true });
    expect(answer.headers.location).toBe('/student');
    const [before] = await t.db.select({ n: count() }).from(sessions);
    expectRefused(await callback(back, browser), 'school_account_failed');
    expect(await lastFailure()).toMatchObject({ reason: 'state_unknown' });
    const [after] = await t.db.select({ n: count() }).from(sessions);
    expect(after!.n).toBe(before!.n);
  });

  test('an expired code is refused by the provider, and the sign-in fails', async () => {
    idp.signInAs({ email: 'ana@escola.test', email_verified: true });
    const browser: Browser = { ip: freshIp() };
    const back = await atProvider(await start('google', browser));
    idp.expireCodes();
    expectRefused(await callback(back, browser), 'school_account_failed');
    expect(await lastFailure()).toMatchObject({ reason: 'exchange_failed', detail: expect.stringContaining('invalid_grant') });
  });

  test("a callback in another browser than the one that started (someone else's link) is refused", async () => {
    idp.signInAs({ email: 'ana@escola.test', email_verified: true });
    const started: Browser = { ip: freshIp() };
    const back = await atProvider(await start('google', started));
    const other: Browser = { ip: started.ip };
    await start('google', other);
    expectRefused(await callback(back, other), 'school_account_failed');
    expectRefused(await callback(back, { ip: started.ip }), 'school_account_failed');
    expect(await lastFailure()).toMatchObject({ reason: 'state_mismatch' });
    // The state was not spent by the forged callbacks: the browser that started still finishes.
    expect((await callback(back, started)).headers.location).toBe('/student');
  });

  test('the code is redeemed only with the PKCE verifier, and the ID token must carry the nonce that was sent', async () => {
    for (const [column, reason] of [
      ['codeVerifier', 'invalid_grant'],
      ['nonce', '"nonce" claim'],
    ] as const) {
      idp.signInAs({ email: 'ana@escola.test', email_verified: true });
      const browser: Browser = { ip: freshIp() };
      const back = await atProvider(await start('google', browser));
      // What an attacker holding only the code would lack: the verifier and nonce kept on the server.
      await t.db.update(oidcStates).set({ [column]: 'x'.repeat(43) });
      expectRefused(await callback(back, browser), 'school_account_failed');
      expect(await lastFailure()).toMatchObject({ reason: 'exchange_failed', detail: expect.stringContaining(reason) });
    }
  });

  test('a state older than its ten minutes is refused', async () => {
    idp.signInAs({ email: 'ana@escola.test', email_verified: true });
    const browser: Browser = { ip: freshIp() };
    const back = await atProvider(await start('google', browser));
    await t.db.update(oidcStates).set({ expiresAt: new Date(Date.now() - 1000) });
    expectRefused(await callback(back, browser), 'school_account_failed');
    expect(await lastFailure()).toMatchObject({ reason: 'state_unknown' });
  });

  test('a state started for one provider does not finish at the other', async () => {
    idp.signInAs({ email: 'ana@escola.test', email_verified: true });
    const browser: Browser = { ip: freshIp() };
    const back = await atProvider(await start('google', browser));
    // Sent with the state's cookie, which a browser would keep for Google's callback alone.
    const elsewhere = new URL(back.href.replace('/oidc/google/', '/oidc/microsoft/'));
    expectRefused(await callback(elsewhere, browser), 'school_account_failed');
    expect(await lastFailure()).toMatchObject({ reason: 'state_unknown', provider: 'microsoft' });
    expect((await callback(back, browser)).headers.location).toBe('/student');
  });

  test('a sign-in cancelled at the provider comes back refused', async () => {
    const browser: Browser = { ip: freshIp() };
    const authorization = await start('google', browser);
    const state = authorization.searchParams.get('state')!;
    const back = new URL(
      `${PUBLIC_URL}/api/auth/oidc/google/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(idp.issuer)}`,
    );
    expectRefused(await callback(back, browser), 'school_account_failed');
    expect(await lastFailure()).toMatchObject({ reason: 'exchange_failed', detail: expect.stringContaining('access_denied') });
  });

  test('the sweep drops sign-ins never finished', async () => {
    await start('google', { ip: freshIp() });
    await t.db.update(oidcStates).set({ expiresAt: new Date(Date.now() - 1000) });
    await sweepAuthState(t.db);
    expect(await t.db.select().from(oidcStates)).toEqual([]);
  });
});
