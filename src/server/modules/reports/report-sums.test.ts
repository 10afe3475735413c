import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addStudents, buildTestApp, pendingSumRows, turmaIdOf, type TestApp } from '../../test/test-app.ts';
import { rowsOf } from '../../db/client.ts';
import { ledgerEntries, students } from '../../db/schema.ts';
import { GRADES } from '../../../shared/constants.ts';
import { foldPendingSums, NO_SUMS } from './reports.queries.ts';

/**
 * The reports' sums (decision 011) against the ledger they come from, recomputed here in
 * TypeScript from every ledger row after writes of every kind: the ledger's functions at once,
 * rows in the past, a DELETE, a student changing turma.
 */
const onPostgres = process.env.TEST_DB === 'postgres';
let t: TestApp;
afterAll(async () => t.close());
beforeAll(async () => {
  t = await buildTestApp();
});

type LedgerRow = {
  id: string;
  reverses: string | null;
  currency: string;
  type: string;
  amount: number;
  description: string;
  from: string | null;
  to: string | null;
  at: Date | string;
};
const utcDay = (at: Date | string) => new Date(at).toISOString().slice(0, 10);

/** Both tables as the ledger says they should be, and as they are, in the same shape. */
async function expectSumsToMatchLedger() {
  await foldPendingSums(t.db, { wait: true });
  const ledger = rowsOf<LedgerRow>(
    await t.db.execute(
      sql`SELECT id, reverses_entry_id AS reverses, currency, type, amount, description, from_student_id AS "from",
                 to_student_id AS "to", created_at AS at FROM ledger_entries`,
    ),
  );
  // A reversal counts as the row it takes back with sign -1, on its own date (decision 025).
  const byId = new Map(ledger.map((row) => [row.id, row]));
  const counted = ledger.map((row) => {
    const reversed = row.reverses ? byId.get(row.reverses)! : null;
    return reversed ? { ...reversed, at: row.at, sign: -1 } : { ...row, sign: 1 };
  });
  const turmas = new Map(
    rowsOf<{ id: string; turma_id: string }>(await t.db.execute(sql`SELECT id, turma_id FROM students`)).map((s) => [s.id, s.turma_id]),
  );

  const perDay = new Map<string, Record<string, number>>();
  const add = (student: string, day: string, column: string, amount: number) => {
    const key = `${student} ${day}`;
    const sums: Record<string, number> = perDay.get(key) ?? { ...NO_SUMS };
    sums[column]! += amount;
    perDay.set(key, sums);
  };
  const turmaDays = new Map<string, { m_awarded: number; m_removed: number; m_transferred: number; m_spent: number }>();
  const reasons = new Map<string, { ops: number; meritus: number; estelecas: number }>();
  // The Loja's rows (decision 026) are spent, a refund giving it back: never awards, removals or reasons.
  const spending = (type: string) => (type === 'purchase' || type === 'contribution' ? 1 : type === 'refund' ? -1 : 0);
  for (const row of counted) {
    const spent = spending(row.type);
    if (row.type !== 'transfer' && spent === 0) {
      const kind = row.type === 'admin_add' || row.type === 'reward' ? 'award' : 'penalty';
      for (const [span, start] of [
        ['d', utcDay(row.at)],
        ['m', `${utcDay(row.at).slice(0, 7)}-01`],
      ] as const) {
        const key = `${span} ${start} ${turmas.get((row.from ?? row.to)!)} ${kind} ${row.description.trim()}`;
        const sums = reasons.get(key) ?? { ops: 0, meritus: 0, estelecas: 0 };
        sums.ops += row.sign;
        sums[row.currency as 'meritus' | 'estelecas'] += row.sign * row.amount;
        reasons.set(key, sums);
      }
    }
    const day = utcDay(row.at);
    const prefix = row.currency === 'meritus' ? 'm' : 'e';
    const transfer = row.type === 'transfer';
    const amount = row.sign * row.amount;
    if (row.to) {
      add(row.to, day, spent !== 0 ? `${prefix}_spent` : `${prefix}_${transfer ? 'in' : 'awarded'}`, spent !== 0 ? spent * amount : amount);
      add(row.to, day, 'ops', row.sign);
    }
    if (row.from) {
      add(
        row.from,
        day,
        spent !== 0 ? `${prefix}_spent` : `${prefix}_${transfer ? 'out' : 'removed'}`,
        spent !== 0 ? spent * amount : amount,
      );
      add(row.from, day, 'ops', row.sign);
      if (transfer) add(row.from, day, 'sent_ops', row.sign);
    }
    if (row.currency === 'meritus') {
      const key = `${turmas.get((row.from ?? row.to)!)} ${day}`;
      const sums = turmaDays.get(key) ?? { m_awarded: 0, m_removed: 0, m_transferred: 0, m_spent: 0 };
      if (transfer) sums.m_transferred += amount;
      else if (spent !== 0) sums.m_spent += spent * amount;
      else if (row.type === 'admin_add' || row.type === 'reward') sums.m_awarded += amount;
      else sums.m_removed += amount;
      turmaDays.set(key, sums);
    }
  }
  // Every day with rows is stored, and each stored day holds the student's sums from the
  // beginning through that day (a day whose rows were all deleted may stay: it still does).
  const zero = { ...NO_SUMS };
  const through = (student: string, day: string) => {
    const total: Record<string, number> = { ...zero };
    for (const [key, sums] of perDay) {
      const [owner, rowDay] = key.split(' ');
      if (owner === student && rowDay! <= day) for (const [column, value] of Object.entries(sums)) total[column]! += value;
    }
    return total;
  };
  const stored = rowsOf<Record<string, unknown>>(await t.db.execute(sql`SELECT * FROM ledger_student_days`)).map(
    ({ student_id, day, ...sums }) => ({
      key: `${String(student_id)} ${typeof day === 'string' ? day : utcDay(day as Date)}`,
      sums: Object.fromEntries(Object.entries(sums).map(([column, value]) => [column, Number(value)])),
    }),
  );
  expect(stored.map((row) => row.key)).toEqual(expect.arrayContaining([...perDay.keys()]));
  for (const row of stored) {
    const [student, day] = row.key.split(' ');
    expect(row.sums, row.key).toEqual(through(student!, day!));
  }

  const turmaStored = rowsOf<{
    turma_id: string;
    day: string | Date;
    m_awarded: unknown;
    m_removed: unknown;
    m_transferred: unknown;
    m_spent: unknown;
  }>(
    await t.db.execute(sql`
      SELECT turma_id, day, sum(m_awarded) AS m_awarded, sum(m_removed) AS m_removed, sum(m_transferred) AS m_transferred,
             sum(m_spent) AS m_spent
        FROM ledger_turma_days GROUP BY turma_id, day
      HAVING sum(m_awarded) <> 0 OR sum(m_removed) <> 0 OR sum(m_transferred) <> 0 OR sum(m_spent) <> 0`),
  );
  expect(
    Object.fromEntries(
      turmaStored.map((row) => [
        `${row.turma_id} ${typeof row.day === 'string' ? row.day : utcDay(row.day)}`,
        {
          m_awarded: Number(row.m_awarded),
          m_removed: Number(row.m_removed),
          m_transferred: Number(row.m_transferred),
          m_spent: Number(row.m_spent),
        },
      ]),
    ),
  ).toEqual(Object.fromEntries([...turmaDays].filter(([, sums]) => Object.values(sums).some((value) => value !== 0))));

  const reasonRows = rowsOf<{
    span: string;
    start: string | Date;
    turma_id: string;
    kind: string;
    description: string;
    ops: unknown;
    meritus: unknown;
    estelecas: unknown;
  }>(await t.db.execute(sql`SELECT * FROM ledger_reason_sums WHERE ops <> 0 OR meritus <> 0 OR estelecas <> 0`));
  expect(
    Object.fromEntries(
      reasonRows.map((row) => [
        `${row.span} ${typeof row.start === 'string' ? row.start : utcDay(row.start)} ${row.turma_id} ${row.kind} ${row.description}`,
        { ops: Number(row.ops), meritus: Number(row.meritus), estelecas: Number(row.estelecas) },
      ]),
    ),
  ).toEqual(Object.fromEntries(reasons));
}

const transfer = (cookie: string, recipientId: string, amount: number) =>
  t.app.inject({
    method: 'POST',
    url: '/api/meritus/transfers',
    headers: { cookie, 'idempotency-key': randomUUID() },
    payload: { recipientId, amount },
  });

test('the sums follow the ledger through simultaneous transfers, rows in the past, a deletion and a change of turma', async () => {
  const [ana, bia, caio] = await addStudents(t.db, [
    { studentId: '6100001', name: 'Ana Sums', grade: GRADES[0] },
    { studentId: '6100002', name: 'Bia Sums', grade: GRADES[0] },
    { studentId: '6100003', name: 'Caio Sums', grade: GRADES[3] },
  ]);
  for (const student of [ana!, bia!, caio!]) await t.award(student.id, 200);
  await expectSumsToMatchLedger();

  // Transfers at once through the ledger's function (on PostgreSQL, really in parallel).
  const cookies = new Map<string, string>();
  for (const student of [ana!, bia!, caio!]) cookies.set(student.id, await t.loginStudent(student.studentId));
  const pairs = [
    [ana!, bia!],
    [bia!, caio!],
    [caio!, ana!],
  ] as const;
  const responses = await Promise.all(
    Array.from({ length: 30 }, (_, i) => {
      const [from, to] = pairs[i % 3]!;
      return transfer(cookies.get(from.id)!, to.id, 1 + (i % 7));
    }),
  );
  expect(responses.filter((response) => response.statusCode === 201).length).toBeGreaterThan(0);
  await expectSumsToMatchLedger();

  // Rows written in the past, before days already stored, in one statement and in two.
  const day = (iso: string) => new Date(iso);
  const past = (at: string, values: Partial<typeof ledgerEntries.$inferInsert>) => ({
    currency: 'meritus' as const,
    type: 'admin_add' as const,
    amount: 10,
    description: ' Carga antiga ',
    actorKind: 'admin' as const,
    actorName: 'Teste',
    createdAt: day(at),
    ...values,
  });
  await t.db
    .insert(ledgerEntries)
    .values([
      past('2026-01-10T23:30:00Z', { toStudentId: ana!.id, amount: 7 }),
      past('2026-01-11T00:30:00Z', { toStudentId: ana!.id, amount: 11, currency: 'estelecas' }),
      past('2026-01-11T12:00:00Z', { type: 'penalty', fromStudentId: caio!.id, amount: 3 }),
      past('2026-01-12T02:00:00Z', { type: 'transfer', fromStudentId: bia!.id, toStudentId: caio!.id, amount: 5, actorKind: 'student' }),
    ]);
  await t.db
    .insert(ledgerEntries)
    .values([
      past('2025-12-31T20:00:00Z', { toStudentId: bia!.id, amount: 13 }),
      past('2026-01-20T09:00:00Z', { type: 'admin_remove', fromStudentId: ana!.id, amount: 2 }),
    ]);
  await expectSumsToMatchLedger();

  // The Loja's rows (decision 026): purchases and contributions spent, a refund giving one back, in both currencies,
  // one of them in the past; each is spending, never an award, a removal or a reason.
  await t.db.insert(ledgerEntries).values([
    past('2026-01-11T13:00:00Z', {
      type: 'purchase',
      fromStudentId: ana!.id,
      amount: 4,
      description: 'Compra: Caneta',
      actorKind: 'student',
    }),
    past('2026-01-12T13:00:00Z', { type: 'refund', toStudentId: ana!.id, amount: 4, description: 'Devolução: Caneta' }),
    past('2026-01-12T14:00:00Z', { type: 'contribution', fromStudentId: bia!.id, amount: 6, currency: 'estelecas', description: 'Meta' }),
  ]);
  await t.db.insert(ledgerEntries).values([
    past(new Date().toISOString(), {
      type: 'purchase',
      fromStudentId: caio!.id,
      amount: 9,
      description: 'Compra: Fone',
      actorKind: 'student',
    }),
    past(new Date().toISOString(), { type: 'contribution', fromStudentId: bia!.id, amount: 5, description: 'Meta: Cinema' }),
  ]);
  await expectSumsToMatchLedger();

  // A correction's DELETE takes its rows out of the sums.
  await t.db.delete(ledgerEntries).where(and(eq(ledgerEntries.fromStudentId, caio!.id), eq(ledgerEntries.type, 'penalty')));
  await expectSumsToMatchLedger();

  // Reversals (decision 025) of an award, a penalty and a transfer take their rows back on their own day,
  // one of them of a row written in the past; a reversal deleted by a correction gives it back.
  const reversed = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.toStudentId, bia!.id));
  await t.award(bia!.id, 500);
  const reversible = [
    reversed.find((row) => row.type === 'admin_add')!,
    reversed.find((row) => row.type === 'transfer')!,
    (await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.type, 'admin_remove')))[0]!,
  ];
  const reversalIds: string[] = [];
  for (const row of reversible) {
    const response = await t.request('POST', `/admin/operations/${row.id}/reversal`, { payload: { reason: 'Correção' } });
    expect(response.statusCode, response.body).toBe(201);
    reversalIds.push(response.json().entry.id);
  }
  await expectSumsToMatchLedger();
  await t.db.delete(ledgerEntries).where(eq(ledgerEntries.id, reversalIds[0]!));
  await expectSumsToMatchLedger();

  // A student who changes turma takes their rows along (reversals counted as the rows they take back).
  await t.db
    .update(students)
    .set({ turmaId: await turmaIdOf(t.db, GRADES[5]) })
    .where(eq(students.id, bia!.id));
  await expectSumsToMatchLedger();

  // Rows still queued when their student changes turma: moved with the others, added later in the turma they were written in.
  for (const amount of [4, 6]) await transfer(cookies.get(bia!.id)!, ana!.id, amount);
  await t.award(bia!.id, 9);
  expect(await pendingSumRows(t.db)).toBeGreaterThan(0);
  await t.db
    .update(students)
    .set({ turmaId: await turmaIdOf(t.db, GRADES[8]) })
    .where(eq(students.id, bia!.id));
  await expectSumsToMatchLedger();
  expect(await pendingSumRows(t.db)).toBe(0);

  // A renamed turma keeps its sums as they are: they name the turma by its id.
  const sums = async () => [
    rowsOf(await t.db.execute(sql`SELECT * FROM ledger_turma_days ORDER BY turma_id, day, slot`)),
    rowsOf(await t.db.execute(sql`SELECT * FROM ledger_reason_sums ORDER BY span, start, turma_id, kind, description`)),
  ];
  const before = await sums();
  const turmaId = await turmaIdOf(t.db, GRADES[8]);
  for (const name of ['3º EM - Turma Bê', GRADES[8]]) {
    expect((await t.request('PATCH', `/admin/turmas/${turmaId}`, { payload: { name } })).statusCode).toBe(200);
    expect(await sums()).toEqual(before);
  }
});

test.skipIf(!onPostgres)(
  'a transfer does not wait for another of the same turma still in its transaction (PGlite: one connection, nothing runs at once)',
  async () => {
    const turma = GRADES[7];
    const candidates = await addStudents(
      t.db,
      Array.from({ length: 8 }, (_, i) => ({ studentId: String(6200001 + i), name: `Aluna Turma ${i}`, grade: turma })),
    );
    const slots = rowsOf<{ id: string; slot: number }>(
      await t.db.execute(sql`SELECT id, ledger_student_slot(id) AS slot FROM students WHERE turma_id = ${candidates[0]!.turmaId}`),
    );
    const held = slots[0]!;
    const other = slots.find((row) => row.slot !== held.slot);
    if (!other) throw new Error('eight students of one turma all fell in one slot');
    const [ana, bruno] = t.students;
    for (const id of [held.id, other.id]) await t.award(id, 50);
    const otherStudent = candidates.find((student) => student.id === other.id)!;
    const cookie = await t.loginStudent(otherStudent.studentId);

    await t.db.transaction(async (tx) => {
      const payload = {
        currency: 'meritus',
        senderId: held.id,
        recipientId: ana!.id,
        amount: 5,
        descriptionTemplate: '%1$s → %2$s',
        messageTemplate: '%1$s',
        status: 201,
      };
      await tx.execute(sql`SELECT ledger_transfer(${JSON.stringify(payload)}::jsonb)`);
      // The first transfer holds its locks until this transaction ends; the second one must not need them.
      const otherTransfer = t.app.inject({
        method: 'POST',
        url: '/api/meritus/transfers',
        headers: { cookie, 'idempotency-key': randomUUID() },
        payload: { recipientId: bruno!.id, amount: 3 },
      });
      const waited = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 10_000).unref());
      const outcome = await Promise.race([otherTransfer, waited]);
      expect(outcome === 'waited' ? outcome : outcome.statusCode).toBe(201);
    });
    await expectSumsToMatchLedger();
  },
);

test.skipIf(!onPostgres)(
  'awards to parts of one turma, sent at once, never deadlock on its sums (PGlite: one connection, nothing runs at once)',
  async () => {
    const turma = GRADES[8];
    const members = await addStudents(
      t.db,
      Array.from({ length: 24 }, (_, i) => ({ studentId: String(6300001 + i), name: `Aluno Parte ${i}`, grade: turma })),
    );
    const deadlocks = async () =>
      Number(
        rowsOf<{ n: string }>(await t.db.execute(sql`SELECT deadlocks AS n FROM pg_stat_database WHERE datname = current_database()`))[0]!
          .n,
      );
    const before = await deadlocks();
    // Disjoint parts of the turma, each with its own reason: the operations lock only their
    // students, so they all run at once and meet only on the turma's day slots.
    const parts = Array.from({ length: 6 }, (_, part) => members.filter((_, i) => i % 6 === part).map((s) => s.id));
    const cookie = await t.loginAdmin();
    const responses = await Promise.all(
      [...parts, ...parts.map((part) => part.slice().reverse())].map((studentUuids, i) =>
        t.request('POST', '/admin/operations/bulk', {
          cookie,
          payload: { currency: 'meritus', studentUuids, type: 'reward', amount: 2, description: `Mutirão da horta ${i}` },
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(12).fill(201));
    expect(await deadlocks()).toBe(before);
    await expectSumsToMatchLedger();
  },
);
