import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { addAdmin, withSharedAdminApp, type TestApp } from '../../test/test-app.ts';
import { rowsOf } from '../../db/client.ts';
import { silentEvents } from '../../realtime/event-bus.ts';
import { dateRangeOf } from './school-year.service.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { addDays } from '../../../shared/reports.ts';

/** Issue 38: school years and their periods, on both databases. Each test uses its own span of years, far from the others'. */
let t: TestApp;
let adminCookie: string;
withSharedAdminApp((app, cookie) => {
  t = app;
  adminCookie = cookie;
});

const quarters = (year: number) =>
  [1, 4, 7, 10].map((month) => ({
    startDate: `${year}-${String(month).padStart(2, '0')}-01`,
    endDate: addDays(`${month === 10 ? year + 1 : year}-${String(month === 10 ? 1 : month + 3).padStart(2, '0')}-01`, -1),
  }));
const yearBody = (year: number, overrides: object = {}) => ({
  name: `Ano letivo ${year}`,
  startDate: `${year}-01-01`,
  endDate: `${year}-12-31`,
  periodKind: 'bimestre',
  periods: quarters(year),
  ...overrides,
});

async function create(body: object) {
  return t.app.inject({ method: 'POST', url: '/api/admin/school-years', headers: { cookie: adminCookie }, payload: body });
}

test('a year is created with its bimestres, read by any staff member, and written by the coordination only', async () => {
  const created = await create(yearBody(2031));
  expect(created.statusCode, created.body).toBe(201);
  const year = created.json();
  expect(year).toMatchObject({ name: 'Ano letivo 2031', periodKind: 'bimestre', current: false, closedAt: null });
  expect(year.periods.map((period: { name: string }) => period.name)).toEqual(['1º bimestre', '2º bimestre', '3º bimestre', '4º bimestre']);

  const teacher = await addAdmin(t.db, { email: 'prof.ano@escola.test', name: 'Renata Professora', role: 'teacher' });
  const teacherCookie = await t.loginAdmin(teacher.email);
  const read = await t.request('GET', '/admin/school-years', { cookie: teacherCookie });
  expect(read.statusCode).toBe(200);
  expect(read.json().years.some((candidate: { id: string }) => candidate.id === year.id)).toBe(true);
  expect((await t.request('POST', '/admin/school-years', { cookie: teacherCookie, payload: yearBody(2032) })).statusCode).toBe(403);
  expect((await t.request('PATCH', `/admin/school-years/${year.id}`, { cookie: teacherCookie, payload: yearBody(2031) })).statusCode).toBe(
    403,
  );
  expect((await t.request('GET', '/admin/school-years', { cookie: await t.loginStudent(t.students[0]!.studentId) })).statusCode).toBe(403);
});

test('overlapping years, periods outside the year or overlapping, and a wrong number of periods are refused in pt-BR', async () => {
  expect((await create(yearBody(2041))).statusCode).toBe(201);
  const outside = await create(yearBody(2042, { startDate: '2042-02-01' }));
  expect(outside.statusCode).toBe(400);
  expect(outside.json().error).toMatchObject({ code: 'school_period_outside_year', message: ERROR_MESSAGES.school_period_outside_year });

  const shared = await create(yearBody(2042, { startDate: '2041-12-31', periods: quarters(2042) }));
  expect(shared.statusCode).toBe(409);
  expect(shared.json().error).toMatchObject({ code: 'school_year_overlap', message: 'As datas se sobrepõem às do Ano letivo 2041' });

  const crossing = quarters(2043);
  crossing[1] = { startDate: '2043-03-15', endDate: '2043-06-30' };
  const crossed = await create(yearBody(2043, { periods: crossing }));
  expect(crossed.statusCode).toBe(400);
  expect(crossed.json().error).toMatchObject({ code: 'school_period_overlap', message: ERROR_MESSAGES.school_period_overlap });

  const three = await create(yearBody(2043, { periodKind: 'trimestre' }));
  expect(three.statusCode).toBe(400);
  expect(three.json().error.message).toBe('Um ano letivo em bimestres tem 4 períodos; em trimestres, 3');

  const backwards = await create(yearBody(2043, { startDate: '2043-12-31', endDate: '2043-01-01' }));
  expect(backwards.json().error.code).toBe('school_year_dates_order');
  expect(
    (await create(yearBody(2041, { startDate: '2044-01-01', endDate: '2044-12-31', periods: quarters(2044) }))).json().error.code,
  ).toBe('school_year_name_taken');
});

test('the database itself refuses an overlap, whatever the code does', async () => {
  expect((await create(yearBody(2051))).statusCode).toBe(201);
  await expect(
    t.db.execute(
      sql`INSERT INTO school_years (name, start_date, end_date, period_kind) VALUES ('Outro', '2051-06-01', '2052-05-31', 'bimestre')`,
    ),
  ).rejects.toThrow();
  await expect(
    t.db.transaction(async (tx) => {
      const [year] = rowsOf<{ id: string }>(
        await tx.execute(
          sql`INSERT INTO school_years (name, start_date, end_date, period_kind) VALUES ('Fora', '2053-01-01', '2053-12-31', 'trimestre') RETURNING id`,
        ),
      );
      await tx.execute(
        sql`INSERT INTO school_periods (year_id, position, start_date, end_date) VALUES (${year!.id}, 1, '2052-12-01', '2053-03-31')`,
      );
    }),
  ).rejects.toThrow();
});

test('an edit moves the periods and keeps their ids; year= and period= give their days and instants', async () => {
  const year = (await create(yearBody(2061))).json();
  const periods = quarters(2061);
  periods[0] = { startDate: '2061-02-01', endDate: '2061-03-31' };
  const edited = await t.request('PATCH', `/admin/school-years/${year.id}`, {
    payload: yearBody(2061, { startDate: '2061-02-01', periods }),
  });
  expect(edited.statusCode, edited.body).toBe(200);
  expect(edited.json().periods.map((period: { id: string }) => period.id)).toEqual(year.periods.map((period: { id: string }) => period.id));
  expect(edited.json().periods[0]).toMatchObject({ startDate: '2061-02-01', endDate: '2061-03-31' });

  const deps = { db: t.db, events: silentEvents };
  const second = year.periods[1].id as string;
  expect(await dateRangeOf(deps, { year: year.id, period: second })).toMatchObject({
    from: '2061-04-01',
    to: '2061-06-30',
    // America/São_Paulo (UTC−3): the first day begins at 03:00 UTC; the range ends where the day after the last begins.
    start: new Date('2061-04-01T03:00:00.000Z'),
    end: new Date('2061-07-01T03:00:00.000Z'),
    year: { id: year.id, name: 'Ano letivo 2061' },
    period: { id: second, name: '2º bimestre' },
  });
  expect(await dateRangeOf(deps, { year: year.id })).toMatchObject({ from: '2061-02-01', to: '2061-12-31', period: null });
  expect(await dateRangeOf(deps, {})).toBeUndefined();
  const current = await dateRangeOf(deps, { period: 'atual' }, new Date('2061-05-10T12:00:00Z'));
  expect(current).toMatchObject({ from: '2061-04-01', period: { id: second } });
  const other = (await create(yearBody(2062))).json();
  await expect(dateRangeOf(deps, { year: other.id, period: second })).rejects.toMatchObject({ code: 'school_year_period_mismatch' });
  await expect(dateRangeOf(deps, { year: 'atual' }, new Date('2099-05-10T12:00:00Z'))).rejects.toMatchObject({
    code: 'school_year_none_current',
  });
  await expect(dateRangeOf(deps, { year: 'nada' })).rejects.toMatchObject({ code: 'school_year_not_found' });
});

test('a store limit per ano letivo counts from the school year’s first day, and restarts when the next year begins', async () => {
  await create(
    yearBody(2071, { startDate: '2071-02-05', periods: [{ startDate: '2071-02-05', endDate: '2071-03-31' }, ...quarters(2071).slice(1)] }),
  );
  const startOf = async (day: string) =>
    rowsOf<{ start: string }>(await t.db.execute(sql`SELECT store_period_start('year', ${day}::date)::text AS start`))[0]!.start;
  expect(await startOf('2071-06-10')).toBe('2071-02-05');
  // The vacation after the year counts in it until the next one begins; before any year, the calendar year.
  expect(await startOf('2072-01-20')).toBe('2071-02-05');
  await create(
    yearBody(2072, { startDate: '2072-02-03', periods: [{ startDate: '2072-02-03', endDate: '2072-03-31' }, ...quarters(2072).slice(1)] }),
  );
  expect(await startOf('2072-02-03')).toBe('2072-02-03');
  expect(await startOf('2020-06-10')).toBe('2020-01-01');
});
