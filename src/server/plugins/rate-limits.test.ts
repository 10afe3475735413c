import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { addStudents, buildTestApp, cookieFrom, TEST_ADMIN, TEST_PASSWORD, type TestApp } from '../test/test-app.ts';
import { API_RATE_LIMIT_DEFAULTS } from '../config.ts';
import { ALL_ROUTES, routes } from '../../shared/contract/routes.ts';
import { ROUTE_BUDGETS } from './route-budgets.ts';
import { LOGIN_LIMITS, RECENT_TRANSACTIONS_LIMIT } from '../../shared/constants.ts';
import { ERROR_MESSAGES, loginLockedMessage } from '../../shared/errors.ts';

/**
 * A school behind one address (its NAT), with the API limiter at its real budgets.
 * Each test uses addresses of its own, so one test's counts never reach another's.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { API_RATE_LIMIT: String(API_RATE_LIMIT_DEFAULTS.signedIn) } });
});
afterAll(async () => t.close());
afterEach(() => {
  vi.useRealTimers();
});

/** What the student dashboard reads after signing in (the live event stream aside: it never ends under inject). */
const DASHBOARD_READS = ['/api/auth/me', '/api/me/summary', `/api/me/transactions?limit=${RECENT_TRANSACTIONS_LIMIT}`, '/api/tags/active'];

function get(url: string, ip: string, cookie?: string) {
  return t.app.inject({ url, remoteAddress: ip, headers: cookie ? { cookie } : {} });
}

function studentLogin(studentId: string, password: string, ip: string) {
  return t.app.inject({ method: 'POST', url: '/api/auth/student/login', payload: { studentId, password }, remoteAddress: ip });
}

function adminLogin(password: string, ip: string) {
  return t.app.inject({ method: 'POST', url: '/api/auth/admin/login', payload: { email: TEST_ADMIN.email, password }, remoteAddress: ip });
}

function remaining(response: LightMyRequestResponse): number {
  return Number(response.headers['x-ratelimit-remaining']);
}

function expectRateLimited(response: LightMyRequestResponse): number {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual({ error: { code: 'rate_limited', message: ERROR_MESSAGES.rate_limited } });
  const seconds = Number(response.headers['retry-after']);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(API_RATE_LIMIT_DEFAULTS.windowMs / 1000);
  return seconds;
}

let lastStudent = 0;
async function newStudents(count: number) {
  const list = Array.from({ length: count }, () => {
    lastStudent += 1;
    return { studentId: String(5000000 + lastStudent), name: `Estudante ${lastStudent}` };
  });
  return addStudents(t.db, list);
}

describe('a school behind one address', () => {
  // Minutes of wall-clock time on a busy machine, so a longer timeout; the frozen clock puts every request in one window however long it takes.
  test(
    '300 students open the sign-in page, sign in and load their dashboard in the same window: no 429',
    { timeout: 300_000 },
    async () => {
      const school = '198.51.100.10';
      const students = await newStudents(300);
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
      // A class at a time: the frozen clock keeps them all in one window, and 1,800 requests sent at once would wait
      // for the test database's 30 connections longer than the pool lets a request wait (503) on a busy machine.
      const visits = [];
      for (let first = 0; first < students.length; first += 30) {
        const visiting = students.slice(first, first + 30).map(async (student) => {
          const page = await get('/api/auth/me', school);
          const login = await studentLogin(student.studentId, TEST_PASSWORD, school);
          const cookie = cookieFrom(login);
          const reads = await Promise.all(DASHBOARD_READS.map((url) => get(url, school, cookie)));
          return { page, login, reads };
        });
        visits.push(...(await Promise.all(visiting)));
      }

      const all = visits.flatMap(({ page, login, reads }) => [page, login, ...reads]);
      expect(all.filter((response) => response.statusCode === 429)).toEqual([]);
      expect(visits.map(({ page }) => page.statusCode)).toEqual(students.map(() => 401));
      expect(visits.map(({ login }) => login.statusCode)).toEqual(students.map(() => 200));
      for (const { reads } of visits) expect(reads.map((read) => read.statusCode)).toEqual(DASHBOARD_READS.map(() => 200));

      // All 600 requests without a session were counted against the address in this one window…
      const anonymous = visits.flatMap(({ page, login }) => [page, login]);
      expect(Math.min(...anonymous.map(remaining))).toBe(API_RATE_LIMIT_DEFAULTS.anonymous - anonymous.length);
      // …and every signed-in read against its own student: the API-wide budget, or the route's own.
      const ownBudget = (url: string) => ROUTE_BUDGETS.get(ALL_ROUTES.find((route) => route.path === url.split('?')[0])!)?.max;
      const apiWide = DASHBOARD_READS.filter((url) => ownBudget(url) === undefined);
      for (const { reads } of visits) {
        reads.forEach((read, index) => {
          const budget = ownBudget(DASHBOARD_READS[index]!);
          expect(remaining(read)).toBeLessThanOrEqual(budget === undefined ? API_RATE_LIMIT_DEFAULTS.signedIn - 1 : budget - 1);
        });
        expect(Math.min(...reads.filter((_, index) => apiWide.includes(DASHBOARD_READS[index]!)).map(remaining))).toBe(
          API_RATE_LIMIT_DEFAULTS.signedIn - apiWide.length,
        );
      }
    },
  );

  test('60 wrong sign-ins on different matrículas from the school: the other students and the teacher still sign in from it', async () => {
    const school = '198.51.100.20';
    const [mistyping, others] = [await newStudents(30), await newStudents(5)];
    const wrong = [...mistyping.map((student) => student.studentId), ...Array.from({ length: 30 }, (_, index) => String(5900000 + index))];
    for (const studentId of wrong) expect((await studentLogin(studentId, 'senha-errada', school)).statusCode, studentId).toBe(401);

    for (const student of [...others, ...mistyping])
      expect((await studentLogin(student.studentId, TEST_PASSWORD, school)).statusCode, student.studentId).toBe(200);
    expect((await adminLogin(TEST_PASSWORD, school)).statusCode).toBe(200);
  });

  test(
    `${LOGIN_LIMITS.perAccountAndAddress.max} wrong passwords on a classmate's matrícula: ` +
      `refused there with Retry-After and the wait, the classmate signs in from home`,
    async () => {
      const school = '198.51.100.30';
      const home = '192.0.2.30';
      const [classmate, other] = await newStudents(2);
      for (let attempt = 1; attempt <= LOGIN_LIMITS.perAccountAndAddress.max; attempt++) {
        expect((await studentLogin(classmate!.studentId, `chute-${attempt}`, school)).statusCode).toBe(401);
      }

      const refused = await studentLogin(classmate!.studentId, TEST_PASSWORD, school);
      expect(refused.statusCode).toBe(429);
      const wait = Number(refused.headers['retry-after']);
      expect(wait).toBeGreaterThan(LOGIN_LIMITS.perAccountAndAddress.windowMs / 1000 - 60);
      expect(wait).toBeLessThanOrEqual(LOGIN_LIMITS.perAccountAndAddress.windowMs / 1000);
      expect(refused.json()).toEqual({ error: { code: 'login_locked', message: loginLockedMessage(wait) } });
      expect(refused.json().error.message).toBe('Muitas tentativas de login. Tente novamente em 15 minutos.');

      expect((await studentLogin(classmate!.studentId, TEST_PASSWORD, home)).statusCode).toBe(200);
      expect((await studentLogin(other!.studentId, TEST_PASSWORD, school)).statusCode).toBe(200);
      expect((await adminLogin(TEST_PASSWORD, school)).statusCode).toBe(200);
    },
  );
});

describe('the API limiter', () => {
  test('counts signed-in users one by one: two students at one address each get the whole budget', async () => {
    const school = '198.51.100.40';
    const [first, second] = await newStudents(2);
    const firstCookie = cookieFrom(await studentLogin(first!.studentId, TEST_PASSWORD, school));
    const secondCookie = cookieFrom(await studentLogin(second!.studentId, TEST_PASSWORD, school));
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });

    for (let request = 1; request <= API_RATE_LIMIT_DEFAULTS.signedIn; request++) {
      const response = await get('/api/auth/me', school, firstCookie);
      if (response.statusCode !== 200) expect.fail(`request ${request}: ${response.statusCode} ${response.body}`);
    }
    const wait = expectRateLimited(await get('/api/auth/me', school, firstCookie));

    const secondAnswer = await get('/api/auth/me', school, secondCookie);
    expect(secondAnswer.statusCode).toBe(200);
    expect(remaining(secondAnswer)).toBe(API_RATE_LIMIT_DEFAULTS.signedIn - 1);
    expect((await get('/api/health', school)).statusCode).toBe(200);

    // Retry-After tells the truth: once it has passed, the first student is served again.
    vi.advanceTimersByTime(wait * 1000);
    expect((await get('/api/auth/me', school, firstCookie)).statusCode).toBe(200);
  });

  test(
    'requests without a session share their address’s budget: past it, ' +
      '429 with Retry-After; signed-in users there and other addresses go on',
    async () => {
      const crowded = '198.51.100.50';
      const [student] = await newStudents(1);
      const cookie = cookieFrom(await studentLogin(student!.studentId, TEST_PASSWORD, '192.0.2.50'));
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });

      for (let request = 1; request <= API_RATE_LIMIT_DEFAULTS.anonymous; request++) {
        const response = await get('/api/auth/me', crowded);
        if (response.statusCode !== 401) expect.fail(`request ${request}: ${response.statusCode} ${response.body}`);
      }
      const wait = expectRateLimited(await get('/api/auth/me', crowded));
      expect((await studentLogin(student!.studentId, TEST_PASSWORD, crowded)).statusCode).toBe(429);

      expect((await get('/api/auth/me', crowded, cookie)).statusCode).toBe(200);
      expect((await get('/api/auth/me', '198.51.100.51')).statusCode).toBe(401);

      vi.advanceTimersByTime(wait * 1000);
      expect((await get('/api/auth/me', crowded)).statusCode).toBe(401);
    },
  );

  test('a route with a budget of its own: a student who spends it is refused there only; the rest of the app, and everyone else, go on', async () => {
    const [greedy, other] = await newStudents(2);
    const greedyCookie = cookieFrom(await studentLogin(greedy!.studentId, TEST_PASSWORD, '192.0.2.60'));
    const otherCookie = cookieFrom(await studentLogin(other!.studentId, TEST_PASSWORD, '192.0.2.60'));
    const budget = ROUTE_BUDGETS.get(routes.students.ranking)!;
    expect(budget.max).toBeLessThan(API_RATE_LIMIT_DEFAULTS.signedIn);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    for (let request = 1; request <= budget.max; request++) {
      const response = await get('/api/ranking', '192.0.2.60', greedyCookie);
      if (response.statusCode !== 200) expect.fail(`request ${request}: ${response.statusCode} ${response.body}`);
    }
    expectRateLimited(await get('/api/ranking', '192.0.2.60', greedyCookie));
    // What the ranking took is not spent from the student's budget for the rest of the app.
    const me = await get('/api/auth/me', '192.0.2.60', greedyCookie);
    expect(me.statusCode).toBe(200);
    expect(remaining(me)).toBe(API_RATE_LIMIT_DEFAULTS.signedIn - 1);
    expect((await get('/api/ranking', '192.0.2.60', otherCookie)).statusCode).toBe(200);
  });

  test('an IPv6 client without a session is one address per /64', async () => {
    const block = '2001:db8:50:1';
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    for (let request = 1; request <= API_RATE_LIMIT_DEFAULTS.anonymous; request++) {
      const response = await get('/api/health', `${block}::${(request % 4000).toString(16)}`);
      if (response.statusCode !== 200) expect.fail(`request ${request}: ${response.statusCode} ${response.body}`);
    }
    expectRateLimited(await get('/api/health', `${block}:ffff::1`));
    expect((await get('/api/health', '2001:db8:50:2::1')).statusCode).toBe(200);
  });
});
