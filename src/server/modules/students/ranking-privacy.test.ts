import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { addAdmin, addStudents, buildTestApp, turmaIdOf, type TestApp, type TestStudent } from '../../test/test-app.ts';
import { students, studentTags } from '../../db/schema.ts';
import { openStream } from '../../realtime/sse-test-client.ts';
import type { RankingNameMode } from '../../../shared/ranking-privacy.ts';
import type { SchoolSettings } from '../../../shared/settings.ts';
import type { ActiveTag, DirectoryPage, RankingAnswer } from '../../../shared/students.ts';
import type { StudentSummary } from '../../../shared/student-area.ts';

/**
 * Rankings that protect students (issue 37, decision 029), on a school of its own: Ana (1º EM - Turma A, 10 M$) and
 * ten classmates around her, each with a photo, and Bruno (another turma) holding a weekly tag. Whatever the mode,
 * staff see every name; outside 'Nome completo' and 'Só vizinhos' Ana never receives another student's name, photo or
 * matrícula from the ranking, the tags, the recipient search or her live stream.
 */
let t: TestApp;
let baseUrl: string;
let ana: TestStudent;
let bruno: TestStudent;
let others: TestStudent[];
let cookies: Record<'ana' | 'bruno' | 'staff', string>;
let turmaA: string;
let turmaB: string;

beforeAll(async () => {
  t = await buildTestApp({ env: { LIVE_TICK_MS: '60000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [ana, bruno] = t.students as [TestStudent, TestStudent];
  const classmates = await addStudents(
    t.db,
    Array.from({ length: 8 }, (_, index) => ({ studentId: `5000${index}`, name: `Colega Número${index} Sobrenome${index}` })),
  );
  others = [...t.students.slice(1), ...classmates];
  for (const [index, student] of others.entries()) {
    await t.db
      .update(students)
      .set({ photoUrl: `https://fotos.example/${student.studentId}.jpg` })
      .where(eq(students.id, student.id));
    await t.award(student.id, 100 - index * 5);
  }
  await t.award(ana.id, 10);
  await t.db.insert(studentTags).values({ studentUuid: bruno.id, kind: 'leader', expiresAt: new Date(Date.now() + 7 * 86_400_000) });
  await t.db.update(students).set({ photoUrl: 'https://fotos.example/ana.jpg' }).where(eq(students.id, ana.id));
  turmaA = await turmaIdOf(t.db, ana.grade);
  turmaB = await turmaIdOf(t.db, bruno.grade);
  cookies = { ana: await t.loginStudent(ana.studentId), bruno: await t.loginStudent(bruno.studentId), staff: await t.loginAdmin() };
});
afterAll(async () => t.close());

async function setRules(change: Partial<SchoolSettings['rules']>): Promise<void> {
  const { rules } = (await t.request('GET', '/settings')).json<SchoolSettings>();
  const saved = await t.request('PUT', '/admin/settings/rules', { payload: { ...rules, ...change } });
  expect(saved.statusCode, saved.body).toBe(200);
}

async function read<T>(cookie: string, url: string, status = 200): Promise<T> {
  const response = await t.request('GET', url, { cookie });
  expect(response.statusCode, response.body).toBe(status);
  return response.json<T>();
}

/** Every value that would name or show another student: full names, first names (unless shown), matrículas, photos. */
function secretsOf(list: TestStudent[], firstNamesShown = false): string[] {
  return list.flatMap((student) => [
    student.name,
    ...(firstNamesShown ? [] : [student.name.split(' ')[0]!]),
    student.studentId,
    `${student.studentId}.jpg`,
  ]);
}

function expectNoneOf(body: unknown, secrets: string[]): void {
  const text = JSON.stringify(body);
  for (const secret of secrets) expect(text, `${secret} reached the student`).not.toContain(secret);
}

const hidingModes: RankingNameMode[] = ['firstNameInitial', 'anonymous'];

describe.each(hidingModes)("mode '%s'", (mode) => {
  beforeAll(async () => setRules({ rankingNames: mode }));

  test('the ranking, its pages and the tags carry no classmate’s name, photo or matrícula; Ana sees herself whole', async () => {
    const secrets = secretsOf(others, mode === 'firstNameInitial');
    const head = await read<RankingAnswer>(cookies.ana, '/ranking?around=me&size=5');
    const first = await read<RankingAnswer>(cookies.ana, '/ranking?page=0&size=5');
    const tags = await read<ActiveTag[]>(cookies.ana, '/tags/active');
    for (const body of [head, first, tags]) expectNoneOf(body, secrets);
    expect(head.mode).toBe(mode);
    expect(head.me).toMatchObject({ id: ana.id, name: ana.name, studentId: ana.studentId, photo: expect.stringContaining('ana.jpg') });
    const classmate = first.entries[0]!;
    expect(classmate).toMatchObject({ id: null, studentId: null, photo: null, estelecas: null, position: 1 });
    if (mode === 'anonymous') {
      // Each row is named by its number in the list Ana sees, nothing of the student's own.
      expect(first.entries.map((row) => row.name)).toEqual(['Estudante 1', 'Estudante 2', 'Estudante 3', 'Estudante 4', 'Estudante 5']);
      expect(classmate.grade).toBeNull();
      expect(tags[0]!.student).toEqual({ id: null, studentId: null, name: 'Estudante', grade: null, photo: null });
    } else {
      expect(classmate).toMatchObject({ name: 'Bruno L.', grade: bruno.grade });
      expect(tags[0]!.student).toEqual({ id: null, studentId: null, name: 'Bruno L.', grade: bruno.grade, photo: null });
    }
    // Staff always see everyone whole.
    const staff = await read<RankingAnswer>(cookies.staff, '/ranking?page=0&size=5');
    expect(staff.mode).toBe('full');
    expect(staff.entries[0]).toMatchObject({ id: bruno.id, name: bruno.name, studentId: bruno.studentId });
    expect((await read<ActiveTag[]>(cookies.staff, '/tags/active')).map((tag) => tag.student.name)).toContain(bruno.name);
  });

  test('the recipient search browses without names (none at all when anonymous); an exact matrícula still finds the recipient', async () => {
    const browse = await read<DirectoryPage>(cookies.ana, '/students/directory');
    const byName = await read<DirectoryPage>(cookies.ana, `/students/directory?q=${encodeURIComponent(bruno.name)}`);
    const exact = await read<DirectoryPage>(cookies.ana, `/students/directory?q=${bruno.studentId}`);
    expectNoneOf([browse, byName], [...others.map((student) => student.name), ...others.map((student) => `${student.studentId}.jpg`)]);
    expect(exact.items).toHaveLength(1);
    expect(exact.items[0]).toMatchObject({ id: bruno.id, studentId: bruno.studentId, photo: null });
    expect(JSON.stringify(exact)).not.toContain(bruno.name);
    // A full name typed does not find the one it names: the search sees what Ana sees.
    expect(byName.items).toEqual([]);
    if (mode === 'anonymous') {
      expect(browse).toMatchObject({ items: [], total: 0 });
      expect(exact.items[0]!.name).toBe(`Estudante da matrícula ${bruno.studentId}`);
    } else {
      expect(browse.items.map((item) => item.name)).toContain('Bruno L.');
      expect(exact.items[0]!.name).toBe('Bruno L.');
    }
  });

  test('the live stream brings Ana no classmate’s name or photo while classmates trade and tags change', async () => {
    const stream = await openStream(baseUrl, cookies.ana);
    try {
      await stream.waitFor((events) => events.some((event) => event.event === 'ready'));
      const transfer = await t.app.inject({
        method: 'POST',
        url: '/api/meritus/transfers',
        headers: { cookie: cookies.bruno, 'idempotency-key': `privacy-${mode}-transfer` },
        payload: { recipientId: others[2]!.id, amount: 1 },
      });
      expect(transfer.statusCode, transfer.body).toBe(201);
      const tagged = await t.request('PUT', `/admin/students/${others[3]!.id}/tags/angel`, { payload: {} });
      expect(tagged.statusCode, tagged.body).toBe(200);
      await vi.waitFor(
        async () => {
          await t.app.liveHub.tick();
          if (!stream.received.some((event) => event.event === 'tags')) throw new Error('no tags event yet');
        },
        { timeout: 10_000, interval: 50 },
      );
      expectNoneOf(stream.received, secretsOf(others));
    } finally {
      await stream.close();
    }
  });
});

describe("'Só vizinhos'", () => {
  beforeAll(async () => setRules({ rankingNames: 'neighbours' }));

  test('a student sees the podium and three rows above and below their own, with where rows were left out; staff see all', async () => {
    const head = await read<RankingAnswer>(cookies.ana, '/ranking?around=me');
    const all = await read<RankingAnswer>(cookies.staff, '/ranking');
    const anaIndex = all.entries.findIndex((row) => row.id === ana.id);
    const expected = [0, 1, 2, ...Array.from({ length: 7 }, (_, offset) => anaIndex - 3 + offset)].filter(
      (index, at, list) => index < all.total && list.indexOf(index) === at,
    );
    expect(head.entries.map((row) => row.id)).toEqual(expected.map((index) => all.entries[index]!.id));
    expect(head.entries[0]).toMatchObject({ name: all.entries[0]!.name, position: 1 });
    expect(head).toMatchObject({ mode: 'neighbours', total: expected.length, ranked: all.total, me: { id: ana.id } });
    expect(head.neighbours).toEqual({ gapAt: anaIndex - 3 > 3 ? 3 : null, moreBelow: anaIndex + 3 < all.total - 1 });
    expect(all.total).toBeGreaterThan(head.total);
  });
});

describe("'Não aparecer no ranking'", () => {
  beforeAll(async () => setRules({ rankingNames: 'full', rankingHideAllowed: true }));

  test('a hidden student leaves the other students’ ranking, tags and browsing; they and the staff still see them', async () => {
    const hide = await t.request('PUT', '/me/ranking-visibility', { cookie: cookies.bruno, payload: { hidden: true } });
    expect(hide.statusCode, hide.body).toBe(200);
    expect(hide.json()).toEqual({ hidden: true, message: 'Você não aparece no ranking para os colegas' });
    expect((await read<{ student: { rankingHidden: boolean } }>(cookies.bruno, '/auth/me')).student.rankingHidden).toBe(true);

    const seenByAna = await read<RankingAnswer>(cookies.ana, '/ranking');
    const staff = await read<RankingAnswer>(cookies.staff, '/ranking');
    const seenByBruno = await read<RankingAnswer>(cookies.bruno, '/ranking?around=me');
    expect(JSON.stringify(seenByAna)).not.toContain(bruno.name);
    // Nobody's position counts a student they do not see: the first Ana sees is 1º.
    expect(seenByAna.entries[0]).toMatchObject({ position: 1, id: others[1]!.id });
    expect(seenByAna.ranked).toBe(staff.ranked - 1);
    expect(staff.entries.find((row) => row.id === bruno.id)).toMatchObject({ name: bruno.name, hidden: true });
    expect(seenByBruno.me).toMatchObject({ id: bruno.id, position: 1 });
    expect(seenByBruno.ranked).toBe(staff.ranked);
    const anaSummary = await read<StudentSummary>(cookies.ana, '/me/summary');
    expect(anaSummary.rank.total).toBe(staff.ranked - 1);
    expect((await read<StudentSummary>(cookies.bruno, '/me/summary')).rank).toMatchObject({ position: 1, total: staff.ranked });

    expect(JSON.stringify(await read<ActiveTag[]>(cookies.ana, '/tags/active'))).not.toContain(bruno.id);
    expect((await read<ActiveTag[]>(cookies.bruno, '/tags/active')).some((tag) => tag.student.id === bruno.id)).toBe(true);
    expect((await read<ActiveTag[]>(cookies.staff, '/tags/active')).some((tag) => tag.student.id === bruno.id)).toBe(true);

    const browse = await read<DirectoryPage>(cookies.ana, '/students/directory?size=50');
    expect(browse.items.some((item) => item.id === bruno.id)).toBe(false);
    expect((await read<DirectoryPage>(cookies.ana, '/students/directory?q=Bruno')).items).toEqual([]);
    expect((await read<DirectoryPage>(cookies.ana, `/students/directory?q=${bruno.studentId}`)).items[0]).toMatchObject({ id: bruno.id });
  });

  test('the school turning the option off shows everyone again and refuses hiding; appearing again is always allowed', async () => {
    await setRules({ rankingHideAllowed: false });
    const seenByAna = await read<RankingAnswer>(cookies.ana, '/ranking');
    expect(seenByAna.entries[0]).toMatchObject({ id: bruno.id, position: 1 });
    const refused = await t.request('PUT', '/me/ranking-visibility', { cookie: cookies.ana, payload: { hidden: true } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'ranking_hide_not_allowed' } });
    const [row] = await t.db.select({ hidden: students.rankingHidden }).from(students).where(eq(students.id, ana.id));
    expect(row!.hidden).toBe(false);
    const shown = await t.request('PUT', '/me/ranking-visibility', { cookie: cookies.bruno, payload: { hidden: false } });
    expect(shown.statusCode, shown.body).toBe(200);
    await setRules({ rankingHideAllowed: true });
    expect((await read<RankingAnswer>(cookies.ana, '/ranking')).entries[0]).toMatchObject({ id: bruno.id });
  });

  test('hiding tells, at the next tick, the students whose rows moved, with their position without the hidden one', async () => {
    const stream = await openStream(baseUrl, cookies.ana);
    try {
      await stream.waitFor((events) => events.some((event) => event.event === 'ready'));
      await vi.waitFor(async () => t.app.liveHub.tick());
      const hide = await t.request('PUT', '/me/ranking-visibility', { cookie: cookies.bruno, payload: { hidden: true } });
      expect(hide.statusCode, hide.body).toBe(200);
      const staff = await read<RankingAnswer>(cookies.staff, '/ranking');
      await vi.waitFor(
        async () => {
          await t.app.liveHub.tick();
          if (!stream.received.some((event) => event.event === 'ranking')) throw new Error('no ranking event yet');
        },
        { timeout: 10_000, interval: 50 },
      );
      const event = stream.received.find((received) => received.event === 'ranking')!.data as { own: { total: number } | null };
      expect(event.own?.total).toBe(staff.ranked - 1);
    } finally {
      await stream.close();
      await t.request('PUT', '/me/ranking-visibility', { cookie: cookies.bruno, payload: { hidden: false } });
    }
  });
});

describe('the turma filter', () => {
  test('a student sees their own turma placed among itself, and no other turma', async () => {
    const own = await read<RankingAnswer>(cookies.ana, `/ranking?turma=${turmaA}&around=me`);
    expect(own.entries.every((row) => row.grade === ana.grade)).toBe(true);
    expect(own.entries[0]!.position).toBe(1);
    expect(own.ranked).toBeLessThan((await read<RankingAnswer>(cookies.staff, '/ranking')).ranked);
    const refused = await t.request('GET', `/ranking?turma=${turmaB}`, { cookie: cookies.ana });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'ranking_turma_not_own' } });
    expect((await t.request('GET', '/ranking?turma=00000000-0000-4000-8000-000000000000', { cookie: cookies.ana })).statusCode).toBe(404);
  });

  test('staff filter by any turma they see: a teacher only theirs (decision 021), the coordination any', async () => {
    await addAdmin(t.db, { email: 'turma-b@escola.test', name: 'Professor da Turma B', role: 'teacher', turmaIds: [turmaB] });
    const teacher = await t.loginAdmin('turma-b@escola.test');
    const theirs = await read<RankingAnswer>(teacher, `/ranking?turma=${turmaB}`);
    expect(theirs.entries.map((row) => row.id)).toEqual([bruno.id]);
    const refused = await t.request('GET', `/ranking?turma=${turmaA}`, { cookie: teacher });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'turma_outside_turmas' } });
    const coordination = await read<RankingAnswer>(cookies.staff, `/ranking?turma=${turmaA}`);
    expect(coordination.entries.some((row) => row.id === ana.id)).toBe(true);
    expect(coordination.entries.every((row) => row.grade === ana.grade)).toBe(true);
  });
});
