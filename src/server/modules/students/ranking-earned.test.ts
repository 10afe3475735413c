import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { addStudents, buildTestApp, type TestApp } from '../../test/test-app.ts';
import { ledgerEntries, students } from '../../db/schema.ts';
import { dayIn } from '../../../shared/format.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { addDays } from '../../../shared/reports.ts';
import type { RankingAnswer } from '../../../shared/students.ts';
import type { SchoolYear } from '../../../shared/school-year.ts';

/** Issue 38: the ranking by Méritus earned in a school year or period (`by=earned`, `year=`, `period=`), on both databases. */
let t: TestApp;
let year: SchoolYear;
let today: string;

/** A year around today in four bimestres of 23 days: today falls in the 3rd. */
beforeEach(async () => {
  t = await buildTestApp();
  const settings = await t.request('GET', '/settings');
  today = dayIn(settings.json().school.timeZone, new Date());
  const from = addDays(today, -60);
  const periods = [0, 1, 2, 3].map((n) => ({
    startDate: addDays(from, n * 23),
    endDate: n === 3 ? addDays(today, 30) : addDays(from, n * 23 + 22),
  }));
  const created = await t.request('POST', '/admin/school-years', {
    payload: { name: 'Ano letivo 2026', startDate: from, endDate: addDays(today, 30), periodKind: 'bimestre', periods },
  });
  expect(created.statusCode, created.body).toBe(201);
  year = created.json();
});
afterEach(async () => t.close());

async function ranking(query: string, cookie?: string): Promise<RankingAnswer> {
  const response = await t.request('GET', `/ranking${query}`, cookie ? { cookie } : {});
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const board = (answer: RankingAnswer) =>
  answer.entries.filter((row) => row.meritus > 0).map((row) => [row.name, row.position, row.meritus]);

test('a student who arrived this bimestre leads it by what she earned, while the balance keeps the older student first', async () => {
  const ana = t.students[0]!;
  // Ana earned 500 in the 1st bimestre (written then: her stored balance is the sum of her rows).
  await t.db.insert(ledgerEntries).values({
    currency: 'meritus',
    type: 'admin_add',
    amount: 500,
    description: 'Olimpíada',
    toStudentId: ana.id,
    actorKind: 'admin',
    actorName: 'Carga de teste',
    createdAt: new Date(`${year.periods[0]!.startDate}T15:00:00Z`),
  });
  await t.db
    .update(students)
    .set({ meritus: sql`${students.meritus} + 500` })
    .where(eq(students.id, ana.id));
  const [eva] = await addStudents(t.db, [{ studentId: '3900001', name: 'Eva Chegada', grade: '1º EM - Turma A' }]);
  await t.award(ana.id, 10);
  await t.award(eva!.id, 50);

  expect(board(await ranking(''))).toEqual([
    [ana.name, 1, 510],
    ['Eva Chegada', 2, 50],
  ]);
  const bimestre = await ranking('?by=earned');
  expect(bimestre.span).toEqual({ from: year.periods[2]!.startDate, to: year.periods[2]!.endDate, label: '3º bimestre de 2026' });
  expect(board(bimestre)).toEqual([
    ['Eva Chegada', 1, 50],
    [ana.name, 2, 10],
  ]);
  expect(board(await ranking(`?by=earned&period=${year.periods[0]!.id}`))).toEqual([[ana.name, 1, 500]]);
  expect(board(await ranking(`?by=earned&year=${year.id}`))).toEqual([
    [ana.name, 1, 510],
    ['Eva Chegada', 2, 50],
  ]);

  // An operation reaches the kept board by its students: Ana passes Eva in the bimestre; the 1st bimestre stays.
  await t.award(ana.id, 100);
  expect(board(await ranking('?by=earned&period=atual'))).toEqual([
    [ana.name, 1, 110],
    ['Eva Chegada', 2, 50],
  ]);
  expect(board(await ranking(`?by=earned&period=${year.periods[0]!.id}`))).toEqual([[ana.name, 1, 500]]);

  // A student reads the same board under the school's privacy rules, their own row whole.
  const own = await ranking('?by=earned&around=me', await t.loginStudent(eva!.studentId));
  expect(own.me).toMatchObject({ name: 'Eva Chegada', meritus: 50, position: 2 });
  expect(own.span?.label).toBe('3º bimestre de 2026');
});

test('hostile or impossible choices are refused in pt-BR', async () => {
  const refused = async (query: string, status: number, code: string) => {
    const response = await t.request('GET', `/ranking${query}`);
    expect(response.statusCode, `${query}: ${response.body}`).toBe(status);
    expect(response.json().error).toMatchObject({ code, message: ERROR_MESSAGES[code as keyof typeof ERROR_MESSAGES] });
  };
  await refused('?by=saldo', 400, 'ranking_by_invalid');
  await refused('?by=earned&year=2026', 400, 'school_year_filter_invalid');
  await refused(`?by=earned&period=${encodeURIComponent("1' OR '1'='1")}`, 400, 'school_period_filter_invalid');
  await refused('?year=atual', 400, 'ranking_balance_now');
  await refused(`?by=earned&year=${randomUUID()}`, 404, 'school_year_not_found');
  await refused(`?by=earned&period=${randomUUID()}`, 404, 'school_period_not_found');
});
