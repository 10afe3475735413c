import { randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { addAdmin, buildTestApp, turmaIdOf, type TestApp, type TestStudent } from '../test/test-app.ts';
import { auditLog, ledgerEntries, students, studentTags } from '../db/schema.ts';
import { openStream, type ReceivedEvent, type TestStream } from '../realtime/sse-test-client.ts';
import { ERROR_MESSAGES } from '../../shared/errors.ts';
import { DEFAULT_RULES } from '../../shared/settings.ts';
import type { LiveOperation } from '../../shared/ledger.ts';
import { png, upload } from '../modules/archive/archive-test-kit.ts';

/**
 * Issue 34: a teacher sees and acts on the students of their turmas only, whatever route they call. Ana is of
 * '1º EM - Turma A' (Professora Xavier's), Bruno of '1º EM - Turma B' (Professor Yuri's), Carla and Diego of turmas
 * nobody teaches; Professora Zélia teaches none.
 */
let t: TestApp;
let ana: TestStudent;
let bruno: TestStudent;
let carla: TestStudent;
const cookie = {} as Record<'xavier' | 'yuri' | 'zelia' | 'coordinator', string>;
const TURMA_A = '1º EM - Turma A';
const TURMA_B = '1º EM - Turma B';

beforeAll(async () => {
  t = await buildTestApp({ env: { LIVE_TICK_MS: '60000' } });
  [ana, bruno, carla] = t.students as [TestStudent, TestStudent, TestStudent];
  const teachers = [
    ['xavier', 'prof.xavier@escola.test', 'Professora Xavier', [await turmaIdOf(t.db, TURMA_A)]],
    ['yuri', 'prof.yuri@escola.test', 'Professor Yuri', [await turmaIdOf(t.db, TURMA_B)]],
    ['zelia', 'prof.zelia@escola.test', 'Professora Zélia', []],
  ] as const;
  for (const [key, email, name, turmaIds] of teachers) {
    await addAdmin(t.db, { email, name, role: 'teacher', turmaIds });
    cookie[key] = await t.loginAdmin(email);
  }
  cookie.coordinator = await t.loginAdmin();
  await t.award(ana.id, 100, { description: 'Prêmio da Ana' });
  await t.award(bruno.id, 50, { description: 'Prêmio do Bruno' });
  await t.award(carla.id, 30, { description: 'Prêmio da Carla' });
  await t.award(ana.id, 5, { currency: 'estelecas', description: 'Estelecas da Ana' });
  await t.award(bruno.id, 3, { currency: 'estelecas', description: 'Estelecas do Bruno' });
});
afterAll(async () => {
  await t.close();
});

const as = (who: keyof typeof cookie) => ({ cookie: cookie[who] });
const get = async (who: keyof typeof cookie, url: string) => {
  const response = await t.request('GET', url, as(who));
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response;
};
const refusedAs = (code: 'student_outside_turmas' | 'turma_outside_turmas') => ({ error: { code, message: ERROR_MESSAGES[code] } });

async function balances(id: string) {
  const [row] = await t.db.select({ meritus: students.meritus, estelecas: students.estelecas }).from(students).where(eq(students.id, id));
  return row!;
}

describe('reads', () => {
  test('the student list and its export hold the teacher’s turmas only, counted as the whole they see', async () => {
    const list = (await get('xavier', '/admin/students')).json();
    expect(list.items.map((item: { id: string }) => item.id)).toEqual([ana.id]);
    expect([list.total, list.schoolTotal]).toEqual([1, 1]);
    const csv = (await get('xavier', '/admin/students/export.csv')).body;
    expect(csv).toContain(ana.studentId);
    expect(csv).not.toContain(bruno.studentId);
    expect((await get('coordinator', '/admin/students')).json().schoolTotal).toBe(4);
    expect((await get('zelia', '/admin/students')).json()).toMatchObject({ items: [], total: 0, schoolTotal: 0 });
  });

  test('the turmas, the ranking and the Estelecas top list: theirs, placed among themselves; the students’ ranking is the school’s', async () => {
    expect((await get('yuri', '/admin/turmas')).json().map((turma: { name: string }) => turma.name)).toEqual([TURMA_B]);
    expect((await get('zelia', '/admin/turmas')).json()).toEqual([]);
    expect((await get('coordinator', '/admin/turmas')).json().length).toBeGreaterThan(2);
    const ranking = (await get('yuri', '/ranking')).json();
    expect(ranking).toMatchObject({
      total: 1,
      me: null,
      podium: [{ id: bruno.id, position: 1 }],
      entries: [{ id: bruno.id, position: 1 }],
    });
    expect((await get('zelia', '/ranking')).json()).toMatchObject({ total: 0, podium: [], entries: [] });
    expect((await get('coordinator', '/ranking')).json().total).toBe(4);
    const own = await t.request('GET', '/ranking?around=me', { cookie: await t.loginStudent(bruno.studentId) });
    expect(own.json()).toMatchObject({ total: 4, me: { id: bruno.id, position: 2 } });
    expect((await get('yuri', '/admin/estelecas/ranking')).json().map((row: { id: string }) => row.id)).toEqual([bruno.id]);
    expect((await get('zelia', '/admin/estelecas/ranking')).json()).toEqual([]);
  });

  test('the live feed, the recent operations, the Estelecas history and the ledger export name the teacher’s students only', async () => {
    const named = (lines: { from: { id: string } | null; to: { id: string } | null }[]) =>
      new Set(lines.flatMap((line) => [line.from?.id, line.to?.id]).filter(Boolean));
    const feed = (await get('xavier', '/admin/operations?limit=50')).json() as LiveOperation[];
    expect(feed.map((line) => line.description).sort()).toEqual(['Estelecas da Ana', 'Prêmio da Ana']);
    expect(named(feed)).toEqual(new Set([ana.id]));
    expect(named((await get('xavier', '/admin/meritus/recent?limit=10')).json())).toEqual(new Set([ana.id]));
    expect(named((await get('yuri', '/admin/estelecas/history?limit=50')).json())).toEqual(new Set([bruno.id]));
    for (const url of ['/admin/operations?limit=50', '/admin/meritus/recent?limit=10', '/admin/estelecas/history?limit=50']) {
      expect((await get('zelia', url)).json()).toEqual([]);
    }
    expect((await get('coordinator', '/admin/operations?limit=50')).json().length).toBe(5);
    const csv = (await get('yuri', '/admin/ledger/export.csv')).body;
    expect(csv).toContain('Prêmio do Bruno');
    expect(csv).not.toContain('Prêmio da Ana');
  });

  test('the dashboard’s figures are of the teacher’s turmas', async () => {
    const of = async (who: keyof typeof cookie) => (await get(who, '/admin/dashboard')).json();
    expect(await of('xavier')).toMatchObject({
      totalStudents: { value: 1 },
      meritusInCirculation: { value: 100 },
      overview: { studentsWithBalance: 1, averagePerStudent: 100 },
    });
    expect(await of('yuri')).toMatchObject({ totalStudents: { value: 1 }, meritusInCirculation: { value: 50 } });
    const none = await of('zelia');
    expect(none).toMatchObject({ totalStudents: { value: 0 }, meritusInCirculation: { value: 0 }, transactions7d: { value: 0 } });
    expect(none.overview.weeklyActivity.every((day: { count: number }) => day.count === 0)).toBe(true);
    expect(await of('coordinator')).toMatchObject({ totalStudents: { value: 4 }, meritusInCirculation: { value: 180 } });
  });

  test('reports cover the teacher’s turmas; a turma of someone else is refused; documents of others’ students too', async () => {
    const overview = (await get('xavier', '/admin/reports/overview?period=30d')).json();
    expect(overview.period.availableTurmas).toEqual([TURMA_A]);
    expect(overview.turmas.map((row: { turma: string }) => row.turma)).toEqual([TURMA_A]);
    expect(overview.turmas[0]).toMatchObject({ students: 1, awarded: 100 });
    expect(overview.risers.map((row: { name: string }) => row.name)).toEqual([ana.name]);
    const reasons = (await get('xavier', '/admin/reports/reasons?period=30d')).json();
    expect(reasons.awards.map((row: { description: string }) => row.description).sort()).toEqual(['Estelecas da Ana', 'Prêmio da Ana']);
    const timeline = (await get('xavier', '/admin/reports/timeline?period=7d')).json();
    expect(timeline.points.reduce((sum: number, point: { awarded: number }) => sum + point.awarded, 0)).toBe(100);
    const exported = (await get('xavier', '/admin/reports/export?period=30d&table=risers&format=csv')).body;
    expect(exported).toContain(ana.name);
    expect(exported).not.toContain(bruno.name);

    for (const url of [
      `/admin/reports/overview?period=30d&turma=${encodeURIComponent(TURMA_B)}`,
      `/admin/reports/timeline?period=30d&turma=${encodeURIComponent(TURMA_B)}`,
      `/admin/reports/reasons?period=30d&turma=${encodeURIComponent(TURMA_B)}`,
      `/admin/reports/export?period=30d&table=risers&format=csv&turma=${encodeURIComponent(TURMA_B)}`,
    ]) {
      const refused = await t.request('GET', url, as('xavier'));
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().error.code).toBe('turma_outside_turmas');
      expect(refused.body).not.toContain(bruno.name);
    }
    const none = (await get('zelia', '/admin/reports/overview?period=30d')).json();
    expect(none).toMatchObject({ turmas: [], risers: [], period: { availableTurmas: [] } });
    expect(none.figures.enrolled.current).toBe(0);
    expect((await get('coordinator', '/admin/reports/overview?period=30d')).json().figures.enrolled.current).toBe(4);

    const statement = (id: string) => t.request('GET', `/admin/reports/statement.pdf?period=30d&student=${id}`, as('xavier'));
    expect((await statement(ana.id)).statusCode).toBe(200);
    const other = await statement(bruno.id);
    expect([other.statusCode, other.json()]).toEqual([403, refusedAs('student_outside_turmas')]);
    const [tag] = await t.db
      .insert(studentTags)
      .values({ studentUuid: bruno.id, kind: 'leader', expiresAt: new Date(Date.now() + 86_400_000) })
      .returning();
    const certificate = (who: keyof typeof cookie) => t.request('GET', `/admin/reports/certificate.pdf?tag=${tag!.id}`, as(who));
    expect((await certificate('xavier')).statusCode).toBe(403);
    expect((await certificate('yuri')).statusCode).toBe(200);
    await t.db.delete(studentTags).where(eq(studentTags.id, tag!.id));
  });
});

describe('writes', () => {
  async function lastRefusal() {
    const [row] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'ledger.refused')).orderBy(desc(auditLog.id)).limit(1);
    return row;
  }

  test('an award or deduction of either currency for a student of another turma is refused, recorded, and changes nothing', async () => {
    for (const currency of ['meritus', 'estelecas'] as const) {
      for (const type of ['admin_add', 'penalty'] as const) {
        const before = await balances(bruno.id);
        const rows = (await t.db.select({ id: ledgerEntries.id }).from(ledgerEntries)).length;
        const description = `Fora da turma ${randomUUID().slice(0, 6)}`;
        const refused = await t.request('POST', `/admin/students/${bruno.id}/${currency}`, {
          ...as('xavier'),
          payload: { type, amount: 1, description },
        });
        expect([refused.statusCode, refused.json()]).toEqual([403, refusedAs('student_outside_turmas')]);
        expect(await balances(bruno.id)).toEqual(before);
        expect((await t.db.select({ id: ledgerEntries.id }).from(ledgerEntries)).length).toBe(rows);
        const record = await lastRefusal();
        expect(record).toMatchObject({ actorKind: 'admin', actorLabel: 'Professora Xavier' });
        expect(record!.details).toMatchObject({ code: 'student_outside_turmas', description, currency });
        // The refusal shows in the feed of the coordination and of the student's teacher, not in the refused teacher's.
        const lineOf = async (who: keyof typeof cookie) =>
          ((await get(who, '/admin/operations?limit=50')).json() as LiveOperation[]).some((line) => line.description === description);
        expect([await lineOf('coordinator'), await lineOf('yuri'), await lineOf('xavier')]).toEqual([true, true, false]);
      }
    }
    const own = await t.request('POST', `/admin/students/${ana.id}/meritus`, {
      ...as('xavier'),
      payload: { type: 'reward', amount: 2, description: 'Ajudou a turma' },
    });
    expect(own.statusCode, own.body).toBe(201);
    expect((await balances(ana.id)).meritus).toBe(102);
    const missing = await t.request('POST', `/admin/students/${randomUUID()}/meritus`, {
      ...as('xavier'),
      payload: { type: 'reward', amount: 2, description: 'Ninguém' },
    });
    expect(missing.json().error.code).toBe('student_not_found');
  });

  test('an operation for many students is refused whole when one is of another turma', async () => {
    const before = [await balances(ana.id), await balances(bruno.id)];
    const refused = await t.request('POST', '/admin/operations/bulk', {
      ...as('xavier'),
      payload: { currency: 'meritus', type: 'admin_add', amount: 3, description: 'Turma toda', studentUuids: [ana.id, bruno.id] },
    });
    expect([refused.statusCode, refused.json()]).toEqual([403, refusedAs('student_outside_turmas')]);
    expect([await balances(ana.id), await balances(bruno.id)]).toEqual(before);
    expect((await lastRefusal())!.details).toMatchObject({ code: 'student_outside_turmas', description: 'Turma toda' });
    const own = await t.request('POST', '/admin/operations/bulk', {
      ...as('xavier'),
      payload: { currency: 'meritus', type: 'admin_add', amount: 3, description: 'Turma toda', studentUuids: [ana.id] },
    });
    expect(own.statusCode, own.body).toBe(201);
    expect((await balances(ana.id)).meritus).toBe(before[0]!.meritus + 3);
  });

  test('weekly tags: given, moved and taken for the teacher’s students only', async () => {
    const tagsOf = async (id: string) => t.db.select().from(studentTags).where(eq(studentTags.studentUuid, id));
    const expiresAt = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const calls = (id: string) =>
      [
        ['PUT', `/admin/students/${id}/tags/leader`, { days: 7 }],
        ['PATCH', `/admin/students/${id}/tags/leader`, { expiresAt }],
        ['DELETE', `/admin/students/${id}/tags/leader`, undefined],
      ] as const;
    await t.request('PUT', `/admin/students/${bruno.id}/tags/leader`, { ...as('yuri'), payload: { days: 7 } });
    const before = await tagsOf(bruno.id);
    expect(before).toHaveLength(1);
    for (const [method, url, payload] of calls(bruno.id)) {
      const refused = await t.request(method, url, { ...as('xavier'), payload });
      expect([refused.statusCode, refused.json()], `${method} ${url}`).toEqual([403, refusedAs('student_outside_turmas')]);
    }
    expect(await tagsOf(bruno.id)).toEqual(before);
    for (const [method, url, payload] of calls(ana.id)) {
      const done = await t.request(method, url, { ...as('xavier'), payload });
      expect(done.statusCode, `${method} ${url}: ${done.body}`).toBe(200);
    }
    expect(await tagsOf(ana.id)).toEqual([]);
  });

  test('“Selecionar Imagem” sets the photo of the teacher’s students only (when teachers manage students), no use counted when refused', async () => {
    // Making an image a student's photo is managing students: the coordination lets teachers do it here.
    const rules = (teachersManageStudents: boolean) =>
      t.request('PUT', '/admin/settings/rules', { ...as('coordinator'), payload: { ...DEFAULT_RULES, teachersManageStudents } });
    expect((await rules(true)).statusCode).toBe(200);
    const uploaded = await upload(t, [{ name: 'retrato.png', bytes: await png(32, 32, [30, 90, 150]) }], { category: 'perfil' });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const item = uploaded.json().results[0].item as { id: string };
    const select = (id: string) =>
      t.request('POST', `/admin/archive/images/${item.id}/select`, { ...as('xavier'), payload: { studentId: id } });
    const [before] = await t.db.select().from(students).where(eq(students.id, bruno.id));
    const refused = await select(bruno.id);
    expect([refused.statusCode, refused.json()]).toEqual([403, refusedAs('student_outside_turmas')]);
    expect((await t.db.select().from(students).where(eq(students.id, bruno.id)))[0]).toEqual(before);
    const chosen = await select(ana.id);
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().usageCount).toBe(1);
    expect((await rules(false)).statusCode).toBe(200);
  });

  test('student management, once the coordination lets teachers: only in and of their turmas', async () => {
    const create = (who: keyof typeof cookie, grade: string, studentId: string) =>
      t.request('POST', '/admin/students', { ...as(who), payload: { studentId, name: `Novo ${studentId}`, password: 'senha123', grade } });
    expect((await create('xavier', TURMA_A, '3100001')).statusCode).toBe(403);
    const rules = await t.request('PUT', '/admin/settings/rules', {
      ...as('coordinator'),
      payload: { ...DEFAULT_RULES, teachersManageStudents: true },
    });
    expect(rules.statusCode, rules.body).toBe(200);

    const outside = await create('xavier', TURMA_B, '3100002');
    expect(outside.statusCode).toBe(403);
    expect(outside.json().error).toMatchObject({ code: 'turma_outside_turmas', message: ERROR_MESSAGES.turma_outside_turmas });
    expect(await t.db.select().from(students).where(eq(students.studentId, '3100002'))).toEqual([]);
    const created = await create('xavier', TURMA_A, '3100003');
    expect(created.statusCode, created.body).toBe(201);
    const newcomer = created.json().student.id as string;

    const [brunoBefore] = await t.db.select().from(students).where(eq(students.id, bruno.id));
    for (const [method, url, payload] of [
      ['PATCH', `/admin/students/${bruno.id}`, { name: 'Outro Nome' }],
      ['DELETE', `/admin/students/${bruno.id}`, undefined],
      ['POST', `/admin/students/${bruno.id}/password`, undefined],
      ['PUT', `/admin/students/${bruno.id}/photo`, { url: 'https://example.com/foto.jpg' }],
      ['DELETE', `/admin/students/${bruno.id}/photo`, undefined],
    ] as const) {
      const refused = await t.request(method, url, { ...as('xavier'), payload });
      expect([refused.statusCode, refused.json()], `${method} ${url}`).toEqual([403, refusedAs('student_outside_turmas')]);
      expect(refused.body).not.toContain(bruno.name);
    }
    const [brunoAfter] = await t.db.select().from(students).where(eq(students.id, bruno.id));
    expect(brunoAfter).toEqual(brunoBefore);

    // Their own student may not be moved to a turma of someone else, but is edited, reset and removed.
    const moved = await t.request('PATCH', `/admin/students/${newcomer}`, { ...as('xavier'), payload: { grade: TURMA_B } });
    expect(moved.json().error.code).toBe('turma_outside_turmas');
    const renamed = await t.request('PATCH', `/admin/students/${newcomer}`, {
      ...as('xavier'),
      payload: { name: 'Nova Aluna', grade: TURMA_A },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await t.request('POST', `/admin/students/${newcomer}/password`, as('xavier'))).statusCode).toBe(200);
    expect((await t.request('DELETE', `/admin/students/${newcomer}`, as('xavier'))).statusCode).toBe(200);

    // An import takes the rows of their turmas; a row of another turma is invalid.
    const file = `matricula;nome;turma\n3100010;Aluna Importada;${TURMA_A}\n3100011;Aluno Alheio;${TURMA_B}\n`;
    const boundary = 'limite-teste';
    const part = `Content-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\n${file}`;
    const body = `--${boundary}\r\n${part}\r\n--${boundary}--\r\n`;
    const imported = await t.app.inject({
      method: 'POST',
      url: '/api/admin/students/import',
      headers: { cookie: cookie.xavier, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(imported.statusCode, imported.body).toBe(201);
    const added = await t.db.select({ studentId: students.studentId }).from(students);
    expect(added.map((row) => row.studentId)).toContain('3100010');
    expect(added.map((row) => row.studentId)).not.toContain('3100011');
    // The template lists their turmas only, and a turma of someone else is never suggested ("1B" for TURMA_B).
    const template = await t.request('GET', '/admin/students/import/template?format=csv', as('xavier'));
    expect(template.body).toContain(TURMA_A);
    expect(template.body).not.toContain(TURMA_B);
    const suggestionFile = `matricula;nome;turma\n3100012;Aluna Sugerida;1A\n3100013;Aluno Alheio;1B\n`;
    const previewed = await t.app.inject({
      method: 'POST',
      url: '/api/admin/students/import/preview',
      headers: { cookie: cookie.xavier, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\n${part.replace(file, suggestionFile)}\r\n--${boundary}--\r\n`,
    });
    expect(previewed.json().turmaSuggestions).toEqual([{ from: '1A', to: TURMA_A, rows: 1, confirmed: false }]);
    expect(previewed.json().rows[1].problems).toEqual(['Turma não reconhecida: "1B"']);
    await t.request('PUT', '/admin/settings/rules', { ...as('coordinator'), payload: DEFAULT_RULES });
  });
});

describe('live events', () => {
  let streams: Record<'xavier' | 'yuri' | 'coordinator', TestStream>;
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    streams = {
      xavier: await openStream(baseUrl, cookie.xavier),
      yuri: await openStream(baseUrl, cookie.yuri),
      coordinator: await openStream(baseUrl, cookie.coordinator),
    };
    await Promise.all(Object.values(streams).map((stream) => stream.waitFor((events) => events.some((event) => event.event === 'ready'))));
  });
  afterAll(async () => {
    await Promise.all(Object.values(streams).map((stream) => stream.close()));
  });

  const lines = (events: ReceivedEvent[]) =>
    events.filter((event) => event.event === 'operations').flatMap((event) => (event.data as { operations: LiveOperation[] }).operations);

  let days = 1;
  /**
   * Waits until every stream has heard all that came before: a tag given to Carla (of no teacher here) is published
   * after it, and reaches every stream at a tick after any line or figure owed before it.
   */
  async function settle(): Promise<void> {
    const before = Object.fromEntries(
      Object.entries(streams).map(([name, stream]) => [name, stream.received.filter((event) => event.event === 'tags').length]),
    );
    days += 1;
    const given = await t.request('PUT', `/admin/students/${carla.id}/tags/leader`, { ...as('coordinator'), payload: { days } });
    expect(given.statusCode, given.body).toBe(200);
    for (const [name, stream] of Object.entries(streams)) {
      await vi.waitFor(
        async () => {
          await t.app.liveHub.tick();
          if (stream.received.filter((event) => event.event === 'tags').length <= before[name]!) throw new Error(`no tags yet: ${name}`);
        },
        { timeout: 10_000, interval: 50 },
      );
    }
  }

  test('a teacher’s stream gets the feed lines and the figures of their turmas only', async () => {
    await settle();
    const at = Object.fromEntries(Object.entries(streams).map(([name, stream]) => [name, stream.received.length]));
    const since = (name: keyof typeof streams) => streams[name].received.slice(at[name]);
    const description = `Ao vivo ${randomUUID().slice(0, 6)}`;
    await t.award(bruno.id, 4, { description });
    await streams.yuri.waitFor((events) => lines(events).some((line) => line.description === description));
    await streams.coordinator.waitFor((events) => lines(events).some((line) => line.description === description));
    await settle();
    // What else came is the settling tags (one or two: an earlier tag may reach a stream a tick late).
    const other = (name: keyof typeof streams) =>
      since(name)
        .map((event) => event.event)
        .filter((event) => event !== 'tags');
    expect(lines(since('xavier'))).toEqual([]);
    expect(other('xavier')).toEqual([]);
    expect(other('yuri')).toEqual(['operations', 'figures']);
    expect(other('coordinator')).toEqual(['operations', 'figures']);
  });
});
