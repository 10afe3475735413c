import { randomUUID } from 'node:crypto';
import { and, count, eq, isNull } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { addAdmin, addStudents, buildTestApp, cookieFrom, turmaIdOf, type TestApp } from '../../test/test-app.ts';
import { uploadStudentPhoto } from '../../test/student-photo.ts';
import { guardianCodes, guardianStudents, loginFailures, students } from '../../db/schema.ts';
import { DEFAULT_RULES } from '../../../shared/settings.ts';
import { LOGIN_LIMITS } from '../../../shared/constants.ts';
import { pdfPages, pdfText } from '../../test/pdf-text.ts';
import { has, openStream, type TestStream } from '../../realtime/sse-test-client.ts';
import { GUARDIAN_CODE_DAYS, type FamilyChildSummary, type GuardianCodeResult, type StudentGuardians } from '../../../shared/families.ts';
import { RANKING_NAME_MODES } from '../../../shared/ranking-privacy.ts';

/**
 * Responsáveis (decision 037): codes, sign-up, sign-in, the family routes and their IDOR, the coordination's links and
 * the school's two settings, on both databases.
 */

let t: TestApp;
let serial = 0;
const PASSWORD = 'senha-da-familia-1';
const DAY_MS = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

/** A student of their own for a test (none depends on another's data). */
async function newStudent(grade?: string) {
  serial += 1;
  const [student] = await addStudents(t.db, [
    { studentId: `77${String(serial).padStart(5, '0')}`, name: `Filha Teste ${serial}`, ...(grade ? { grade } : {}) },
  ]);
  return student!;
}

async function codeFor(studentUuid: string, cookie?: string): Promise<string> {
  const response = await t.request('POST', `/admin/students/${studentUuid}/guardian-codes`, cookie ? { cookie } : {});
  expect(response.statusCode, response.body).toBe(201);
  return response.json<GuardianCodeResult>().code;
}

/** Each caller its own address: the code limits count per address. */
function signup(payload: object, remoteAddress = `10.1.0.${(serial % 250) + 1}`) {
  return t.app.inject({ method: 'POST', url: '/api/auth/guardian/signup', payload, remoteAddress });
}

async function newGuardian(code: string) {
  serial += 1;
  const email = `familia.${serial}@exemplo.test`;
  const response = await signup({ code, email, name: `Responsável ${serial}`, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(201);
  return { cookie: cookieFrom(response), email, id: response.json<{ guardian: { id: string } }>().guardian.id };
}

/** The app listening (once, for the live streams' tests). */
let listening: Promise<string> | undefined;
const baseUrl = () => (listening ??= t.app.listen({ port: 0, host: '127.0.0.1' }));

function family(method: 'GET' | 'POST', url: string, cookie: string, payload?: object) {
  return t.app.inject({ method, url: `/api/family${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
}

describe('codes and sign-up', () => {
  test('a code signs a guardian up once: /me answers guardian, the code is stored hashed, a reused code is refused', async () => {
    const child = await newStudent();
    const code = await codeFor(child.id);
    expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    const [stored] = await t.db.select().from(guardianCodes).where(eq(guardianCodes.studentUuid, child.id));
    expect(JSON.stringify(stored)).not.toContain(code.replaceAll('-', ''));
    const guardian = await newGuardian(code.toLowerCase());
    const me = await t.app.inject({ url: '/api/auth/me', headers: { cookie: guardian.cookie } });
    expect(me.json()).toMatchObject({ role: 'guardian', guardian: { email: guardian.email } });
    const again = await signup({ code, email: 'outra.pessoa@exemplo.test', name: 'Outra', password: PASSWORD });
    expect(again.statusCode).toBe(422);
    expect(again.json().error.code).toBe('guardian_code_invalid');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/guardian/login',
      payload: { email: guardian.email, password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().role).toBe('guardian');
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/guardian/login',
      payload: { email: guardian.email, password: 'errada-123' },
    });
    expect(wrong.statusCode).toBe(401);
  });

  test('guessed, expired and revoked codes are refused alike; a new code revokes the one before', async () => {
    const child = await newStudent();
    const first = await codeFor(child.id);
    const second = await codeFor(child.id);
    const account = (code: string) => ({ code, email: `revogado.${serial}@exemplo.test`, name: 'Alguém', password: PASSWORD });
    for (const code of [first, 'ABCD-EFGH-JKMN', '']) {
      const response = await signup(account(code));
      expect(response.statusCode, code).toBe(code === '' ? 400 : 422);
    }
    await t.db
      .update(guardianCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(guardianCodes.studentUuid, child.id));
    expect((await signup(account(second))).json().error.code).toBe('guardian_code_invalid');
    const third = await codeFor(child.id);
    expect((await signup(account(third))).statusCode).toBe(201);
  });

  test('adding a child: guessed, revoked, used and expired codes are refused alike and link nobody; a code lasts 30 days', async () => {
    const first = await newStudent();
    const guardian = await newGuardian(await codeFor(first.id));
    const child = await newStudent();
    const made = await t.request('POST', `/admin/students/${child.id}/guardian-codes`);
    const { code: revoked, expiresAt } = made.json<GuardianCodeResult>();
    const lasts = Date.parse(expiresAt) - Date.now();
    expect(lasts).toBeGreaterThan(GUARDIAN_CODE_DAYS * DAY_MS - 60_000);
    expect(lasts).toBeLessThanOrEqual(GUARDIAN_CODE_DAYS * DAY_MS);
    const used = await codeFor(child.id);
    await newGuardian(used);
    const expired = await codeFor(child.id);
    await t.db
      .update(guardianCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(guardianCodes.studentUuid, child.id), isNull(guardianCodes.usedAt)));
    for (const [what, code] of Object.entries({ guessed: 'ABCD-EFGH-JKMN', revoked, used, expired })) {
      const response = await family('POST', '/children', guardian.cookie, { code });
      expect(response.statusCode, what).toBe(422);
      expect(response.json().error.code, what).toBe('guardian_code_invalid');
      expect(response.body, what).not.toContain(child.name);
    }
    const ids = (await family('GET', '/children', guardian.cookie)).json().children.map((row: { id: string }) => row.id);
    expect(ids).toEqual([first.id]);
    expect((await family('GET', `/children/${child.id}/summary`, guardian.cookie)).statusCode).toBe(404);
  });

  test('an email already taken counts as an attempt: one code cannot probe which emails are guardians without limit', async () => {
    const code = await codeFor((await newStudent()).id);
    const taken = await newGuardian(await codeFor((await newStudent()).id));
    const address = '10.3.0.1';
    const answers: number[] = [];
    for (let i = 0; i < LOGIN_LIMITS.perAccountAndAddress.max + 1; i += 1) {
      answers.push((await signup({ code, email: taken.email, name: 'Sonda', password: PASSWORD }, address)).statusCode);
    }
    expect(answers.slice(0, -1).every((status) => status === 409)).toBe(true);
    expect(answers.at(-1)).toBe(429);
  });

  test('a short password and an email already taken are refused; the code stays usable after either', async () => {
    const child = await newStudent();
    const code = await codeFor(child.id);
    const short = await signup({ code, email: 'curta@exemplo.test', name: 'Curta', password: '123' });
    expect(short.statusCode).toBe(400);
    const taken = await newGuardian(await codeFor((await newStudent()).id));
    const dup = await signup({ code, email: taken.email.toUpperCase(), name: 'Dup', password: PASSWORD });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.code).toBe('guardian_email_taken');
    await newGuardian(code);
  });

  test('code guesses are limited per address like sign-ins', async () => {
    await t.db.delete(loginFailures);
    const remoteAddress = '10.9.9.9';
    const statuses: number[] = [];
    for (let i = 0; i <= LOGIN_LIMITS.perAccountAndAddress.max; i += 1) {
      statuses.push(
        (
          await signup(
            { code: `ZZZZ-ZZZZ-ZZ${String(i).padStart(2, '0')}`, email: `g${i}@x.test`, name: 'X', password: PASSWORD },
            remoteAddress,
          )
        ).statusCode,
      );
    }
    expect(statuses.slice(0, -1).every((status) => status === 422)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  test('a teacher makes codes for her turmas only when teachers manage students; students and guardians never', async () => {
    const child = await newStudent();
    const teacherEmail = `prof.familia.${serial}@escola.test`;
    await addAdmin(t.db, { email: teacherEmail, name: 'Prof', role: 'teacher', turmaIds: [child.turmaId] });
    const teacher = await t.loginAdmin(teacherEmail);
    const url = `/admin/students/${child.id}/guardian-codes`;
    expect((await t.request('POST', url, { cookie: teacher })).statusCode).toBe(403);
    await t.request('PUT', '/admin/settings/rules', { payload: { ...DEFAULT_RULES, teachersManageStudents: true } });
    try {
      expect((await t.request('POST', url, { cookie: teacher })).statusCode).toBe(201);
      const other = await newStudent('3º EM - Turma D');
      expect((await t.request('POST', `/admin/students/${other.id}/guardian-codes`, { cookie: teacher })).statusCode).toBe(403);
    } finally {
      await t.request('PUT', '/admin/settings/rules', { payload: DEFAULT_RULES });
    }
    const studentCookie = await t.loginStudent(child.studentId);
    expect((await t.request('POST', url, { cookie: studentCookie })).statusCode).toBe(403);
  });
});

describe("'Carta para responsáveis'", () => {
  test('one page per student with a new code that signs a guardian up; the codes before stop working; audited without codes', async () => {
    const [first, second] = [await newStudent(), await newStudent()];
    const old = await codeFor(first.id);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/guardian-letters',
      headers: { cookie: await t.loginAdmin() },
      payload: { studentIds: [first.id, second.id] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('application/pdf');
    expect(await pdfPages(response.rawPayload)).toBe(2);
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Carta para responsáveis');
    expect(text).toContain('/responsaveis');
    const codes = [...text.matchAll(/[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/g)].map((match) => match[0]);
    expect(codes).toHaveLength(2);
    expect(text.indexOf(first.name)).toBeLessThan(text.indexOf(second.name));
    expect((await signup({ code: old, email: `velho.${serial}@exemplo.test`, name: 'Velho', password: PASSWORD })).statusCode).toBe(422);
    const guardian = await newGuardian(codes[0]!);
    expect((await family('GET', '/children', guardian.cookie)).json().children[0].id).toBe(first.id);
    const audit = await t.lastAudit('guardian.letters');
    expect(audit?.details).toMatchObject({ count: 2 });
    for (const code of codes) expect(JSON.stringify(audit)).not.toContain(code);
  });
  test("a turma's letters: one page for each of its current students", async () => {
    const grade = '3º EM - Turma D';
    await newStudent(grade);
    const turmaId = await turmaIdOf(t.db, grade);
    const [row] = await t.db
      .select({ current: count() })
      .from(students)
      .where(and(eq(students.turmaId, turmaId), isNull(students.deletedAt)));
    const current = row!.current;
    const response = await t.request('POST', '/admin/guardian-letters', { payload: { turmaId } });
    expect(response.statusCode, response.body).toBe(200);
    expect(await pdfPages(response.rawPayload)).toBe(current);
    expect(current).toBeGreaterThan(0);
  });
});

describe('the family area', () => {
  test('a guardian sees only their children: another child, a removed link and guessed ids are not found', async () => {
    const mine = await newStudent();
    const other = await newStudent();
    const guardian = await newGuardian(await codeFor(mine.id));
    const stranger = await newGuardian(await codeFor(other.id));
    const list = await family('GET', '/children', guardian.cookie);
    expect(list.json().children.map((child: { id: string }) => child.id)).toEqual([mine.id]);
    expect((await family('GET', `/children/${mine.id}/summary`, guardian.cookie)).statusCode).toBe(200);
    // Another's child and an unknown id alike; a malformed id is refused by its shape (400, as on every route), same code.
    for (const [id, status] of [
      [other.id, 404],
      ['00000000-0000-4000-8000-000000000000', 404],
      ['nada', 400],
    ] as const) {
      const response = await family('GET', `/children/${id}/summary`, guardian.cookie);
      expect(response.statusCode, id).toBe(status);
      expect(response.json().error.code).toBe('family_child_not_found');
      expect(response.body).not.toContain(other.name);
    }
    // The other guardian's child by their own code is refused once used; a student's and a staff session are refused.
    const student = await t.loginStudent(mine.studentId);
    expect((await family('GET', '/children', student)).statusCode).toBe(403);
    expect((await family('GET', '/children', await t.loginAdmin())).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/ranking', headers: { cookie: guardian.cookie } })).statusCode).toBe(403);
    // The coordination sees the guardian and removes the link: the next read no longer finds the child.
    const guardians = (await t.request('GET', `/admin/students/${mine.id}/guardians`)).json<StudentGuardians>();
    expect(guardians.guardians.map((row) => row.email)).toEqual([guardian.email]);
    expect(guardians.pendingCode).toBeNull();
    const removed = await t.request('DELETE', `/admin/guardians/${guardian.id}/students/${mine.id}`);
    expect(removed.statusCode).toBe(200);
    expect((await family('GET', `/children/${mine.id}/summary`, guardian.cookie)).statusCode).toBe(404);
    expect((await t.request('DELETE', `/admin/guardians/${guardian.id}/students/${mine.id}`)).statusCode).toBe(404);
    expect((await family('GET', '/children', stranger.cookie)).json().children).toHaveLength(1);
  });

  test("a second child by that child's code; a code used already or a child already followed is refused", async () => {
    const first = await newStudent();
    const second = await newStudent();
    const guardian = await newGuardian(await codeFor(first.id));
    const code = await codeFor(second.id);
    const added = await family('POST', '/children', guardian.cookie, { code });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().id).toBe(second.id);
    expect((await family('POST', '/children', guardian.cookie, { code })).statusCode).toBe(422);
    const again = await family('POST', '/children', guardian.cookie, { code: await codeFor(second.id) });
    expect(again.json().error.code).toBe('guardian_already_linked');
    const ids = (await family('GET', '/children', guardian.cookie)).json().children.map((child: { id: string }) => child.id);
    expect(ids).toEqual([first.id, second.id]);
  });

  test('the summary: balances, operations with their reasons, tags; penalties and the ranking as the school decides', async () => {
    const child = await newStudent();
    const guardian = await newGuardian(await codeFor(child.id));
    await t.award(child.id, 50, { description: 'Ajudou na feira de ciências' });
    const penalty = await t.request('POST', `/admin/students/${child.id}/meritus`, {
      payload: { type: 'penalty', amount: 5, description: 'Atraso repetido' },
    });
    expect(penalty.statusCode, penalty.body).toBe(201);
    const summary = async () => (await family('GET', `/children/${child.id}/summary`, guardian.cookie)).json<FamilyChildSummary>();
    const shown = await summary();
    expect(shown.child).toMatchObject({ id: child.id, meritus: 45 });
    expect(shown.operations.map((row) => row.description)).toEqual(['Atraso repetido', 'Ajudou na feira de ciências']);
    expect(shown.ranking?.position).toBeGreaterThan(0);
    expect(shown.achievements).toHaveLength(3);
    await t.request('PUT', '/admin/settings/rules', {
      payload: { ...DEFAULT_RULES, familiesSeePenalties: false, familiesSeeRanking: false },
    });
    try {
      const hidden = await summary();
      expect(hidden.operations.map((row) => row.description)).toEqual(['Ajudou na feira de ciências']);
      expect(hidden.ranking).toBeNull();
    } finally {
      await t.request('PUT', '/admin/settings/rules', { payload: DEFAULT_RULES });
    }
  });

  test("the summary lists the child's own tags and store orders, nobody else's", async () => {
    const child = await newStudent();
    const other = await newStudent();
    const guardian = await newGuardian(await codeFor(child.id));
    for (const [student, kind] of [
      [child, 'leader'],
      [other, 'angel'],
    ] as const) {
      const tagged = await t.request('PUT', `/admin/students/${student.id}/tags/${kind}`, { payload: {} });
      expect(tagged.statusCode, tagged.body).toBe(200);
    }
    const itemName = `Caderno da família ${serial}`;
    const item = await t.request('POST', '/admin/store/items', {
      payload: { name: itemName, price: 10, currency: 'meritus', category: 'material' },
    });
    expect(item.statusCode, item.body).toBe(201);
    for (const student of [child, other]) {
      await t.award(student.id, 30);
      const order = await t.app.inject({
        method: 'POST',
        url: `/api/store/items/${item.json<{ id: string }>().id}/orders`,
        headers: { cookie: await t.loginStudent(student.studentId), 'idempotency-key': randomUUID() },
      });
      expect(order.statusCode, order.body).toBe(201);
    }
    const response = await family('GET', `/children/${child.id}/summary`, guardian.cookie);
    const summary = response.json<FamilyChildSummary>();
    expect(summary.child.meritus).toBe(20);
    expect(summary.tags.map((tag) => tag.kind)).toEqual(['leader']);
    expect(summary.orders.map((order) => order.itemName)).toEqual([itemName]);
    expect(response.body).not.toContain(other.name);
  });

  test('the ranking position is the one the child sees, under every privacy mode, also when the child hides from the ranking', async () => {
    const child = await newStudent();
    await t.award(child.id, 3);
    const guardian = await newGuardian(await codeFor(child.id));
    const childCookie = await t.loginStudent(child.studentId);
    const hidden = await t.app.inject({
      method: 'PUT',
      url: '/api/me/ranking-visibility',
      headers: { cookie: childCookie },
      payload: { hidden: true },
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    try {
      for (const rankingNames of RANKING_NAME_MODES) {
        expect((await t.request('PUT', '/admin/settings/rules', { payload: { ...DEFAULT_RULES, rankingNames } })).statusCode).toBe(200);
        const own = (await t.app.inject({ url: '/api/me/summary', headers: { cookie: childCookie } })).json().rank;
        const shown = (await family('GET', `/children/${child.id}/summary`, guardian.cookie)).json<FamilyChildSummary>();
        expect(shown.ranking, rankingNames).toEqual({ position: own.position, of: own.total });
      }
    } finally {
      await t.request('PUT', '/admin/settings/rules', { payload: DEFAULT_RULES });
    }
  });

  test("a child's photo reaches their guardian without the image consent; another family and a removed link get nothing", async () => {
    const child = await newStudent();
    const photo = await uploadStudentPhoto(t, child.id, await t.loginAdmin());
    const guardian = await newGuardian(await codeFor(child.id));
    const stranger = await newGuardian(await codeFor((await newStudent()).id));
    expect((await family('GET', '/children', guardian.cookie)).json().children[0].photo).toBe(photo);
    const fetchPhoto = async (cookie: string) => (await t.app.inject({ url: photo, headers: { cookie } })).statusCode;
    expect(await fetchPhoto(guardian.cookie)).toBe(200);
    expect(await fetchPhoto(stranger.cookie)).toBe(404);
    expect((await t.request('DELETE', `/admin/guardians/${guardian.id}/students/${child.id}`)).statusCode).toBe(200);
    expect(await fetchPhoto(guardian.cookie)).toBe(404);
  });

  test('a linked guardian gives the image consent, audited; another guardian cannot', async () => {
    const child = await newStudent();
    const guardian = await newGuardian(await codeFor(child.id));
    const stranger = await newGuardian(await codeFor((await newStudent()).id));
    const url = `/api/family/children/${child.id}/image-consent`;
    const refused = await t.app.inject({ method: 'PUT', url, headers: { cookie: stranger.cookie }, payload: { consent: true } });
    expect(refused.statusCode).toBe(404);
    const given = await t.app.inject({ method: 'PUT', url, headers: { cookie: guardian.cookie }, payload: { consent: true } });
    expect(given.statusCode, given.body).toBe(200);
    expect((await family('GET', `/children/${child.id}/summary`, guardian.cookie)).json().imageConsent).toBe(true);
    const audit = await t.lastAudit('student.image_consent');
    expect(audit).toMatchObject({ actorKind: 'guardian', actorId: guardian.id, details: { studentUuid: child.id, consent: true } });
  });

  test("a guardian's live stream hears their child's operations at once, and nobody else's", async () => {
    const child = await newStudent();
    const other = await newStudent();
    const guardian = await newGuardian(await codeFor(child.id));
    const stream = await openStream(await baseUrl(), guardian.cookie);
    try {
      await stream.waitFor(has('ready'));
      await t.award(other.id, 5);
      await t.award(child.id, 7);
      await stream.waitFor(has('family'));
      // Only the child's operation: the other student's, published first, told the guardian nothing.
      expect(stream.received.filter((event) => event.event === 'family')).toHaveLength(1);
    } finally {
      await stream.close();
    }
  });

  test("a guardian's open stream starts over when their children change: a link removed, a child added; another family's stays", async () => {
    const child = await newStudent();
    const guardian = await newGuardian(await codeFor(child.id));
    const otherChild = await newStudent();
    const otherFamily = await newGuardian(await codeFor(otherChild.id));
    const streams: TestStream[] = [];
    const open = async (cookie: string) => {
      const stream = await openStream(await baseUrl(), cookie);
      streams.push(stream);
      await stream.waitFor(has('ready'));
      return stream;
    };
    try {
      const others = await open(otherFamily.cookie);
      // The coordination removes the link: the stream that listened for the child ends at once, not at its next opening.
      const first = await open(guardian.cookie);
      const unlinked = await t.request('DELETE', `/admin/guardians/${guardian.id}/students/${child.id}`);
      expect(unlinked.statusCode, unlinked.body).toBe(200);
      await first.waitForEnd();
      // The child added again by a code: the stream opened before it ends too, and the next one hears the child.
      const second = await open(guardian.cookie);
      const added = await family('POST', '/children', guardian.cookie, { code: await codeFor(child.id) });
      expect(added.statusCode, added.body).toBe(201);
      await second.waitForEnd();
      const third = await open(guardian.cookie);
      await t.award(child.id, 4);
      await third.waitFor(has('family'));
      // Told after both changes (the bus keeps their order): the other family's stream is still open and hears its child.
      await t.award(otherChild.id, 3);
      await others.waitFor(has('family'));
    } finally {
      for (const stream of streams) await stream.close();
    }
  });

  test("erasing a child (LGPD) ends their guardians' open streams, as removing the link does", async () => {
    const child = await newStudent();
    const guardian = await newGuardian(await codeFor(child.id));
    const stream = await openStream(await baseUrl(), guardian.cookie);
    try {
      await stream.waitFor(has('ready'));
      const erased = await t.request('POST', `/admin/students/${child.id}/erase`, {
        payload: { confirm: child.name, reason: 'Pedido da família' },
      });
      expect(erased.statusCode, erased.body).toBe(200);
      await stream.waitForEnd();
    } finally {
      await stream.close();
    }
  });

  test("a guardian's live stream hears their child's tags and orders at once", async () => {
    const child = await newStudent();
    const guardian = await newGuardian(await codeFor(child.id));
    await t.award(child.id, 30);
    const item = await t.request('POST', '/admin/store/items', {
      payload: { name: `Lápis ${serial}`, price: 5, currency: 'meritus', category: 'material' },
    });
    const stream = await openStream(await baseUrl(), guardian.cookie);
    try {
      await stream.waitFor(has('ready'));
      // What the stream is owed from before (the award's move in the ranking, a catch-up at opening) arrives first. A tick
      // sends a stream's tags before its family event, so two ticks, each marked by a tag on another student: once the
      // second tick's tags arrive, everything of the first tick has too.
      for (const ticks of [1, 2]) {
        const stranger = await newStudent();
        expect((await t.request('PUT', `/admin/students/${stranger.id}/tags/counselor`, { payload: {} })).statusCode).toBe(200);
        await vi.waitFor(async () => {
          await t.app.liveHub.tick();
          expect(stream.received.filter((event) => event.event === 'tags').length).toBeGreaterThanOrEqual(ticks);
        });
      }
      const familyEvents = () => stream.received.filter((event) => event.event === 'family').length;
      const before = familyEvents();
      expect((await t.request('PUT', `/admin/students/${child.id}/tags/counselor`, { payload: {} })).statusCode).toBe(200);
      await stream.waitFor(() => familyEvents() >= before + 1);
      const order = await t.app.inject({
        method: 'POST',
        url: `/api/store/items/${item.json<{ id: string }>().id}/orders`,
        headers: { cookie: await t.loginStudent(child.studentId), 'idempotency-key': randomUUID() },
      });
      expect(order.statusCode, order.body).toBe(201);
      await stream.waitFor(() => familyEvents() >= before + 2);
    } finally {
      await stream.close();
    }
  });

  test("a guardian's live stream hears when another student's operation moves their child's ranking position", async () => {
    const child = await newStudent();
    const other = await newStudent();
    await t.award(child.id, 2);
    const guardian = await newGuardian(await codeFor(child.id));
    const stream = await openStream(await baseUrl(), guardian.cookie);
    try {
      await stream.waitFor(has('ready'));
      // The standings the ticks compare with, read before the operation.
      await vi.waitFor(async () => t.app.liveHub.tick());
      const before = (await family('GET', `/children/${child.id}/summary`, guardian.cookie)).json<FamilyChildSummary>().ranking!;
      // From behind the child to ahead of them: the child's own position moves, though nothing of theirs changed.
      await t.award(other.id, 3);
      await vi.waitFor(
        async () => {
          await t.app.liveHub.tick();
          if (!stream.received.some((event) => event.event === 'family')) throw new Error('no family event yet');
        },
        { timeout: 10_000, interval: 50 },
      );
      const after = (await family('GET', `/children/${child.id}/summary`, guardian.cookie)).json<FamilyChildSummary>().ranking!;
      expect(after.position).toBeGreaterThan(before.position);
    } finally {
      await stream.close();
    }
  });

  test('erasing a student removes the links and codes, and the export lists the guardians', async () => {
    const child = await newStudent();
    const guardian = await newGuardian(await codeFor(child.id));
    await codeFor(child.id);
    const exported = await t.request('GET', `/admin/students/${child.id}/personal-data-export`);
    const data = JSON.parse(strFromU8(unzipSync(new Uint8Array(exported.rawPayload))['dados.json']!));
    expect(data.guardians.map((row: { email: string }) => row.email)).toEqual([guardian.email]);
    const erased = await t.request('POST', `/admin/students/${child.id}/erase`, {
      payload: { confirm: child.name, reason: 'Pedido da família' },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(await t.db.select().from(guardianStudents).where(eq(guardianStudents.studentUuid, child.id))).toEqual([]);
    expect(await t.db.select().from(guardianCodes).where(eq(guardianCodes.studentUuid, child.id))).toEqual([]);
    expect((await family('GET', '/children', guardian.cookie)).json().children).toEqual([]);
  });
});
