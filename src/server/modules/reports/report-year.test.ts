import { randomUUID } from 'node:crypto';
import { afterEach, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/test-app.ts';
import { ledgerEntries } from '../../db/schema.ts';
import { silentEvents } from '../../realtime/event-bus.ts';
import { schoolToday } from '../school-year/school-year.service.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { addDays } from '../../../shared/reports.ts';
import type { SchoolYear } from '../../../shared/school-year.ts';

/** Issue 38: the reports select a school year and a period (`year=`, `period=`), on both databases. */
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const HOUR = 3_600_000;
/** An instant of a Brasília calendar day (the test school's zone, UTC−3) at a given hour. */
const at = (day: string, hour: number) => new Date(Date.parse(`${day}T00:00:00Z`) + (hour + 3) * HOUR);

const quarters = (year: number, firstEnd = `${year}-03-31`) => [
  { startDate: `${year}-01-01`, endDate: firstEnd },
  { startDate: addDays(firstEnd, 1), endDate: `${year}-06-30` },
  { startDate: `${year}-07-01`, endDate: `${year}-09-30` },
  { startDate: `${year}-10-01`, endDate: `${year}-12-31` },
];
const yearBody = (year: number, firstEnd?: string) => ({
  name: `Ano letivo ${year}`,
  startDate: `${year}-01-01`,
  endDate: `${year}-12-31`,
  periodKind: 'bimestre',
  periods: quarters(year, firstEnd),
});

async function createYear(app: TestApp, body: object): Promise<SchoolYear> {
  const created = await app.request('POST', '/admin/school-years', { payload: body });
  expect(created.statusCode, created.body).toBe(201);
  return created.json();
}

async function overview(app: TestApp, query: string) {
  const response = await app.request('GET', `/admin/reports/overview?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Méritus awarded to Ana by the coordination on the given Brasília days. */
async function awards(app: TestApp, rows: [day: string, amount: number][]) {
  await app.db.insert(ledgerEntries).values(
    rows.map(([day, amount]) => ({
      currency: 'meritus' as const,
      type: 'admin_add' as const,
      amount,
      description: 'Participação',
      toStudentId: app.students[0]!.id,
      actorKind: 'admin' as const,
      actorName: 'Carga de teste',
      createdAt: at(day, 12),
    })),
  );
}

test('a year, a period of it, and a period whose dates were edited each report their own days, named', async () => {
  t = await buildTestApp();
  const year = await createYear(t, yearBody(2029));
  const [first, , third] = year.periods;
  await awards(t, [
    ['2028-12-31', 5],
    ['2029-01-01', 1],
    ['2029-03-31', 10],
    ['2029-04-10', 100],
    ['2029-08-01', 1000],
    ['2029-12-31', 20_000],
    ['2030-01-01', 50_000],
  ]);

  const bimestre = await overview(t, `period=${first!.id}`);
  expect(bimestre.figures.meritusAwarded.current).toBe(11);
  expect(bimestre.period).toMatchObject({ from: '2029-01-01', to: '2029-03-31', label: '1º bimestre de 2029', period: first!.id });
  expect(bimestre.period.previousTo).toBe('2028-12-31');
  expect(bimestre.figures.meritusAwarded.previous).toBe(5);

  const whole = await overview(t, `year=${year.id}`);
  expect(whole.figures.meritusAwarded.current).toBe(21_111);
  expect(whole.period).toMatchObject({ from: '2029-01-01', to: '2029-12-31', label: 'Ano letivo 2029' });
  expect((await overview(t, `year=${year.id}&period=${third!.id}`)).figures.meritusAwarded.current).toBe(1000);

  // The coordination moves the 1st bimestre's end to 15 April: the same link now counts the days it gained.
  const edited = await t.request('PATCH', `/admin/school-years/${year.id}`, { payload: yearBody(2029, '2029-04-15') });
  expect(edited.statusCode, edited.body).toBe(200);
  const after = await overview(t, `period=${first!.id}`);
  expect(after.period).toMatchObject({ from: '2029-01-01', to: '2029-04-15' });
  expect(after.figures.meritusAwarded.current).toBe(111);
  expect((await overview(t, `period=${year.periods[1]!.id}`)).figures.meritusAwarded.current).toBe(0);

  // The exports and documents name the period chosen.
  const csv = await t.request('GET', `/admin/reports/export?table=figures&format=csv&period=${first!.id}`);
  expect(csv.statusCode, csv.body).toBe(200);
  expect(csv.body).toContain('1º bimestre de 2029: 01/01/2029 a 15/04/2029');
});

test('hostile or unknown years and periods are refused in pt-BR and change nothing', async () => {
  t = await buildTestApp();
  const year = await createYear(t, yearBody(2031));
  const other = await createYear(t, yearBody(2032));
  const refused = async (query: string, status: number, code: string, message: string) => {
    const response = await t!.request('GET', `/admin/reports/overview?${query}`);
    expect(response.statusCode, `${query}: ${response.body}`).toBe(status);
    expect(response.json().error).toMatchObject({ code, message });
  };
  const invalidPeriod = ERROR_MESSAGES.report_invalid_period;
  await refused('period=bimestre-1', 400, 'report_invalid_period', invalidPeriod);
  await refused(`period=${encodeURIComponent("' OR 1=1 --")}`, 400, 'report_invalid_period', invalidPeriod);
  await refused(`period=${'a'.repeat(5000)}`, 400, 'report_invalid_period', invalidPeriod);
  await refused('year=2031', 400, 'school_year_filter_invalid', ERROR_MESSAGES.school_year_filter_invalid);
  await refused('year=atual&year=atual', 400, 'school_year_filter_invalid', ERROR_MESSAGES.school_year_filter_invalid);
  await refused(`year=${randomUUID()}`, 404, 'school_year_not_found', ERROR_MESSAGES.school_year_not_found);
  await refused(`period=${randomUUID()}`, 404, 'school_period_not_found', ERROR_MESSAGES.school_period_not_found);
  await refused(
    `year=${year.id}&period=${other.periods[0]!.id}`,
    400,
    'school_year_period_mismatch',
    ERROR_MESSAGES.school_year_period_mismatch,
  );
  await refused('period=atual', 404, 'school_year_none_current', ERROR_MESSAGES.school_year_none_current);
  // The documents take the same filters.
  const pdf = await t.request('GET', `/admin/reports/top-certificates.pdf?year=nope`);
  expect(pdf.statusCode).toBe(400);
  expect(pdf.json().error.code).toBe('school_year_filter_invalid');
});

test('this bimestre runs up to today; a past year’s figures by turma stay in the turmas of that year after the rollover', async () => {
  t = await buildTestApp();
  const app = t;
  const today = await schoolToday({ db: app.db, events: silentEvents });
  const from = addDays(today, -60);
  const end = addDays(today, 30);
  const periods = [0, 1, 2, 3].map((n) => ({ startDate: addDays(from, n * 23), endDate: n === 3 ? end : addDays(from, n * 23 + 22) }));
  const year = await createYear(app, { name: 'Ano letivo 2026', startDate: from, endDate: end, periodKind: 'bimestre', periods });
  const [ana, bruno] = app.students as [TestApp['students'][number], TestApp['students'][number]];
  await app.award(ana.id, 120);
  await app.award(bruno.id, 30);

  const current = await overview(app, 'period=atual');
  expect(current.period).toMatchObject({ from: periods[2]!.startDate, to: today });
  expect(current.period.label).toMatch(/^3º bimestre de 2026$/);

  const turmaA = '1º EM - Turma A';
  const byTurma = async () => {
    const report = await overview(app, `year=${year.id}`);
    return Object.fromEntries(
      (report.turmas as { turma: string; awarded: number; students: number }[]).map((row) => [row.turma, [row.awarded, row.students]]),
    );
  };
  const before = await byTurma();
  expect(before[turmaA]).toEqual([120, 1]);
  const filtered = await overview(app, `year=${year.id}&turma=${encodeURIComponent(turmaA)}`);
  expect(filtered.figures.meritusAwarded.current).toBe(120);

  const preview = await app.request('POST', '/admin/rollover/preview', { payload: { balances: { meritus: 'keep', estelecas: 'keep' } } });
  expect(preview.statusCode, preview.body).toBe(200);
  const applied = await app.app.inject({
    method: 'POST',
    url: '/api/admin/rollover/apply',
    headers: { cookie: await app.loginAdmin(), 'idempotency-key': 'virada-relatorio' },
    payload: { balances: { meritus: 'keep', estelecas: 'keep' }, token: preview.json().token },
  });
  expect(applied.statusCode, applied.body).toBe(200);

  // Ana is in 2º EM - Turma A now; the closed year still counts her in 1º EM - Turma A.
  expect(await byTurma()).toEqual(before);
  expect((await overview(app, `year=${year.id}&turma=${encodeURIComponent(turmaA)}`)).figures.meritusAwarded.current).toBe(120);
  expect((await overview(app, `year=${year.id}&turma=${encodeURIComponent('2º EM - Turma A')}`)).figures.meritusAwarded.current).toBe(0);
});
