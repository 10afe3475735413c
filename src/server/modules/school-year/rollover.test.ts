import fs from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, expect, test } from 'vitest';
import { addAdmin, adminActor, buildTestApp, turmaIdOf, type TestApp } from '../../test/test-app.ts';
import { hallOfFameHonours, ledgerEntries, schoolYearRollovers, students, studentTags } from '../../db/schema.ts';
import { reconcile } from '../ledger/reconciliation.service.ts';
import { silentEvents, type EventBus } from '../../realtime/event-bus.ts';
import { applyRollover, type RolloverDeps } from './rollover.service.ts';
import { schoolToday } from './school-year.service.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { addDays } from '../../../shared/reports.ts';
import type { RolloverPreview } from '../../../shared/school-year.ts';

/** Issue 38: the rollover of a school (four students in 1º EM A, 1º EM B, 2º EM A and 3º EM D) on both databases. */
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const MONEY = [
  'meritusAwarded',
  'meritusRemoved',
  'meritusTransferred',
  'estelecasAwarded',
  'estelecasRemoved',
  'meritusSpent',
  'estelecasSpent',
  'meritusReversed',
  'estelecasReversed',
] as const;

/** A school with the year that contains today ('Ano letivo' of the test), some balances and a tag. */
async function school(): Promise<{ t: TestApp; today: string; from: string }> {
  const app = await buildTestApp();
  t = app;
  const today = await schoolToday({ db: app.db, events: silentEvents });
  const from = addDays(today, -60);
  const end = addDays(today, 30);
  const periods = [0, 1, 2, 3].map((n) => ({ startDate: addDays(from, n * 23), endDate: n === 3 ? end : addDays(from, n * 23 + 22) }));
  const created = await app.request('POST', '/admin/school-years', {
    payload: { name: 'Ano letivo 2026', startDate: from, endDate: end, periodKind: 'bimestre', periods },
  });
  expect(created.statusCode, created.body).toBe(201);
  const [ana, bruno, carla, diego] = app.students as [
    TestApp['students'][number],
    TestApp['students'][number],
    TestApp['students'][number],
    TestApp['students'][number],
  ];
  await app.award(ana.id, 120);
  await app.award(bruno.id, 30);
  await app.award(diego.id, 500);
  await app.award(carla.id, 7, { currency: 'estelecas' });
  const tag = await app.request('PUT', `/admin/students/${ana.id}/tags/leader`, { payload: {} });
  expect(tag.statusCode, tag.body).toBe(200);
  return { t: app, today, from };
}

async function preview(app: TestApp, body: object = { balances: { meritus: 'close', estelecas: 'close' } }): Promise<RolloverPreview> {
  const response = await app.request('POST', '/admin/rollover/preview', { payload: body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function figures(app: TestApp, from: string, to: string) {
  const response = await app.request('GET', `/admin/reports/overview?period=custom&from=${from}&to=${to}`);
  expect(response.statusCode, response.body).toBe(200);
  const all = response.json().figures as Record<string, unknown>;
  return Object.fromEntries(MONEY.map((name) => [name, all[name]]));
}

test('the rollover moves everyone by the proposed mapping, graduates the 3º EM, closes each balance by its own entry, keeps the year’s figures', async () => {
  const { t: app, today, from } = await school();
  const [ana, bruno, carla, diego] = app.students as [
    TestApp['students'][number],
    TestApp['students'][number],
    TestApp['students'][number],
    TestApp['students'][number],
  ];
  const before = await figures(app, from, today);

  const seen = await preview(app);
  expect(seen.year.name).toBe('Ano letivo 2026');
  expect(seen.mapping.turmas[await turmaIdOf(app.db, '1º EM - Turma A')]).toBe(await turmaIdOf(app.db, '2º EM - Turma A'));
  expect(seen.mapping.turmas[await turmaIdOf(app.db, '3º EM - Turma D')]).toBe('graduated');
  expect(seen.counts).toEqual({
    moving: 3,
    staying: 0,
    graduating: 1,
    leaving: 0,
    balancesClosed: 4,
    meritusClosed: 650,
    estelecasClosed: 7,
  });
  expect(seen.summary).toBe('3 alunos mudam de turma, 1 se forma, 4 saldos encerrados, total 650 M$ e 7 Estelecas');

  const diegoCookie = await app.loginStudent(diego.studentId);
  const applied = await app.app.inject({
    method: 'POST',
    url: '/api/admin/rollover/apply',
    headers: { cookie: await app.loginAdmin(), 'idempotency-key': 'virada-2026-primeira' },
    payload: { balances: { meritus: 'close', estelecas: 'close' }, token: seen.token },
  });
  expect(applied.statusCode, applied.body).toBe(200);
  const outcome = applied.json();
  expect(outcome).toMatchObject({ applied: true, counts: seen.counts, summary: seen.summary });
  expect(fs.existsSync(path.join(app.config.dataDir, 'backups', outcome.backupFile))).toBe(true);

  const rows = await app.db.select().from(students);
  const turmaOf = (id: string) => rows.find((row) => row.id === id)!.turmaId;
  expect(turmaOf(ana.id)).toBe(await turmaIdOf(app.db, '2º EM - Turma A'));
  expect(turmaOf(bruno.id)).toBe(await turmaIdOf(app.db, '2º EM - Turma B'));
  expect(turmaOf(carla.id)).toBe(await turmaIdOf(app.db, '3º EM - Turma A'));
  const graduate = rows.find((row) => row.id === diego.id)!;
  expect(graduate.turmaId).toBe(await turmaIdOf(app.db, '3º EM - Turma D'));
  expect(graduate.departure).toBe('graduated');
  expect(graduate.deletedAt).not.toBeNull();
  for (const row of rows) expect([row.meritus, row.estelecas]).toEqual([0, 0]);

  const closings = await app.db.select().from(ledgerEntries).where(eq(ledgerEntries.type, 'year_closing'));
  expect(closings.map((row) => [row.fromStudentId, row.currency, row.amount, row.description]).sort()).toEqual(
    [
      [ana.id, 'meritus', 120, 'Encerramento do ano letivo 2026'],
      [bruno.id, 'meritus', 30, 'Encerramento do ano letivo 2026'],
      [carla.id, 'estelecas', 7, 'Encerramento do ano letivo 2026'],
      [diego.id, 'meritus', 500, 'Encerramento do ano letivo 2026'],
    ].sort(),
  );
  expect(await reconcile(app.db)).toEqual([]);
  expect(await figures(app, from, today)).toEqual(before);
  // The graduate's history stays; they cannot sign in, and their open session is gone.
  expect((await app.db.select().from(ledgerEntries).where(eq(ledgerEntries.toStudentId, diego.id))).length).toBe(1);
  const signIn = await app.app.inject({
    method: 'POST',
    url: '/api/auth/student/login',
    payload: { studentId: diego.studentId, password: 'senha-teste-1' },
  });
  expect(signIn.statusCode).toBe(401);
  expect((await app.request('GET', '/auth/me', { cookie: diegoCookie })).statusCode).toBe(401);
  const ranking = await app.request('GET', '/ranking');
  expect(JSON.stringify(ranking.json())).not.toContain(diego.id);
  expect(
    (
      await app.db
        .select()
        .from(studentTags)
        .where(sql`${studentTags.expiresAt} > now()`)
    ).length,
  ).toBe(0);

  // A second apply, with the same key or another, changes nothing.
  const rowsAfter = (await app.db.select().from(ledgerEntries)).length;
  for (const key of ['virada-2026-primeira', 'virada-2026-segunda']) {
    const again = await app.app.inject({
      method: 'POST',
      url: '/api/admin/rollover/apply',
      headers: { cookie: await app.loginAdmin(), 'idempotency-key': key },
      payload: { balances: { meritus: 'close', estelecas: 'close' }, token: seen.token },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().counts).toEqual(seen.counts);
  }
  expect((await app.db.select().from(ledgerEntries)).length).toBe(rowsAfter);
  expect((await app.db.select().from(schoolYearRollovers)).length).toBe(1);
  const periods = (await app.request('GET', '/admin/school-years'))
    .json()
    .years[0].periods.map(({ startDate, endDate }: { startDate: string; endDate: string }) => ({ startDate, endDate }));
  const edit = await app.request('PATCH', `/admin/school-years/${seen.year.id}`, {
    payload: { name: 'Ano letivo 2026', startDate: from, endDate: addDays(today, 31), periodKind: 'bimestre', periods },
  });
  expect(edit.statusCode).toBe(409);
  expect(edit.json().error.code).toBe('school_year_closed');
});

test('a student’s own destination wins over their turma’s; kept balances stay; a leaving student leaves', async () => {
  const { t: app } = await school();
  const [ana, bruno, carla, diego] = app.students as [
    TestApp['students'][number],
    TestApp['students'][number],
    TestApp['students'][number],
    TestApp['students'][number],
  ];
  const turmaA1 = await turmaIdOf(app.db, '1º EM - Turma A');
  const body = {
    mapping: {
      turmas: { [turmaA1]: await turmaIdOf(app.db, '2º EM - Turma A') },
      students: { [carla.id]: carla.turmaId, [bruno.id]: 'left' },
    },
    balances: { meritus: 'keep', estelecas: 'close' },
  };
  const seen = await preview(app, body);
  expect(seen.counts).toMatchObject({
    moving: 1,
    staying: 2,
    graduating: 0,
    leaving: 1,
    balancesClosed: 1,
    meritusClosed: 0,
    estelecasClosed: 7,
  });
  const applied = await app.request('POST', '/admin/rollover/apply', { payload: { ...body, token: seen.token } });
  expect(applied.statusCode, applied.body).toBe(200);
  const rows = await app.db.select().from(students);
  const row = (id: string) => rows.find((candidate) => candidate.id === id)!;
  expect(row(ana.id).turmaId).toBe(await turmaIdOf(app.db, '2º EM - Turma A'));
  expect(row(carla.id).turmaId).toBe(carla.turmaId);
  expect(row(diego.id)).toMatchObject({ turmaId: diego.turmaId, deletedAt: null, meritus: 500 });
  expect(row(bruno.id)).toMatchObject({ departure: 'left', meritus: 30 });
  expect(row(carla.id).estelecas).toBe(0);
  expect(await reconcile(app.db)).toEqual([]);
});

test('a stale token, a concurrent apply, a bad destination and a teacher are refused, and change nothing', async () => {
  const { t: app } = await school();
  const [ana] = app.students as [TestApp['students'][number]];
  const body = { balances: { meritus: 'close', estelecas: 'keep' } };
  const seen = await preview(app, body);
  await app.award(ana.id, 1);
  const stale = await app.request('POST', '/admin/rollover/apply', { payload: { ...body, token: seen.token } });
  expect(stale.statusCode).toBe(409);
  expect(stale.json().error).toMatchObject({ code: 'rollover_stale', message: ERROR_MESSAGES.rollover_stale });

  const bad = await app.request('POST', '/admin/rollover/preview', {
    payload: { ...body, mapping: { turmas: { [ana.turmaId]: '00000000-0000-4000-8000-000000000000' } } },
  });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().error.code).toBe('rollover_destination_invalid');

  const teacher = await addAdmin(app.db, {
    email: 'prof.virada@escola.test',
    name: 'Tânia Professora',
    role: 'teacher',
    turmaIds: [ana.turmaId],
  });
  const teacherCookie = await app.loginAdmin(teacher.email);
  expect((await app.request('POST', '/admin/rollover/preview', { payload: body, cookie: teacherCookie })).statusCode).toBe(403);
  expect((await app.request('POST', '/admin/rollover/apply', { payload: { ...body, token: 'x' }, cookie: teacherCookie })).statusCode).toBe(
    403,
  );

  const fresh = await preview(app, body);
  const [first, second] = await Promise.all([
    app.request('POST', '/admin/rollover/apply', { payload: { ...body, token: fresh.token } }),
    app.request('POST', '/admin/rollover/apply', { payload: { ...body, token: fresh.token } }),
  ]);
  const statuses = [first.statusCode, second.statusCode].sort();
  expect(statuses).toEqual([200, 409]);
  const refused = first.statusCode === 409 ? first : second;
  expect(refused.json().error.code).toBe('rollover_running');
  expect((await app.db.select().from(schoolYearRollovers)).length).toBe(1);
  expect((await app.db.select().from(ledgerEntries).where(eq(ledgerEntries.type, 'year_closing'))).length).toBe(3);
});

test('an apply that fails midway leaves the school exactly as before', async () => {
  const { t: app } = await school();
  const seen = await preview(app);
  const snapshot = async () => ({
    students: await app.db.select().from(students).orderBy(students.id),
    ledger: (await app.db.select().from(ledgerEntries)).length,
    rollovers: (await app.db.select().from(schoolYearRollovers)).length,
    tags: await app.db.select().from(studentTags),
    honours: (await app.db.select().from(hallOfFameHonours)).length,
  });
  const before = await snapshot();
  // The last step of the transaction (its events) fails: everything before it is rolled back.
  const failing: EventBus = {
    ...silentEvents,
    publish: async (_db, event) => {
      if (event.type === 'students') throw new Error('falha simulada no meio da virada');
    },
  };
  const deps: RolloverDeps = {
    db: app.db,
    events: failing,
    config: app.config,
    database: app.database,
    beforeStudentRemoval: async () => {},
  };
  await expect(
    applyRollover(deps, adminActor(app.admin), { balances: { meritus: 'close', estelecas: 'close' }, token: seen.token }),
  ).rejects.toThrow('falha simulada');
  expect(await snapshot()).toEqual(before);
  expect(
    await app.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.type, 'year_closing'))),
  ).toEqual([]);
});
