import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { addStudents, buildTestApp, type TestApp } from '../../test/test-app.ts';
import { ledgerEntries, students } from '../../db/schema.ts';
import { rowsOf } from '../../db/client.ts';
import { reconcile } from './reconciliation.service.ts';
import { EXPORT_PAGE } from './ledger-export.service.ts';
import { dayIn } from '../../../shared/format.ts';

/** GET /api/admin/ledger/export.csv: the whole ledger, newest first, streamed a page at a time. */
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  expect(await reconcile(t.db)).toEqual([]);
});

let sequence = 0;
/** A new student, with an initial balance awarded as the student form does. */
async function enrol(name: string, meritus = 0) {
  sequence += 1;
  const [student] = await addStudents(t.db, [{ studentId: `88${String(sequence).padStart(5, '0')}`, name }]);
  if (meritus > 0) await t.award(student!.id, meritus, { description: 'Saldo inicial' });
  return student!;
}

describe('ledger CSV export', () => {
  // Kiritimati (UTC+14) and Pago Pago (UTC−11) are always on different days, so at any hour one of them is not on UTC's.
  test("every export is named by the school's day, as its rows' times are written", async () => {
    for (const timeZone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      expect((await t.request('PUT', '/admin/settings/school', { payload: { name: 'Escola Méritus', timeZone } })).statusCode).toBe(200);
      const day = dayIn(timeZone, new Date());
      for (const [url, name] of [
        ['/admin/ledger/export.csv', `operacoes-${day}.csv`],
        ['/admin/students/export.csv', `estudantes-${day}.csv`],
        ['/admin/system/entities/tags/export.csv', `tags-${day}.csv`],
      ] as const) {
        const response = await t.request('GET', url);
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['content-disposition'], url).toContain(`filename="${name}"`);
      }
    }
    expect(
      (await t.request('PUT', '/admin/settings/school', { payload: { name: 'Escola Méritus', timeZone: 'America/Sao_Paulo' } })).statusCode,
    ).toBe(200);
  });

  test('ledger: every row, newest first, with removed students marked, as a BOM-prefixed CSV', async () => {
    const payer = await enrol('Heitor Pagador', 20);
    const cookie = await t.loginStudent(payer.studentId);
    const paid = await t.request('POST', '/meritus/transfers', {
      cookie,
      payload: { recipientId: t.students[0]!.id, amount: 5, description: 'Ajuda na lição; obrigado!' },
    });
    expect(paid.statusCode).toBe(201);
    expect((await t.request('DELETE', `/admin/students/${payer.id}`)).statusCode).toBe(200);
    const response = await t.request('GET', '/admin/ledger/export.csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/filename="operacoes-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('Data;Moeda;Tipo;Valor;Descrição;Matrícula (de);De;Matrícula (para);Para;Operador;Estorno');
    const all = await t.db.select().from(ledgerEntries);
    expect(lines).toHaveLength(all.length + 1);
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\d{2}/\\d{2}/\\d{4}, \\d{2}:\\d{2};Méritus;Transferência;5;"Ajuda na lição; obrigado!";${payer.studentId};` +
          'Heitor Pagador \\(removido\\);3000001;Ana Beatriz Souza;Heitor Pagador;$',
      ),
    );
    expect(lines[2]).toContain(';Méritus;Adição;20;Saldo inicial;;;');
    expect((await t.lastAudit('ledger.export'))!.actorId).toBe(t.admin.id);
  });

  test('the ledger export crosses its pages with every row once, newest first, even through rows of the same microsecond', async () => {
    const student = await enrol('Júlia Araújo Conceição');
    const [{ n: before }] = (await t.db.select({ n: count() }).from(ledgerEntries)) as [{ n: number }];
    // Written long ago, so every other row comes first: the page boundary falls at position
    // EXPORT_PAGE - before of these, newest first, and 8 rows around it share one instant.
    const total = EXPORT_PAGE + 3;
    const [tieFrom, tieTo] = [EXPORT_PAGE - before - 5, EXPORT_PAGE - before + 2];
    const offsetOf = (position: number) => total - (position >= tieFrom && position <= tieTo ? tieTo : position);
    const written = rowsOf<{ id: string; position: number }>(
      await t.db.execute(sql`
        INSERT INTO ledger_entries (currency, type, amount, description, to_student_id, actor_kind, actor_name, created_at)
        SELECT 'estelecas', 'admin_add', 1, 'Lote ' || p, ${student.id}, 'admin', 'Carga de teste',
               '2020-02-03 10:00:00+00'::timestamptz
                 + ((${total} - CASE WHEN p BETWEEN ${tieFrom} AND ${tieTo} THEN ${tieTo} ELSE p END) || ' microseconds')::interval
        FROM generate_series(0, ${total - 1}) AS p
        RETURNING id, substring(description FROM 6)::int AS position`),
    );
    await t.db.update(students).set({ estelecas: total }).where(eq(students.id, student.id));
    try {
      // Newest first; rows of one instant by id, descending, as the export promises a stable order.
      const expected = written
        .sort((a, b) => offsetOf(b.position) - offsetOf(a.position) || (a.id < b.id ? 1 : -1))
        .map((row) => `Lote ${row.position}`);
      const response = await t.request('GET', '/admin/ledger/export.csv');
      expect(response.statusCode).toBe(200);
      const lines = response.body
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
      expect(lines).toHaveLength(1 + before + total);
      expect(lines.slice(1 + before).map((line) => line.split(';')[4])).toEqual(expected);
    } finally {
      await t.db.transaction(async (tx) => {
        await tx.delete(ledgerEntries).where(and(eq(ledgerEntries.toStudentId, student.id), eq(ledgerEntries.actorName, 'Carga de teste')));
        await tx.update(students).set({ estelecas: 0 }).where(eq(students.id, student.id));
      });
    }
  });
});
