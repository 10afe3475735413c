import { randomUUID } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { addAdmin, buildTestApp, type TestApp } from '../../test/test-app.ts';
import { auditLog, idempotencyKeys, ledgerEntries, students } from '../../db/schema.ts';
import { reconcile, totalBalances } from './reconciliation.service.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { formatDate } from '../../../shared/format.ts';
import type { LedgerEntryView, LiveOperation, StudentOperation } from '../../../shared/ledger.ts';

/**
 * Corrections by reversal (estorno, decision 025): a compensating row that names the row it
 * takes back, with a reason; who may reverse what; refusals that change nothing; the reversed
 * row marked wherever it is listed. On both databases (on PostgreSQL the race is real).
 */
let t: TestApp;
let coordinator: string;
let teacher: { id: string; cookie: string };
let otherTeacher: { id: string; cookie: string };
let ana: TestApp['students'][number];
let bruno: TestApp['students'][number];

beforeAll(async () => {
  t = await buildTestApp();
  coordinator = await t.loginAdmin();
  [ana, bruno] = t.students as [typeof ana, typeof bruno];
  const turmaIds = [ana.turmaId, bruno.turmaId];
  const prof = await addAdmin(t.db, { email: 'prof.estorno@escola.test', name: 'Paulo Professor', role: 'teacher', turmaIds });
  const other = await addAdmin(t.db, { email: 'outra.estorno@escola.test', name: 'Olga Professora', role: 'teacher', turmaIds });
  teacher = { id: prof.id, cookie: await t.loginAdmin(prof.email) };
  otherTeacher = { id: other.id, cookie: await t.loginAdmin(other.email) };
});
afterAll(async () => t.close());
beforeEach(async () => {
  expect(await reconcile(t.db)).toEqual([]);
});

async function balances(id: string) {
  const [row] = await t.db.select().from(students).where(eq(students.id, id));
  return { meritus: row!.meritus, totalEarned: row!.totalEarned, estelecas: row!.estelecas };
}

/** An operation on one student by `cookie` (the coordination by default); answers the row's id. */
async function operate(
  studentUuid: string,
  payload: { type: string; amount: number; description?: string },
  options: { cookie?: string; currency?: 'meritus' | 'estelecas' } = {},
): Promise<string> {
  const response = await t.request('POST', `/admin/students/${studentUuid}/${options.currency ?? 'meritus'}`, {
    payload: { description: 'Participação em aula', ...payload },
    cookie: options.cookie ?? coordinator,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().entry.id;
}

function reverse(entryId: string, payload: unknown, options: { cookie?: string; key?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/operations/${entryId}/reversal`,
    headers: { cookie: options.cookie ?? coordinator, ...(options.key ? { 'idempotency-key': options.key } : {}) },
    payload: payload as object,
  });
}

async function rowCount(): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(ledgerEntries);
  return row!.n;
}

/** A refusal changes nothing: no row, no balance, no key. */
async function expectRefused(
  response: Awaited<ReturnType<typeof reverse>>,
  status: number,
  message: string,
  unchanged: () => Promise<unknown>,
) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json().error.message).toBe(message);
  expect(await unchanged()).toEqual(await unchanged());
}

describe('reversing an award', () => {
  test('a compensating row that names the award and its reason: balances, total earned and the sum of all balances come back', async () => {
    const before = await balances(ana.id);
    const totalBefore = await totalBalances(t.db);
    const awardId = await operate(ana.id, { type: 'reward', amount: 40, description: 'Feira de ciências' });
    const response = await reverse(awardId, { reason: '  Aluno errado  ' });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      reversedEntryId: awardId,
      message: 'Operação estornada',
      entry: { type: 'reversal', amount: 40, currency: 'meritus', description: 'Estorno: Feira de ciências' },
    });
    expect(await balances(ana.id)).toEqual(before);
    expect(await totalBalances(t.db)).toEqual(totalBefore);
    const [row] = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.id, body.entry.id));
    expect(row).toMatchObject({
      reversesEntryId: awardId,
      reversalReason: 'Aluno errado',
      fromStudentId: ana.id,
      toStudentId: null,
      actorAdminId: t.admin.id,
      actorName: t.admin.name,
    });
    expect((await t.lastAudit('ledger.reversal'))?.details).toMatchObject({ entryId: body.entry.id, reversedEntryId: awardId });
    expect(await reconcile(t.db)).toEqual([]);
  });

  test('a penalty and an Estelecas deduction given back; a bulk award reversed one student at a time', async () => {
    await t.award(ana.id, 30);
    await t.award(ana.id, 5, { currency: 'estelecas' });
    const before = await balances(ana.id);
    const penalty = await operate(ana.id, { type: 'penalty', amount: 12 });
    const deduction = await operate(ana.id, { type: 'admin_remove', amount: 3 }, { currency: 'estelecas' });
    expect((await reverse(penalty, { reason: 'Penalidade indevida' })).statusCode).toBe(201);
    expect((await reverse(deduction, { reason: 'Desconto duplicado' })).statusCode).toBe(201);
    expect(await balances(ana.id)).toEqual(before);

    const bulk = await t.request('POST', '/admin/operations/bulk', {
      payload: { currency: 'meritus', type: 'reward', amount: 7, description: 'Turma exemplar', studentUuids: [ana.id, bruno.id] },
    });
    expect(bulk.statusCode).toBe(201);
    const legs = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.batchId, bulk.json().batchId));
    const brunoLeg = legs.find((leg) => leg.toStudentId === bruno.id)!;
    const anaBefore = await balances(ana.id);
    const brunoBefore = await balances(bruno.id);
    expect((await reverse(brunoLeg.id, { reason: 'Faltou à aula' })).statusCode).toBe(201);
    expect(await balances(ana.id)).toEqual(anaBefore);
    expect((await balances(bruno.id)).meritus).toBe(brunoBefore.meritus - 7);
    expect(await reconcile(t.db)).toEqual([]);
  });

  test("a student's transfer: the coordination gives it back to the sender; a teacher may not", async () => {
    await t.award(ana.id, 50);
    const anaCookie = await t.loginStudent(ana.studentId);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/meritus/transfers',
      headers: { cookie: anaCookie },
      payload: { recipientId: bruno.id, amount: 20 },
    });
    expect(sent.statusCode).toBe(201);
    const transferId = sent.json().entry.id;
    const anaBefore = await balances(ana.id);
    const brunoBefore = await balances(bruno.id);
    await expectRefused(
      await reverse(transferId, { reason: 'Transferência por engano' }, { cookie: teacher.cookie }),
      403,
      'Somente a coordenação pode estornar transferências entre alunos',
      async () => [await balances(ana.id), await balances(bruno.id), await rowCount()],
    );
    const response = await reverse(transferId, { reason: 'Transferência por engano' });
    expect(response.statusCode, response.body).toBe(201);
    expect(await balances(ana.id)).toEqual({ ...anaBefore, meritus: anaBefore.meritus + 20 });
    expect(await balances(bruno.id)).toEqual({ ...brunoBefore, meritus: brunoBefore.meritus - 20 });
    expect(await reconcile(t.db)).toEqual([]);
  });
});

describe('refusals change nothing', () => {
  test('a reason is required; an unknown or malformed operation is not found', async () => {
    const awardId = await operate(ana.id, { type: 'reward', amount: 5 });
    const unchanged = async () => [await balances(ana.id), await rowCount()];
    for (const payload of [{}, { reason: '' }, { reason: '   ' }, { reason: '\u200d' }, { reason: 42 }, null]) {
      await expectRefused(await reverse(awardId, payload), 400, 'Informe o motivo do estorno', unchanged);
    }
    await expectRefused(
      await reverse(awardId, { reason: 'x'.repeat(201) }),
      400,
      'O motivo do estorno deve ter no máximo 200 caracteres',
      unchanged,
    );
    await expectRefused(await reverse(awardId, { reason: 'Engano\u0000' }), 400, ERROR_MESSAGES.invalid_text, unchanged);
    await expectRefused(await reverse(randomUUID(), { reason: 'Engano' }), 404, 'Operação não encontrada', unchanged);
    await expectRefused(await reverse('nao-e-um-id', { reason: 'Engano' }), 404, 'Operação não encontrada', unchanged);
  });

  test('reversing twice is refused, and a reversal cannot be reversed', async () => {
    const awardId = await operate(ana.id, { type: 'reward', amount: 6 });
    const first = await reverse(awardId, { reason: 'Engano' });
    expect(first.statusCode).toBe(201);
    const unchanged = async () => [await balances(ana.id), await rowCount()];
    await expectRefused(await reverse(awardId, { reason: 'De novo' }), 409, 'Esta operação já foi estornada', unchanged);
    await expectRefused(
      await reverse(first.json().entry.id, { reason: 'Desfazer o estorno' }),
      409,
      'Um estorno não pode ser estornado',
      unchanged,
    );
  });

  test("'Saldo insuficiente' when the student no longer holds what they received, naming what is missing", async () => {
    const [carla] = t.students.slice(2);
    const start = (await balances(carla!.id)).meritus;
    const awardId = await operate(carla!.id, { type: 'reward', amount: 30 });
    const carlaCookie = await t.loginStudent(carla!.studentId);
    const spent = await t.app.inject({
      method: 'POST',
      url: '/api/meritus/transfers',
      headers: { cookie: carlaCookie },
      payload: { recipientId: bruno.id, amount: start + 20 },
    });
    expect(spent.statusCode, spent.body).toBe(201);
    const response = await reverse(awardId, { reason: 'Engano' });
    await expectRefused(
      response,
      400,
      'Saldo insuficiente: Carla Dias Ferreira tem 10 M$ e o estorno precisa de 30 M$ (faltam 20 M$).',
      async () => [await balances(carla!.id), await rowCount()],
    );
    expect(response.json().error.code).toBe('insufficient_balance');
    expect(response.json().error.details).toMatchObject({ missing: 20, short: [{ id: carla!.id, balance: 10 }] });
  });

  test('a student may not reverse; the route needs the award permission', async () => {
    const awardId = await operate(ana.id, { type: 'reward', amount: 4 });
    const anaCookie = await t.loginStudent(ana.studentId);
    expect((await reverse(awardId, { reason: 'Engano' }, { cookie: anaCookie })).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/admin/operations/${awardId}/reversal`, payload: { reason: 'x' } })).statusCode,
    ).toBe(401);
  });
});

describe('who may reverse', () => {
  test('a teacher reverses their own award within 24 hours; not a colleague’s, not after 24 hours', async () => {
    const own = await operate(ana.id, { type: 'reward', amount: 8 }, { cookie: teacher.cookie });
    const colleagues = await operate(ana.id, { type: 'reward', amount: 9 }, { cookie: otherTeacher.cookie });
    const coordination = await operate(ana.id, { type: 'reward', amount: 10 });
    const old = await operate(ana.id, { type: 'reward', amount: 11 }, { cookie: teacher.cookie });
    await t.db.execute(sql`UPDATE ledger_entries SET created_at = now() - interval '25 hours' WHERE id = ${old}`);
    const unchanged = async () => [await balances(ana.id), await rowCount()];
    const notOwn = 'Você só pode estornar operações feitas por você nas últimas 24 horas';
    for (const id of [colleagues, coordination, old]) {
      await expectRefused(await reverse(id, { reason: 'Engano' }, { cookie: teacher.cookie }), 403, notOwn, unchanged);
    }
    expect((await reverse(own, { reason: 'Engano' }, { cookie: teacher.cookie })).statusCode).toBe(201);
    // The coordination reverses anything, however old and whoever made it.
    expect((await reverse(old, { reason: 'Engano antigo' })).statusCode).toBe(201);
    expect((await reverse(colleagues, { reason: 'Engano da colega' })).statusCode).toBe(201);
    expect(await reconcile(t.db)).toEqual([]);
  });
});

describe('at once and again', () => {
  test('two reversals of one award at once: exactly one passes, the other is refused', async () => {
    for (let round = 0; round < 5; round++) {
      const awardId = await operate(ana.id, { type: 'reward', amount: 3 });
      const before = await balances(ana.id);
      const responses = await Promise.all([
        reverse(awardId, { reason: 'Engano A' }),
        reverse(awardId, { reason: 'Engano B' }, { key: randomUUID() }),
      ]);
      expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      const [reversals] = await t.db.select({ n: count() }).from(ledgerEntries).where(eq(ledgerEntries.reversesEntryId, awardId));
      expect(reversals!.n).toBe(1);
      expect((await balances(ana.id)).meritus).toBe(before.meritus - 3);
    }
    expect(await reconcile(t.db)).toEqual([]);
  });

  test('an Idempotency-Key repeats the answer once; the same key for another reason is a conflict', async () => {
    const awardId = await operate(ana.id, { type: 'reward', amount: 2 });
    const key = randomUUID();
    const first = await reverse(awardId, { reason: 'Engano' }, { key });
    const again = await reverse(awardId, { reason: 'Engano' }, { key });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect((await reverse(awardId, { reason: 'Outro' }, { key })).statusCode).toBe(409);
    const [stored] = await t.db.select({ n: count() }).from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(stored!.n).toBe(1);
  });
});

describe('the reversed row, wherever it is listed', () => {
  test('history, live feed, recent M$, Estelecas history and the student’s own screens carry the reversal', async () => {
    const awardId = await operate(bruno.id, { type: 'reward', amount: 15, description: 'Monitoria' });
    const estelecasId = await operate(bruno.id, { type: 'admin_add', amount: 2, description: 'Gincana' }, { currency: 'estelecas' });
    const reversal = (await reverse(awardId, { reason: 'Aluno errado' })).json();
    expect((await reverse(estelecasId, { reason: 'Gincana cancelada' })).statusCode).toBe(201);
    const note = { by: t.admin.name, reason: 'Aluno errado', at: reversal.entry.createdAt };

    const feed: LiveOperation[] = (await t.request('GET', '/admin/operations')).json();
    expect(feed.find((line) => line.id === awardId)).toMatchObject({ reversedBy: note, actorAdminId: t.admin.id });
    expect(feed.find((line) => line.id === reversal.entry.id)).toMatchObject({
      type: 'reversal',
      category: 'reversal',
      description: 'Estorno: Monitoria',
      reversesEntryId: awardId,
      reversedBy: null,
    });
    const recent: LedgerEntryView[] = (await t.request('GET', '/admin/meritus/recent')).json();
    expect(recent.find((row) => row.id === awardId)).toMatchObject({ reversedBy: note });
    const estelecas: LedgerEntryView[] = (await t.request('GET', '/admin/estelecas/history')).json();
    expect(estelecas.find((row) => row.id === estelecasId)?.reversedBy).toMatchObject({ reason: 'Gincana cancelada' });

    const brunoCookie = await t.loginStudent(bruno.studentId);
    const mine: StudentOperation[] = (await t.request('GET', '/me/transactions', { cookie: brunoCookie })).json();
    expect(mine.find((row) => row.id === awardId)).toMatchObject({ reversedBy: note, signedAmount: 15 });
    expect(mine.find((row) => row.id === reversal.entry.id)).toMatchObject({
      kind: 'reversal',
      signedAmount: -15,
      reversesEntryId: awardId,
    });
    const page = (await t.request('GET', '/me/operations?currency=estelecas', { cookie: brunoCookie })).json();
    expect(page.items.find((row: StudentOperation) => row.id === estelecasId)?.reversedBy).toMatchObject({ reason: 'Gincana cancelada' });
  });

  test("the ledger's CSV export, the student's statement and the dashboard's awards of the month", async () => {
    const dashboard = async () =>
      (await t.request('GET', '/admin/dashboard')).json().goals.find((goal: { id: string }) => goal.id === 'monthly_awarded').current;
    const before = await dashboard();
    const awardId = await operate(bruno.id, { type: 'reward', amount: 13, description: 'Redação premiada' });
    const reversal = (await reverse(awardId, { reason: 'Redação de outro aluno' })).json();
    expect(await dashboard()).toEqual(before);
    const csv = (await t.request('GET', '/admin/ledger/export.csv')).body;
    const day = formatDate(reversal.entry.createdAt);
    expect(csv).toContain(`Estornada em ${day} por ${t.admin.name}: Redação de outro aluno`);
    expect(csv).toContain('Estorno: Redação premiada');
    expect(csv).toContain('Motivo: Redação de outro aluno');
  });

  test('the reversal is recorded in the audit log; nothing is deleted from the ledger', async () => {
    const before = await rowCount();
    const awardId = await operate(ana.id, { type: 'reward', amount: 1 });
    expect((await reverse(awardId, { reason: 'Engano' })).statusCode).toBe(201);
    expect(await rowCount()).toBe(before + 2);
    const [audit] = await t.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, 'ledger.reversal'));
    expect(audit!.n).toBeGreaterThan(0);
  });
});

describe('in the reports', () => {
  test('a reversal is its own line; the reversed award leaves the awards, the timeline and its reason', async () => {
    const read = async () => {
      const overview = (await t.request('GET', '/admin/reports/overview?period=today')).json();
      const timeline = (await t.request('GET', '/admin/reports/timeline?period=today')).json();
      const reasons = (await t.request('GET', '/admin/reports/reasons?period=today')).json();
      return {
        awarded: overview.figures.meritusAwarded.current,
        reversed: overview.figures.meritusReversed.current,
        estelecasReversed: overview.figures.estelecasReversed.current,
        timeline: timeline.points.at(-1).awarded,
        reason: reasons.awards.find((row: { description: string }) => row.description === 'Olimpíada de matemática')?.operations ?? 0,
      };
    };
    const before = await read();
    const awardId = await operate(bruno.id, { type: 'reward', amount: 25, description: 'Olimpíada de matemática' });
    const awarded = await read();
    expect(awarded).toEqual({ ...before, awarded: before.awarded + 25, timeline: before.timeline + 25, reason: before.reason + 1 });
    expect((await reverse(awardId, { reason: 'Nota lançada errada' })).statusCode).toBe(201);
    expect(await read()).toEqual({ ...before, reversed: before.reversed + 25 });
    const csv = (await t.request('GET', '/admin/reports/export?period=today&table=figures&format=csv')).body;
    expect(csv).toContain('Méritus estornados');
  });
});
