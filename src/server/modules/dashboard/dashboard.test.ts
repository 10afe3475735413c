import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addStudents, adminActor, buildTestApp, studentActor, type TestApp } from '../../test/test-app.ts';
import { auditLog, goals, students } from '../../db/schema.ts';
import { adminOperation, studentTransfer } from '../ledger/ledger.service.ts';
import { silentEvents } from '../../realtime/event-bus.ts';
import type { DashboardSummary } from '../../../shared/dashboard.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const brasiliaDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });

let t: TestApp;
let adminCookie: string;
let now: number;
/** The Méritus ledger rows the scenario writes, to derive the calendar-based figures. */
const meritusRows: { at: number; amount: number; credit: boolean }[] = [];

/**
 * A known school:
 * - Ana, Bruno, Carla joined 40 days ago; Diego 5 days ago; Eva joined 40 days ago and was removed 35 days ago.
 * - Méritus: Ana +100 (10 d), Bruno reward 40 (9 d), Ana → Bruno 30 (3 d), Carla +20 (2 d), Bruno penalty 10 (1 d);
 *   Eva +50 (36 d, before removal). Estelecas: Diego +5 (1 d), which no Méritus figure counts.
 * - Logins: Ana and Bruno now; Carla and Ana 30 h ago; Eva 30 h ago (removed, so not counted).
 */
beforeAll(async () => {
  t = await buildTestApp();
  now = Date.now();
  const [ana, bruno, carla, diego] = t.students as [
    TestApp['students'][number],
    TestApp['students'][number],
    TestApp['students'][number],
    TestApp['students'][number],
  ];
  const [eva] = await addStudents(t.db, [{ studentId: '3000005', name: 'Eva Nogueira' }]);
  const admin = adminActor(t.admin);
  /** The scenario is written in the past, through the ledger's own operations. */
  const history = { db: t.db, events: silentEvents };
  const ago = (ms: number) => new Date(now - ms);
  for (const student of [ana, bruno, carla, eva!]) {
    await t.db
      .update(students)
      .set({ createdAt: ago(40 * DAY) })
      .where(eq(students.id, student.id));
  }
  await t.db
    .update(students)
    .set({ createdAt: ago(5 * DAY) })
    .where(eq(students.id, diego.id));

  const award = async (id: string, type: 'admin_add' | 'reward' | 'penalty', amount: number, at: number) => {
    await adminOperation(history, admin, 'meritus', { id, type, amount, description: 'Cenário' }, { at: ago(at) });
    meritusRows.push({ at: now - at, amount, credit: type !== 'penalty' });
  };
  await award(eva!.id, 'admin_add', 50, 36 * DAY);
  await t.db
    .update(students)
    .set({ deletedAt: ago(35 * DAY) })
    .where(eq(students.id, eva!.id));
  await award(ana.id, 'admin_add', 100, 10 * DAY);
  await award(bruno.id, 'reward', 40, 9 * DAY);
  await studentTransfer(history, studentActor(ana), 'meritus', { recipientId: bruno.id, amount: 30 }, { at: ago(3 * DAY) });
  meritusRows.push({ at: now - 3 * DAY, amount: 30, credit: false });
  await award(carla.id, 'admin_add', 20, 2 * DAY);
  await award(bruno.id, 'penalty', 10, 1 * DAY);
  await adminOperation(
    history,
    admin,
    'estelecas',
    { id: diego.id, type: 'admin_add', amount: 5, description: 'Cenário' },
    { at: ago(DAY) },
  );

  await t.loginStudent(ana.studentId);
  await t.loginStudent(bruno.studentId);
  await t.db.insert(auditLog).values(
    [carla, ana, eva!].map((s) => ({
      actorKind: 'student' as const,
      actorId: s.id,
      actorLabel: s.name,
      action: 'login.success',
      at: ago(30 * HOUR),
    })),
  );
  adminCookie = await t.loginAdmin();
});
afterAll(async () => t.close());

async function summary(cookie = adminCookie) {
  return t.app.inject({ url: '/api/admin/dashboard', headers: { cookie } });
}

describe('dashboard figures', () => {
  let body: DashboardSummary;
  beforeAll(async () => {
    const response = await summary();
    expect(response.statusCode).toBe(200);
    body = response.json();
  });

  test('Total de Estudantes counts current students and compares with 30 days ago', () => {
    // 4 now (Eva removed); 30 days ago Ana, Bruno and Carla existed (Diego joined 5 days ago, Eva already removed)
    expect(body.totalStudents).toEqual({ value: 4, change: { previous: 3, delta: 1, percent: 33.3 } });
  });

  test('Méritus em Circulação sums current balances and compares with the same sum 7 days ago', () => {
    // now: Ana 70 + Bruno 60 + Carla 20 + Diego 0; 7 days ago: Ana 100 + Bruno 40; Eva's 50 never counts
    expect(body.meritusInCirculation).toEqual({ value: 150, change: { previous: 140, delta: 10, percent: 7.1 } });
  });

  test("Transações (7 dias) counts Méritus operations of the weekly chart's days against the 7 days before", () => {
    expect(body.transactions7d).toEqual({ value: 3, change: { previous: 2, delta: 1, percent: 50 } });
    expect(body.overview.weeklyActivity.reduce((sum, day) => sum + day.count, 0)).toBe(body.transactions7d.value);
  });

  test('Estudantes Ativos counts logins in the last 24 h against the 24 h before', () => {
    // Ana and Bruno now; Ana and Carla 30 h ago (Eva is removed)
    expect(body.activeStudents).toEqual({ value: 2, change: { previous: 2, delta: 0, percent: 0 } });
  });

  test('overview: participation rate, average per student and Méritus operations per day', () => {
    expect(body.overview.participationRate).toBe(75);
    expect(body.overview.studentsWithBalance).toBe(3);
    expect(body.overview.averagePerStudent).toBe(38);
    const days = Array.from({ length: 7 }, (_, i) => brasiliaDay.format(new Date(now - (6 - i) * DAY)));
    const expected = days.map((date) => ({
      date,
      count: meritusRows.filter((row) => brasiliaDay.format(new Date(row.at)) === date).length,
    }));
    expect(body.overview.weeklyActivity).toEqual(expected);
    expect(body.overview.weeklyActivity.reduce((sum, day) => sum + day.count, 0)).toBe(3);
  });

  test('goals show real progress toward the default targets', () => {
    const month = brasiliaDay.format(new Date(now)).slice(0, 7);
    const awardedThisMonth = meritusRows
      .filter((row) => row.credit && brasiliaDay.format(new Date(row.at)).startsWith(month))
      .reduce((sum, row) => sum + row.amount, 0);
    expect(body.goals).toEqual([
      expect.objectContaining({
        id: 'participation',
        label: 'Participação',
        unit: 'percent',
        target: 95,
        current: 75,
        progress: 78.9,
        updatedAt: null,
      }),
      expect.objectContaining({ id: 'weekly_transactions', label: 'Transações na semana', target: 100, current: 3, progress: 3 }),
      expect.objectContaining({
        id: 'monthly_awarded',
        label: 'Méritus concedidos no mês',
        target: 5000,
        current: awardedThisMonth,
        progress: Math.round((awardedThisMonth / 5000) * 1000) / 10,
      }),
    ]);
  });
});

describe('a school year or period chosen (issue 38)', () => {
  const dayAgo = (days: number) => brasiliaDay.format(new Date(now - days * DAY));
  const dayAhead = (days: number) => brasiliaDay.format(new Date(now + days * DAY));
  let year: { id: string; periods: { id: string }[] };
  async function read(query: string): Promise<DashboardSummary> {
    const response = await t.app.inject({ url: `/api/admin/dashboard?${query}`, headers: { cookie: adminCookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }
  beforeAll(async () => {
    // The 2nd bimestre holds Ana's +100, Bruno's reward and the transfer; the 3rd (this one) Carla's +20 and the penalty.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/school-years',
      headers: { cookie: adminCookie },
      payload: {
        name: 'Ano letivo 2026',
        startDate: dayAgo(80),
        endDate: dayAhead(30),
        periodKind: 'bimestre',
        periods: [
          { startDate: dayAgo(80), endDate: dayAgo(11) },
          { startDate: dayAgo(10), endDate: dayAgo(3) },
          { startDate: dayAgo(2), endDate: dayAhead(10) },
          { startDate: dayAhead(11), endDate: dayAhead(30) },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    year = created.json();
  });

  test('without one, the figures are of the last 7 days, as before', async () => {
    const body = await read('');
    expect(body.period).toEqual({
      label: null,
      from: dayAgo(6),
      to: dayAgo(0),
      previousFrom: dayAgo(13),
      previousTo: dayAgo(7),
      bucket: 'day',
    });
  });

  test("'Este bimestre' counts its days up to today against as many days before, in the chart and the Loja's card too", async () => {
    const body = await read('period=atual');
    expect(body.period).toEqual({
      label: '3º bimestre de 2026',
      from: dayAgo(2),
      to: dayAgo(0),
      previousFrom: dayAgo(5),
      previousTo: dayAgo(3),
      bucket: 'day',
    });
    // Carla's +20 and Bruno's penalty; before: the transfer. Diego's Estelecas are no Méritus operation.
    expect(body.transactions7d).toEqual({ value: 2, change: { previous: 1, delta: 1, percent: 100 } });
    expect(body.overview.weeklyActivity).toEqual([
      { date: dayAgo(2), count: 1 },
      { date: dayAgo(1), count: 1 },
      { date: dayAgo(0), count: 0 },
    ]);
    expect(body.store.awarded).toBe(20);
    // Balances are today's, and the goals keep their own days, whatever the period.
    expect(body.meritusInCirculation.value).toBe(150);
    expect(body.goals.find((goal) => goal.id === 'weekly_transactions')!.current).toBe(3);
  });

  test('a past period and the whole year: their own days, a long one by week', async () => {
    const second = await read(`year=${year.id}&period=${year.periods[1]!.id}`);
    expect(second.period).toMatchObject({ label: '2º bimestre de 2026', from: dayAgo(10), to: dayAgo(3) });
    expect(second.transactions7d.value).toBe(3);
    expect(second.store.awarded).toBe(140);

    const whole = await read(`year=${year.id}`);
    expect(whole.period).toMatchObject({ label: 'Ano letivo 2026', from: dayAgo(80), to: dayAgo(0), bucket: 'week' });
    expect(whole.overview.weeklyActivity.length).toBeLessThanOrEqual(13);
    // Eva's +50 too: she was a student then.
    expect(whole.transactions7d.value).toBe(6);
    expect(whole.overview.weeklyActivity.reduce((sum, bar) => sum + bar.count, 0)).toBe(6);
    expect(whole.overview.weeklyActivity[0]!.date).toBe(dayAgo(80));
    for (const bar of whole.overview.weeklyActivity.slice(1)) expect(new Date(`${bar.date}T12:00:00Z`).getUTCDay()).toBe(1);
  });

  test('a year or period that is not one is refused in pt-BR', async () => {
    const refused = async (query: string, status: number, code: string) => {
      const response = await t.app.inject({ url: `/api/admin/dashboard?${query}`, headers: { cookie: adminCookie } });
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().error).toMatchObject({ code, message: ERROR_MESSAGES[code as keyof typeof ERROR_MESSAGES] });
    };
    await refused('year=2026', 400, 'school_year_filter_invalid');
    await refused(`period=${encodeURIComponent("' OR 1=1 --")}`, 400, 'school_period_filter_invalid');
    await refused('period=00000000-0000-4000-8000-000000000000', 404, 'school_period_not_found');
  });
});

describe('live figures', () => {
  test('a new award shows on the next read', async () => {
    const before: DashboardSummary = (await summary()).json();
    const diego = t.students[3]!;
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/admin/students/${diego.id}/meritus`,
      headers: { cookie: adminCookie },
      payload: { type: 'reward', amount: 50, description: 'Olimpíada' },
    });
    expect(response.statusCode).toBe(201);
    const after: DashboardSummary = (await summary()).json();
    expect(after.transactions7d.value).toBe(before.transactions7d.value + 1);
    expect(after.meritusInCirculation.value).toBe(before.meritusInCirculation.value + 50);
    // the circulation of 7 days ago does not move
    expect(after.meritusInCirculation.change.previous).toBe(before.meritusInCirculation.change.previous);
    expect(after.overview.participationRate).toBe(100);
    expect(after.overview.weeklyActivity.at(-1)!.count).toBe(before.overview.weeklyActivity.at(-1)!.count + 1);
  });
});

describe('goal targets', () => {
  function put(id: string, payload: unknown, cookie = adminCookie) {
    return t.app.inject({ method: 'PUT', url: `/api/admin/dashboard/goals/${id}`, headers: { cookie }, payload: payload as object });
  }

  test('an administrator sets a target; progress follows and the change is audited with who did it', async () => {
    const response = await put('weekly_transactions', { target: 8 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: 'weekly_transactions', label: 'Transações na semana', target: 8 });
    const goal = ((await summary()).json() as DashboardSummary).goals.find((g) => g.id === 'weekly_transactions')!;
    expect(goal.target).toBe(8);
    expect(goal.progress).toBe(Math.round((goal.current / 8) * 1000) / 10);
    expect(goal.updatedAt).not.toBeNull();
    const [stored] = await t.db.select().from(goals).where(eq(goals.id, 'weekly_transactions'));
    expect(stored!.target).toBe(8);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'goal.update')));
    expect(audit).toMatchObject({ actorKind: 'admin', actorId: t.admin.id, actorLabel: t.admin.name });
    expect(audit!.details).toEqual({ goal: 'weekly_transactions', from: 100, to: 8 });
  });

  test('progress is capped at 100%', async () => {
    expect((await put('weekly_transactions', { target: 1 })).statusCode).toBe(200);
    const goal = ((await summary()).json() as DashboardSummary).goals.find((g) => g.id === 'weekly_transactions')!;
    expect(goal.current).toBeGreaterThan(1);
    expect(goal.progress).toBe(100);
  });

  test.each([
    ['participation', { target: 101 }, 400, 'A meta de participação deve estar entre 1 e 100%'],
    ['participation', { target: 0 }, 400, 'Informe uma meta válida (número inteiro maior que zero)'],
    ['monthly_awarded', { target: -5 }, 400, 'Informe uma meta válida (número inteiro maior que zero)'],
    ['monthly_awarded', { target: 2.5 }, 400, 'Informe uma meta válida (número inteiro maior que zero)'],
    ['monthly_awarded', { target: '100' }, 400, 'Informe uma meta válida (número inteiro maior que zero)'],
    ['monthly_awarded', {}, 400, 'Informe uma meta válida (número inteiro maior que zero)'],
    ['weekly_transactions', { target: 2_000_000 }, 400, 'Informe uma meta válida (número inteiro maior que zero)'],
    ['unknown_goal', { target: 10 }, 404, 'Meta não encontrada'],
  ])('%s %j → %i "%s", nothing stored', async (id, payload, status, message) => {
    const before = await t.db.select().from(goals);
    const response = await put(id, payload);
    expect(response.statusCode).toBe(status);
    expect(response.json().error.message).toBe(message);
    expect(await t.db.select().from(goals)).toEqual(before);
  });
});

describe('access', () => {
  test('only administrators read the dashboard or change goals', async () => {
    const studentCookie = await t.loginStudent(t.students[0]!.studentId);
    expect((await summary(studentCookie)).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/admin/dashboard' })).statusCode).toBe(401);
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/dashboard/goals/participation',
      headers: { cookie: studentCookie },
      payload: { target: 10 },
    });
    expect(put.statusCode).toBe(403);
  });
});
