import { randomUUID } from 'node:crypto';
import Papa from 'papaparse';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addAdmin, buildTestApp, turmaIdOf, type TestApp } from '../../test/test-app.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { FIGURE_LABELS, type ReportOverview, type ReportReasons, type ReportTimeline } from '../../../shared/reports.ts';

/** The reports' author filter (issue 34): only the operations of one member of the staff count; balances stay the students'. */
let t: TestApp;
let teacher: { id: string; cookie: string };

beforeAll(async () => {
  t = await buildTestApp();
  const email = 'prof.autora@escola.test';
  const row = await addAdmin(t.db, {
    email,
    name: 'Professora Autora',
    role: 'teacher',
    turmaIds: [await turmaIdOf(t.db, '1º EM - Turma A')],
  });
  teacher = { id: row.id, cookie: await t.loginAdmin(email) };
  const [ana, bruno] = t.students;
  const operate = (cookie: string | undefined, id: string, type: string, amount: number, description: string, currency = 'meritus') =>
    t.request('POST', `/admin/students/${id}/${currency}`, { payload: { type, amount, description }, ...(cookie ? { cookie } : {}) });
  for (const [cookie, id, type, amount, description, currency] of [
    [teacher.cookie, ana!.id, 'reward', 30, 'Leitura', 'meritus'],
    [teacher.cookie, ana!.id, 'admin_add', 12, 'Leitura', 'meritus'],
    [teacher.cookie, ana!.id, 'penalty', 5, 'Atraso', 'meritus'],
    [teacher.cookie, ana!.id, 'reward', 4, 'Leitura', 'estelecas'],
    [undefined, bruno!.id, 'admin_add', 200, 'Olimpíada', 'meritus'],
    [undefined, ana!.id, 'admin_add', 100, 'Olimpíada', 'meritus'],
  ] as const) {
    expect((await operate(cookie, id, type, amount, description, currency)).statusCode).toBe(201);
  }
  const transfer = await t.app.inject({
    method: 'POST',
    url: '/api/meritus/transfers',
    headers: { cookie: await t.loginStudent(ana!.studentId), 'idempotency-key': randomUUID() },
    payload: { recipientId: bruno!.id, amount: 20 },
  });
  expect(transfer.statusCode).toBe(201);
});
afterAll(async () => t.close());

async function read<T>(path: string, authorId?: string): Promise<T> {
  const response = await t.request('GET', `/admin/reports/${path}?period=today${authorId ? `&authorId=${authorId}` : ''}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

test("figures, turmas, timeline and reasons count only the author's operations; balances stay the students' own", async () => {
  const all = await read<ReportOverview>('overview');
  const mine = await read<ReportOverview>('overview', teacher.id);
  expect(all.figures.meritusAwarded.current).toBe(342);
  expect(mine.period.authorId).toBe(teacher.id);
  expect(mine.figures).toMatchObject({
    meritusAwarded: { current: 42 },
    meritusRemoved: { current: 5 },
    meritusTransferred: { current: 0 },
    estelecasAwarded: { current: 4 },
    activeStudents: { current: 0 },
    participants: { current: 1 },
  });
  expect(mine.turmas.find((row) => row.turma === '1º EM - Turma A')).toMatchObject({ awarded: 42, removed: 5, balance: 117 });
  expect(mine.turmas.find((row) => row.turma === '1º EM - Turma B')).toMatchObject({ awarded: 0, balance: 220 });
  expect(mine.balances).toEqual(all.balances);
  expect(mine.risers).toEqual(all.risers);

  const timeline = await read<ReportTimeline>('timeline', teacher.id);
  expect(timeline.points).toEqual([expect.objectContaining({ awarded: 42, removed: 5, transferred: 0 })]);

  const reasons = await read<ReportReasons>('reasons', teacher.id);
  expect(reasons.awards).toEqual([{ description: 'Leitura', preset: false, operations: 3, meritus: 42, estelecas: 4 }]);
  expect(reasons.penalties).toEqual([{ description: 'Atraso', preset: false, operations: 1, meritus: 5, estelecas: 0 }]);
  expect((await read<ReportReasons>('reasons')).awards.map((row) => row.description)).toEqual(['Leitura', 'Olimpíada']);
});

test('the export takes the same filter; an unknown or malformed author is refused in pt-BR', async () => {
  const response = await t.request('GET', `/admin/reports/export?period=today&table=figures&format=csv&authorId=${teacher.id}`);
  expect(response.statusCode).toBe(200);
  const rows = Papa.parse<string[]>(response.body.replace(/^\uFEFF/, '')).data;
  expect(rows.find((row) => row[0] === FIGURE_LABELS.meritusAwarded)?.[1]).toBe('42');
  expect((await t.lastAudit('report.export'))?.details).toMatchObject({ authorId: teacher.id });

  for (const authorId of [randomUUID(), '1; DROP TABLE admins']) {
    const refused = await t.request('GET', `/admin/reports/overview?period=today&authorId=${encodeURIComponent(authorId)}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe(ERROR_MESSAGES.author_not_found);
  }
});
