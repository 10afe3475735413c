import { randomUUID } from 'node:crypto';
import { and, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addStudents, buildTestApp, type TestApp, type TestStudent } from '../../test/test-app.ts';
import { auditLog, ledgerEntries, students } from '../../db/schema.ts';
import type { LedgerEntryView, LiveOperation } from '../../../shared/ledger.ts';
import type { PublicStudent } from '../../../shared/auth.ts';

/**
 * The rules the teacher's screens stand on, through the HTTP API: a whole turma awarded
 * or penalised at once, the recent-operations panel, the Estelecas screen and the live feed.
 */
let t: TestApp;
let adminCookie: string;
let turma: TestStudent[];
const TURMA = '2º EM - Turma C';

beforeAll(async () => {
  t = await buildTestApp();
  adminCookie = await t.loginAdmin();
  turma = await addStudents(
    t.db,
    ['Gabriel', 'Helena', 'Igor', 'Júlia', 'Kauã'].map((name, index) => ({
      studentId: `400000${index}`,
      name: `${name} Turma C`,
      grade: TURMA,
    })),
  );
});
afterAll(async () => t.close());

function admin(method: 'GET' | 'POST', url: string, payload?: object, key?: string) {
  return t.app.inject({
    method,
    url,
    headers: { cookie: adminCookie, ...(key ? { 'idempotency-key': key } : {}) },
    ...(payload ? { payload } : {}),
  });
}

async function give(student: { id: string }, amount: number, currency: 'meritus' | 'estelecas' = 'meritus', description = 'Saldo inicial') {
  const response = await admin('POST', `/api/admin/students/${student.id}/${currency}`, { type: 'admin_add', amount, description });
  expect(response.statusCode).toBe(201);
}

async function rowsOf(ids: string[]) {
  return t.db.select().from(students).where(inArray(students.id, ids));
}

async function ledgerCount() {
  return (await t.db.select({ id: ledgerEntries.id }).from(ledgerEntries)).length;
}

describe('a whole turma at once', () => {
  test('a penalty one student cannot pay changes nobody, and the refusal shows as failed in the live feed', async () => {
    const ids = turma.map((s) => s.id);
    for (const student of turma.slice(0, 4)) await give(student, 20);
    await give(turma[4]!, 3);
    const before = await rowsOf(ids);
    const rows = await ledgerCount();

    const refused = await admin('POST', '/api/admin/operations/bulk', {
      currency: 'meritus',
      studentUuids: ids,
      type: 'penalty',
      amount: 5,
      description: 'Bagunça na excursão',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe('Não é possível remover mais Méritus do que o estudante possui');
    expect(await ledgerCount()).toBe(rows);
    expect(await rowsOf(ids)).toEqual(before);

    const feed: LiveOperation[] = (await admin('GET', '/api/admin/operations')).json();
    expect(feed[0]).toMatchObject({
      status: 'failed',
      category: 'deduction',
      operator: 'admin',
      amount: 5,
      description: 'Bagunça na excursão',
      reason: 'Não é possível remover mais Méritus do que o estudante possui',
      actorName: t.admin.name,
    });
  });

  test('an award reaches every student: one ledger row each, one batch, one key, audited with who did it', async () => {
    const ids = turma.map((s) => s.id);
    const before = new Map((await rowsOf(ids)).map((row) => [row.id, row]));
    const key = randomUUID();
    const payload = { currency: 'meritus', studentUuids: ids, type: 'reward', amount: 10, description: 'Feira de ciências' };
    const response = await admin('POST', '/api/admin/operations/bulk', payload, key);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ count: 5, message: '10 M$ concedidos a 5 estudantes' });

    const entries = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.batchId, response.json().batchId));
    expect(entries.map((e) => e.toStudentId).sort()).toEqual([...ids].sort());
    expect(entries.every((e) => e.amount === 10 && e.type === 'reward' && e.actorAdminId === t.admin.id)).toBe(true);
    for (const row of await rowsOf(ids)) {
      expect(row.meritus).toBe(before.get(row.id)!.meritus + 10);
      expect(row.totalEarned).toBe(before.get(row.id)!.totalEarned + 10);
    }
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'ledger.bulk.reward'), eq(auditLog.actorId, t.admin.id)));
    expect(audit).toMatchObject({ actorKind: 'admin', actorLabel: t.admin.name });
    expect(audit!.details).toMatchObject({ count: 5, amount: 10 });

    // the same submission sent again (a retry) changes nothing and answers the same
    const rows = await ledgerCount();
    const again = await admin('POST', '/api/admin/operations/bulk', payload, key);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(response.json());
    expect(await ledgerCount()).toBe(rows);
  });

  test('a turma with a removed student is refused whole', async () => {
    const [gone] = await addStudents(t.db, [{ studentId: '4000099', name: 'Aluno Transferido', grade: TURMA }]);
    await t.db.update(students).set({ deletedAt: new Date() }).where(eq(students.id, gone!.id));
    const ids = [...turma.map((s) => s.id), gone!.id];
    const before = await rowsOf(ids);
    const rows = await ledgerCount();
    const response = await admin('POST', '/api/admin/operations/bulk', {
      currency: 'meritus',
      studentUuids: ids,
      type: 'admin_add',
      amount: 1,
      description: 'Presença',
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe('Estudante não encontrado');
    expect(await ledgerCount()).toBe(rows);
    expect(await rowsOf(ids)).toEqual(before);
  });

  test.each([
    [{ studentUuids: [] }, 'Preencha todos os campos'],
    [{ description: '  ' }, 'Preencha todos os campos'],
    [{ amount: 0 }, 'O valor deve ser maior que zero'],
  ])('refuses %j with "%s"', async (change, message) => {
    const rows = await ledgerCount();
    const response = await admin('POST', '/api/admin/operations/bulk', {
      currency: 'meritus',
      studentUuids: turma.map((s) => s.id),
      type: 'admin_add',
      amount: 5,
      description: 'Presença',
      ...change,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(message);
    expect(await ledgerCount()).toBe(rows);
  });
});

describe('Gerenciar M$: recent operations', () => {
  test('the panel lists the last 10 administrator operations on Méritus, newest first, with the student and who did it', async () => {
    const [ana, bruno] = t.students as [TestStudent, TestStudent];
    await give(ana, 50);
    for (let i = 1; i <= 12; i++) await give(bruno, i, 'meritus', `Recente ${i}`);
    await give(bruno, 3, 'estelecas', 'Estelecas não entram');
    const anaCookie = await t.loginStudent(ana.studentId);
    const transfer = await t.app.inject({
      method: 'POST',
      url: '/api/meritus/transfers',
      headers: { cookie: anaCookie },
      payload: { recipientId: bruno.id, amount: 5 },
    });
    expect(transfer.statusCode).toBe(201);

    const recent: LedgerEntryView[] = (await admin('GET', '/api/admin/meritus/recent')).json();
    expect(recent).toHaveLength(10);
    expect(recent.map((e) => e.description)).toEqual(Array.from({ length: 10 }, (_, i) => `Recente ${12 - i}`));
    expect(recent[0]).toMatchObject({ currency: 'meritus', type: 'admin_add', amount: 12, actorName: t.admin.name, from: null });
    expect(recent[0]!.to).toMatchObject({ id: bruno.id, studentId: bruno.studentId, name: bruno.name });
  });
});

describe('Estelecas screen', () => {
  test('top 10 by Estelecas, highest first, without students who have none or were removed', async () => {
    const group = await addStudents(
      t.db,
      Array.from({ length: 12 }, (_, i) => ({
        studentId: `50000${String(i).padStart(2, '0')}`,
        name: `Estrela ${String(i).padStart(2, '0')}`,
      })),
    );
    for (const [index, student] of group.entries()) await give(student, 100 + index, 'estelecas', 'Olimpíada');
    await t.db.update(students).set({ deletedAt: new Date() }).where(eq(students.id, group[11]!.id));

    const top: PublicStudent[] = (await admin('GET', '/api/admin/estelecas/ranking')).json();
    expect(top).toHaveLength(10);
    expect(top.map((s) => s.estelecas)).toEqual([110, 109, 108, 107, 106, 105, 104, 103, 102, 101]);
    expect(top.some((s) => s.id === group[11]!.id)).toBe(false);
  });

  test('history: the latest 50, newest first, transfers with both parties', async () => {
    const history: LedgerEntryView[] = (await admin('GET', '/api/admin/estelecas/history?limit=50')).json();
    expect(history.length).toBeLessThanOrEqual(50);
    const created = history.map((e) => e.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    expect(history.every((e) => e.currency === 'estelecas')).toBe(true);

    const [giver, taker] = await t.db.select().from(students).where(like(students.name, 'Estrela 0%')).limit(2);
    const cookie = await t.loginStudent(giver!.studentId);
    const transfer = await t.app.inject({
      method: 'POST',
      url: '/api/estelecas/transfers',
      headers: { cookie },
      payload: { recipientId: taker!.id, amount: 2 },
    });
    expect(transfer.statusCode).toBe(201);
    const [latest] = (await admin('GET', '/api/admin/estelecas/history?limit=50')).json() as LedgerEntryView[];
    expect(latest).toMatchObject({ type: 'transfer', amount: 2, actorKind: 'student' });
    expect(latest!.from).toMatchObject({ id: giver!.id, name: giver!.name });
    expect(latest!.to).toMatchObject({ id: taker!.id, name: taker!.name });
  });

  test.each([
    [{ type: 'admin_add', amount: 2 }, 'Preencha todos os campos'],
    [{ type: 'admin_add', description: 'Olimpíada' }, 'Preencha todos os campos'],
    [{ amount: 2, description: 'Olimpíada' }, 'Preencha todos os campos'],
    [{ type: 'admin_add', amount: 0, description: 'Olimpíada' }, 'Preencha todos os campos'],
    [{ type: 'admin_remove', amount: 1_000, description: 'Correção' }, 'Não é possível remover mais Estelecas do que o estudante possui'],
  ])('the add and remove dialogs: %j → "%s", nothing written', async (payload, message) => {
    const rows = await ledgerCount();
    const response = await admin('POST', `/api/admin/students/${t.students[2]!.id}/estelecas`, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(message);
    expect(await ledgerCount()).toBe(rows);
  });

  test('success messages name the student', async () => {
    const carla = t.students[2]!;
    const add = await admin('POST', `/api/admin/students/${carla.id}/estelecas`, {
      type: 'reward',
      amount: 3,
      description: 'Redação destaque',
    });
    expect(add.json().message).toBe(`3 Estelecas adicionadas a ${carla.name}`);
    const remove = await admin('POST', `/api/admin/students/${carla.id}/estelecas`, { type: 'penalty', amount: 2, description: 'Atraso' });
    expect(remove.json().message).toBe(`2 Estelecas removidas de ${carla.name}`);
  });
});

describe('Operações em Tempo Real', () => {
  test('each operation is classified (award, deduction, student_transfer) with its operator, parties and status, newest first', async () => {
    const [ana, bruno] = t.students as [TestStudent, TestStudent];
    const tag = randomUUID().slice(0, 6);
    await give(ana, 30, 'meritus', `Prêmio ${tag}`);
    await admin('POST', `/api/admin/students/${ana.id}/meritus`, { type: 'penalty', amount: 4, description: `Multa ${tag}` });
    const anaCookie = await t.loginStudent(ana.studentId);
    await t.app.inject({
      method: 'POST',
      url: '/api/meritus/transfers',
      headers: { cookie: anaCookie },
      payload: { recipientId: bruno.id, amount: 6, description: `Ajuda ${tag}` },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/meritus/transfers',
      headers: { cookie: anaCookie },
      payload: { recipientId: bruno.id, amount: 99_999, description: `Sem saldo ${tag}` },
    });

    const feed: LiveOperation[] = (await admin('GET', '/api/admin/operations?limit=100')).json();
    const mine = feed.filter((op) => op.description.endsWith(tag));
    expect(mine.map((op) => [op.description, op.category, op.operator, op.status])).toEqual([
      [`Sem saldo ${tag}`, 'student_transfer', 'student', 'failed'],
      [`Ajuda ${tag}`, 'student_transfer', 'student', 'completed'],
      [`Multa ${tag}`, 'deduction', 'admin', 'completed'],
      [`Prêmio ${tag}`, 'award', 'admin', 'completed'],
    ]);
    expect(mine[0]!.reason).toBe('Saldo insuficiente');
    expect(mine[1]!.from).toMatchObject({ studentId: ana.studentId, name: ana.name });
    expect(mine[1]!.to).toMatchObject({ studentId: bruno.studentId, name: bruno.name });
    expect(mine[2]!.from).toMatchObject({ studentId: ana.studentId });
    expect(mine[3]!.to).toMatchObject({ studentId: ana.studentId });
    expect(feed.map((op) => op.createdAt)).toEqual([...feed.map((op) => op.createdAt)].sort().reverse());
    expect(feed.length).toBeLessThanOrEqual(100);
    expect((await admin('GET', '/api/admin/operations?limit=3')).json()).toHaveLength(3);
  });

  test('students cannot read the feed', async () => {
    const cookie = await t.loginStudent(t.students[0]!.studentId);
    expect((await t.app.inject({ url: '/api/admin/operations', headers: { cookie } })).statusCode).toBe(403);
  });
});
