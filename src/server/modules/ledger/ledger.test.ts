import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { addStudents, buildTestApp, type TestApp } from '../../test/test-app.ts';
import { auditLog, idempotencyKeys, ledgerEntries, students } from '../../db/schema.ts';
import { sweepIdempotencyKeys } from './idempotency.ts';
import { reconcile, totalBalances } from './reconciliation.service.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import type { LedgerEntryView } from '../../../shared/ledger.ts';

let t: TestApp;
let adminCookie: string;
let ana: TestApp['students'][number];
let bruno: TestApp['students'][number];
let anaCookie: string;

beforeAll(async () => {
  t = await buildTestApp();
  adminCookie = await t.loginAdmin();
  [ana, bruno] = t.students as [typeof ana, typeof bruno];
  anaCookie = await t.loginStudent(ana.studentId);
});
afterAll(async () => t.close());

const award = (studentUuid: string, amount: number, currency: 'meritus' | 'estelecas' = 'meritus') =>
  t.award(studentUuid, amount, { currency, description: 'Participação em aula' });

async function balances(id: string) {
  const [row] = await t.db.select().from(students).where(eq(students.id, id));
  return { meritus: row!.meritus, totalEarned: row!.totalEarned, estelecas: row!.estelecas };
}

async function ledgerCount() {
  return (await t.db.select({ id: ledgerEntries.id }).from(ledgerEntries)).length;
}

function transfer(payload: unknown, options: { cookie?: string; key?: string; currency?: 'meritus' | 'estelecas' } = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/api/${options.currency ?? 'meritus'}/transfers`,
    headers: { cookie: options.cookie ?? anaCookie, ...(options.key ? { 'idempotency-key': options.key } : {}) },
    payload: payload as object,
  });
}

beforeEach(async () => {
  expect(await reconcile(t.db)).toEqual([]);
});

describe('Méritus transfers', () => {
  test('moves exactly the amount, with the default description and the success message', async () => {
    await award(ana.id, 100);
    const before = await balances(bruno.id);
    const response = await transfer({ recipientId: bruno.id, amount: 30 });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.message).toBe('30 M$ transferidos para Bruno Henrique Lima!');
    expect(body.entry.description).toBe('Transferência de Ana Beatriz Souza para Bruno Henrique Lima');
    expect(body.balances.meritus).toBe(70);
    expect(await balances(bruno.id)).toEqual({ ...before, meritus: before.meritus + 30 });
    // A description with nothing to read (a lone joiner, accents without letters) is no description.
    for (const invisible of ['\u200d', '\u0301\u0301\u0301']) {
      const blank = await transfer({ recipientId: bruno.id, amount: 1, description: invisible });
      expect(blank.json().entry.description).toBe('Transferência de Ana Beatriz Souza para Bruno Henrique Lima');
    }
    // a received transfer is not "earned"
    expect((await balances(bruno.id)).totalEarned).toBe(before.totalEarned);
    expect(await reconcile(t.db)).toEqual([]);
  });

  test.each([
    [{ amount: 10 }, 'Preencha todos os campos obrigatórios'],
    [{ recipientId: '', amount: 10 }, 'Preencha todos os campos obrigatórios'],
    [{ recipientId: 'RECIPIENT' }, 'Preencha todos os campos obrigatórios'],
    [{ recipientId: 'RECIPIENT', amount: null }, 'Preencha todos os campos obrigatórios'],
    [{ recipientId: 'RECIPIENT', amount: 0 }, 'O valor deve ser maior que zero'],
    [{ recipientId: 'RECIPIENT', amount: -3 }, 'O valor deve ser maior que zero'],
    [{ recipientId: 'RECIPIENT', amount: 1.5 }, 'O valor deve ser um número inteiro'],
    [{ recipientId: 'RECIPIENT', amount: '10' }, 'O valor deve ser um número inteiro'],
    [{ recipientId: 'RECIPIENT', amount: 1e9 }, 'O valor máximo por operação é 100.000'],
  ])('refuses %j with "%s" and changes nothing', async (payload, message) => {
    const body = JSON.parse(JSON.stringify(payload).replace('RECIPIENT', bruno.id));
    const before = [await balances(ana.id), await balances(bruno.id), await ledgerCount()];
    const response = await transfer(body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(message);
    expect([await balances(ana.id), await balances(bruno.id), await ledgerCount()]).toEqual(before);
  });

  test('refuses more than the balance with "Saldo insuficiente", and the attempt shows as failed in the live feed', async () => {
    const { meritus } = await balances(ana.id);
    const before = await ledgerCount();
    const response = await transfer({ recipientId: bruno.id, amount: meritus + 1, description: 'tentativa' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({ code: 'insufficient_balance', message: 'Saldo insuficiente' });
    expect(await ledgerCount()).toBe(before);
    const feed = await t.app.inject({ url: '/api/admin/operations', headers: { cookie: adminCookie } });
    const failed = feed
      .json()
      .find((op: { status: string; description: string }) => op.status === 'failed' && op.description === 'tentativa');
    expect(failed).toMatchObject({ reason: 'Saldo insuficiente', amount: meritus + 1, category: 'student_transfer', operator: 'student' });
    expect(failed.from.studentId).toBe(ana.studentId);
    expect(failed.to.studentId).toBe(bruno.studentId);
  });

  test('refuses a transfer to oneself, to an unknown or removed student', async () => {
    await award(ana.id, 5);
    expect((await transfer({ recipientId: ana.id, amount: 1 })).json().error.message).toBe('Você não pode transferir para si mesmo');
    // Her id in capitals is the same row to the database: refused the same way, not a 500 from the ledger's function.
    const shouted = await transfer({ recipientId: ana.id.toUpperCase(), amount: 1 });
    expect(shouted.statusCode).toBe(400);
    expect(shouted.json().error.message).toBe('Você não pode transferir para si mesmo');
    const unknown = await transfer({ recipientId: randomUUID(), amount: 1 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('Estudante não encontrado');
    const [removed] = await t.db
      .insert(students)
      .values({ studentId: '3999999', name: 'Removido', turmaId: ana.turmaId, passwordHash: 'x', deletedAt: new Date() })
      .returning();
    expect((await transfer({ recipientId: removed!.id, amount: 1 })).json().error.message).toBe('Estudante não encontrado');
  });

  test('an amount sent as an object, an array or nested too deep is refused as not a whole number and recorded as sent, never a 500', async () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const sent = [
      {
        url: '/api/meritus/transfers',
        cookie: anaCookie,
        body: `{"recipientId":"${bruno.id}","amount":{"toString":1}}`,
        recorded: '{"toString":1}',
      },
      {
        url: '/api/meritus/transfers',
        cookie: anaCookie,
        body: `{"recipientId":"${bruno.id}","amount":[{"valueOf":1,"toString":1}]}`,
        recorded: '[{"valueOf":1,"toString":1}]',
      },
      { url: '/api/meritus/transfers', cookie: anaCookie, body: `{"recipientId":"${bruno.id}","amount":${deep}}`, recorded: '…' },
      {
        url: '/api/admin/operations/bulk',
        cookie: adminCookie,
        body: `{"currency":"meritus","studentUuids":["${bruno.id}"],"type":"admin_add","amount":{"toString":1},"description":"Feira"}`,
        recorded: '{"toString":1}',
      },
    ];
    const before = await ledgerCount();
    for (const { url, cookie, body, recorded } of sent) {
      const response = await t.app.inject({ method: 'POST', url, headers: { cookie, 'content-type': 'application/json' }, payload: body });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error.message).toBe(ERROR_MESSAGES.amount_not_integer);
      expect((await t.lastAudit('ledger.refused'))?.details).toMatchObject({
        amount: null,
        rawAmount: recorded,
        code: 'amount_not_integer',
      });
    }
    expect(await ledgerCount()).toBe(before);
  });

  test('a transfer sent as a form, not JSON, says the format is not accepted and changes nothing', async () => {
    const before = await ledgerCount();
    for (const type of ['application/x-www-form-urlencoded', 'application/vnd.api+json']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/meritus/transfers',
        headers: { cookie: anaCookie, 'content-type': type },
        payload: `recipientId=${bruno.id}&amount=1`,
      });
      expect(response.statusCode, type).toBe(415);
      expect(response.json().error).toEqual({ code: 'unsupported_media_type', message: ERROR_MESSAGES.unsupported_media_type });
    }
    expect(await ledgerCount()).toBe(before);
  });

  test("a student cannot move another student's points by any field", async () => {
    await award(bruno.id, 50);
    await award(ana.id, 30);
    const carla = t.students[2]!;
    const brunoBefore = await balances(bruno.id);
    const anaBefore = await balances(ana.id);
    const attempts = [
      { recipientId: carla.id, amount: 10, fromStudentId: bruno.id },
      { recipientId: carla.id, amount: 10, senderId: bruno.id, studentId: bruno.studentId },
    ];
    for (const payload of attempts) {
      expect((await transfer(payload)).statusCode).toBe(201);
    }
    // the extra fields are ignored: both transfers came out of Ana's balance, never Bruno's
    expect(await balances(bruno.id)).toEqual(brunoBefore);
    expect((await balances(ana.id)).meritus).toBe(anaBefore.meritus - 20);
    const admin = await t.app.inject({
      method: 'POST',
      url: `/api/admin/students/${bruno.id}/meritus`,
      headers: { cookie: anaCookie },
      payload: { type: 'admin_remove', amount: 10, description: 'x' },
    });
    expect(admin.statusCode).toBe(403);
    expect(await balances(bruno.id)).toEqual(brunoBefore);
  });

  test('names with "%" or placeholders in them reach the texts as they are', async () => {
    const [odd] = await addStudents(t.db, [{ studentId: '3000099', name: 'Zé 100% %1$s Silva' }]);
    await award(ana.id, 5);
    const response = await transfer({ recipientId: odd!.id, amount: 1 });
    expect(response.statusCode).toBe(201);
    expect(response.json().message).toBe('1 M$ transferido para Zé 100% %1$s Silva!');
    expect(response.json().entry.description).toBe(`Transferência de ${ana.name} para Zé 100% %1$s Silva`);
    await award(ana.id, 2, 'estelecas');
    const estelecas = await transfer({ recipientId: odd!.id, amount: 2 }, { currency: 'estelecas' });
    expect(estelecas.statusCode).toBe(201);
    expect(estelecas.json().message).toBe('2 Estelecas transferidas para Zé 100% %1$s Silva');
    expect(estelecas.json().entry.description).toBe('Transferência de Estelecas para Zé 100% %1$s Silva');
  });

  test('anonymous transfers get 401', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/meritus/transfers', payload: { recipientId: bruno.id, amount: 1 } });
    expect(response.statusCode).toBe(401);
  });
});

describe('Estelecas transfers', () => {
  test('success message and both balances', async () => {
    await award(ana.id, 10, 'estelecas');
    const before = await balances(bruno.id);
    const response = await transfer({ recipientId: bruno.id, amount: 4 }, { currency: 'estelecas' });
    expect(response.statusCode).toBe(201);
    expect(response.json().message).toBe('4 Estelecas transferidas para Bruno Henrique Lima');
    expect((await balances(bruno.id)).estelecas).toBe(before.estelecas + 4);
  });

  test.each([
    [{ amount: 1 }, 'Preencha todos os campos'],
    [{ recipientId: 'RECIPIENT' }, 'Preencha todos os campos'],
    [{ recipientId: 'RECIPIENT', amount: 0 }, 'Quantidade inválida ou insuficiente'],
    [{ recipientId: 'RECIPIENT', amount: 2.5 }, 'Quantidade inválida ou insuficiente'],
    [{ recipientId: 'RECIPIENT', amount: 100000 }, 'Quantidade inválida ou insuficiente'],
  ])('refuses %j with "%s"', async (payload, message) => {
    const body = JSON.parse(JSON.stringify(payload).replace('RECIPIENT', bruno.id));
    const before = await ledgerCount();
    const response = await transfer(body, { currency: 'estelecas' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(message);
    expect(await ledgerCount()).toBe(before);
  });

  test('unknown recipient: "Estudante não encontrado"', async () => {
    const response = await transfer({ recipientId: randomUUID(), amount: 1 }, { currency: 'estelecas' });
    expect(response.json().error.message).toBe('Estudante não encontrado');
  });
});

describe('administrator operations', () => {
  test('add raises meritus and totalEarned; remove lowers meritus only; messages name the student', async () => {
    const carla = t.students[2]!;
    const before = await balances(carla.id);
    const add = await award(carla.id, 40);
    expect(add.message).toBe('40 M$ adicionados a Carla Dias Ferreira');
    const remove = await t.app.inject({
      method: 'POST',
      url: `/api/admin/students/${carla.id}/meritus`,
      headers: { cookie: adminCookie },
      payload: { type: 'penalty', amount: 15, description: 'Atraso' },
    });
    expect(remove.statusCode).toBe(201);
    expect(remove.json().message).toBe('15 M$ removidos de Carla Dias Ferreira');
    expect(await balances(carla.id)).toEqual({ ...before, meritus: before.meritus + 25, totalEarned: before.totalEarned + 40 });
    const [entry] = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.id, remove.json().entry.id));
    expect(entry).toMatchObject({ actorKind: 'admin', actorName: 'Professora Helena Costa', actorAdminId: t.admin.id });
  });

  test.each([
    [{ type: 'admin_add', amount: 10 }, 'Preencha todos os campos'],
    [{ type: 'admin_add', amount: 10, description: '   ' }, 'Preencha todos os campos'],
    [{ amount: 10, description: 'x' }, 'Preencha todos os campos'],
    [{ type: 'admin_add', description: 'x' }, 'Preencha todos os campos'],
    [{ type: 'admin_add', amount: 0, description: 'x' }, 'O valor deve ser maior que zero'],
    [{ type: 'admin_add', amount: -5, description: 'x' }, 'O valor deve ser maior que zero'],
  ])('refuses %j with "%s"', async (payload, message) => {
    const before = await ledgerCount();
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/admin/students/${ana.id}/meritus`,
      headers: { cookie: adminCookie },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(message);
    expect(await ledgerCount()).toBe(before);
  });

  test.each([
    ['meritus', 0, 'O valor deve ser maior que zero'],
    ['meritus', 2.5, 'O valor deve ser um número inteiro'],
    ['estelecas', 0, 'Preencha todos os campos'],
    ['estelecas', -2, 'Preencha todos os campos'],
    ['estelecas', 1.5, 'Preencha todos os campos'],
    ['estelecas', 100_001, 'O valor máximo por operação é 100.000'],
  ] as const)(
    '%s: an amount of %s is refused with its dialog\'s text "%s", for one student and for a turma alike',
    async (currency, amount, message) => {
      const before = await ledgerCount();
      const single = await t.app.inject({
        method: 'POST',
        url: `/api/admin/students/${ana.id}/${currency}`,
        headers: { cookie: adminCookie },
        payload: { type: 'reward', amount, description: 'Monitoria' },
      });
      const bulk = await t.app.inject({
        method: 'POST',
        url: '/api/admin/operations/bulk',
        headers: { cookie: adminCookie },
        payload: { currency, studentUuids: [ana.id, bruno.id], type: 'reward', amount, description: 'Monitoria' },
      });
      for (const response of [single, bulk]) {
        expect(response.statusCode).toBe(400);
        expect(response.json().error).toMatchObject({ message, fields: { amount: message } });
      }
      expect(await ledgerCount()).toBe(before);
    },
  );

  test('operation messages agree in number: "1 Esteleca removida", "3 Estelecas adicionadas", "1 M$ adicionado"', async () => {
    const carla = t.students[2]!;
    const send = (currency: 'meritus' | 'estelecas', type: string, amount: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/students/${carla.id}/${currency}`,
        headers: { cookie: adminCookie },
        payload: { type, amount, description: 'Projeto' },
      });
    expect((await send('estelecas', 'reward', 3)).json().message).toBe('3 Estelecas adicionadas a Carla Dias Ferreira');
    expect((await send('estelecas', 'admin_remove', 1)).json().message).toBe('1 Esteleca removida de Carla Dias Ferreira');
    expect((await send('meritus', 'reward', 1)).json().message).toBe('1 M$ adicionado a Carla Dias Ferreira');
    expect((await send('meritus', 'admin_remove', 1)).json().message).toBe('1 M$ removido de Carla Dias Ferreira');
  });

  test('cannot remove more than the student has, for either currency', async () => {
    const diego = t.students[3]!;
    const current = await balances(diego.id);
    for (const [currency, message] of [
      ['meritus', 'Não é possível remover mais Méritus do que o estudante possui'],
      ['estelecas', 'Não é possível remover mais Estelecas do que o estudante possui'],
    ] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/admin/students/${diego.id}/${currency}`,
        headers: { cookie: adminCookie },
        payload: { type: 'admin_remove', amount: current[currency] + 1, description: 'Correção' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe(message);
    }
    expect(await balances(diego.id)).toEqual(current);
  });

  test('an unknown (404) or malformed (400) student id: "Estudante não encontrado", nothing written', async () => {
    const rows = await ledgerCount();
    for (const [id, status] of [
      [randomUUID(), 404],
      ['not-a-uuid', 400],
    ] as const) {
      for (const currency of ['meritus', 'estelecas'] as const) {
        const response = await t.app.inject({
          method: 'POST',
          url: `/api/admin/students/${id}/${currency}`,
          headers: { cookie: adminCookie },
          payload: { type: 'admin_add', amount: 5, description: 'Participação' },
        });
        expect(response.statusCode).toBe(status);
        expect(response.json().error.message).toBe('Estudante não encontrado');
      }
    }
    expect(await ledgerCount()).toBe(rows);
  });

  test('bulk award is all or nothing', async () => {
    const ids = t.students.map((s) => s.id);
    const totalsBefore = await totalBalances(t.db);
    const rowsBefore = await ledgerCount();
    const poor = t.students[3]!;
    const { meritus } = await balances(poor.id);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/admin/operations/bulk',
      headers: { cookie: adminCookie },
      payload: { currency: 'meritus', studentUuids: ids, type: 'penalty', amount: meritus + 1, description: 'Bagunça' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe(ERROR_MESSAGES.remove_exceeds_balance);
    expect(await ledgerCount()).toBe(rowsBefore);
    expect(await totalBalances(t.db)).toEqual(totalsBefore);

    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/admin/operations/bulk',
      headers: { cookie: adminCookie },
      payload: { currency: 'meritus', studentUuids: ids, type: 'reward', amount: 5, description: 'Feira de ciências' },
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ count: 4, message: '5 M$ concedidos a 4 estudantes' });
    expect(await ledgerCount()).toBe(rowsBefore + 4);
    expect((await totalBalances(t.db)).meritus).toBe(totalsBefore.meritus + 20);
    const one = await t.app.inject({
      method: 'POST',
      url: '/api/admin/operations/bulk',
      headers: { cookie: adminCookie },
      payload: { currency: 'estelecas', studentUuids: ids.slice(0, 2), type: 'reward', amount: 1, description: 'Olimpíada' },
    });
    expect(one.json().message).toBe('1 Esteleca concedida a 2 estudantes');

    const tooMany = await t.app.inject({
      method: 'POST',
      url: '/api/admin/operations/bulk',
      headers: { cookie: adminCookie },
      payload: {
        currency: 'meritus',
        studentUuids: Array.from({ length: 5001 }, () => randomUUID()),
        type: 'reward',
        amount: 1,
        description: 'Feira',
      },
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toBe('Selecione no máximo 5.000 estudantes por operação');
  });
});

describe('idempotency', () => {
  test('the same key returns the first response and writes once; a different body gets 409', async () => {
    await award(ana.id, 20);
    const key = randomUUID();
    const before = await ledgerCount();
    const first = await transfer({ recipientId: bruno.id, amount: 3 }, { key });
    const second = await transfer({ recipientId: bruno.id, amount: 3 }, { key });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(await ledgerCount()).toBe(before + 1);
    const changed = await transfer({ recipientId: bruno.id, amount: 4 }, { key });
    expect(changed.statusCode).toBe(409);
    expect(await ledgerCount()).toBe(before + 1);
  });

  test('a malformed key (spaces, too short, two of them) says what a key must be, changes nothing and is recorded', async () => {
    await award(ana.id, 5);
    const before = [await balances(ana.id), await ledgerCount()];
    for (const key of ['abc def ghi', 'curta', ['aaaaaaaa1', 'bbbbbbbb2']]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/meritus/transfers',
        headers: { cookie: anaCookie, 'idempotency-key': key },
        payload: { recipientId: bruno.id, amount: 1, description: `chave ${String(key)}` },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'idempotency_key_invalid', message: ERROR_MESSAGES.idempotency_key_invalid });
      expect((await t.lastAudit('ledger.refused'))?.details).toMatchObject({
        code: 'idempotency_key_invalid',
        description: `chave ${String(key)}`,
      });
    }
    expect([await balances(ana.id), await ledgerCount()]).toEqual(before);
  });

  test('the same key sent 20 times at once yields one row', async () => {
    await award(ana.id, 20);
    const key = randomUUID();
    const before = await ledgerCount();
    const responses = await Promise.all(Array.from({ length: 20 }, () => transfer({ recipientId: bruno.id, amount: 1 }, { key })));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    expect(new Set(responses.map((r) => r.json().entry.id)).size).toBe(1);
    expect(await ledgerCount()).toBe(before + 1);
  });

  test("keys belong to their user: another student's same key is a separate request", async () => {
    await award(bruno.id, 5);
    const key = randomUUID();
    const brunoCookie = await t.loginStudent(bruno.studentId);
    const a = await transfer({ recipientId: t.students[2]!.id, amount: 1 }, { key });
    const b = await transfer({ recipientId: t.students[2]!.id, amount: 1 }, { key, cookie: brunoCookie });
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(a.json().entry.id).not.toBe(b.json().entry.id);
  });

  test('the periodic sweep forgets keys older than a day and keeps the fresh ones', async () => {
    await award(ana.id, 2);
    const [oldKey, freshKey] = [randomUUID(), randomUUID()];
    expect((await transfer({ recipientId: bruno.id, amount: 1 }, { key: oldKey })).statusCode).toBe(201);
    const fresh = await transfer({ recipientId: bruno.id, amount: 1 }, { key: freshKey });
    await t.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) })
      .where(eq(idempotencyKeys.key, oldKey));
    await sweepIdempotencyKeys(t.db);
    const kept = (await t.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys)).map((row) => row.key);
    expect(kept).toContain(freshKey);
    expect(kept).not.toContain(oldKey);
    // the fresh key still replays its first answer
    expect((await transfer({ recipientId: bruno.id, amount: 1 }, { key: freshKey })).json()).toEqual(fresh.json());
  });
});

describe('reads', () => {
  test("a student's operations: newest first, signed from their side, counterpart named, paged", async () => {
    // Four operations of Ana's at least, whatever ran before.
    await award(ana.id, 1);
    await award(ana.id, 1);
    await award(ana.id, 5);
    expect((await transfer({ recipientId: bruno.id, amount: 2, description: 'Lanche' })).statusCode).toBe(201);
    const response = await t.app.inject({ url: '/api/me/transactions?limit=3', headers: { cookie: anaCookie } });
    expect(response.statusCode).toBe(200);
    const items = response.json();
    expect(items.length).toBe(3);
    const times = items.map((i: { createdAt: string }) => i.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(items[0]).toMatchObject({
      kind: 'transfer_out',
      amount: 2,
      signedAmount: -2,
      description: 'Lanche',
      counterpart: { id: bruno.id },
    });
    expect(items[1]).toMatchObject({ kind: 'admin_add', amount: 5, signedAmount: 5 });

    // Two pages of two are the first four operations of one page of four, in the same order.
    const operations = (url: string) => t.app.inject({ url, headers: { cookie: anaCookie } }).then((r) => r.json());
    const ids = (page: { items: { id: string }[] }) => page.items.map((item) => item.id);
    const firstFour = await operations('/api/me/operations?limit=4');
    expect(firstFour.items).toHaveLength(4);
    const page1 = await operations('/api/me/operations?limit=2');
    const page2 = await operations(`/api/me/operations?limit=2&cursor=${page1.nextCursor}`);
    expect([...ids(page1), ...ids(page2)]).toEqual(ids(firstFour));
    const search = (await t.app.inject({ url: '/api/me/operations?q=bruno&kind=transfer_out', headers: { cookie: anaCookie } })).json();
    expect(search.items.length).toBeGreaterThan(0);
    for (const item of search.items) expect(item.counterpart.name).toBe('Bruno Henrique Lima');
  });

  test('Estelecas history, admin recent operations and the Estelecas top 10', async () => {
    await award(ana.id, 3, 'estelecas');
    // A later Méritus transfer stays out of the Estelecas history.
    await award(ana.id, 1);
    const meritusTransfer = await transfer({ recipientId: bruno.id, amount: 1 });
    expect(meritusTransfer.statusCode).toBe(201);
    const estelecas = (await t.app.inject({ url: '/api/me/estelecas', headers: { cookie: anaCookie } })).json();
    expect(estelecas[0]).toMatchObject({ currency: 'estelecas', kind: 'admin_add', signedAmount: 3 });
    expect(estelecas.every((e: { currency: string }) => e.currency === 'estelecas')).toBe(true);

    for (let amount = 1; amount <= 11; amount += 1) await award(bruno.id, amount);
    const recent: LedgerEntryView[] = (await t.app.inject({ url: '/api/admin/meritus/recent', headers: { cookie: adminCookie } })).json();
    // Newest first. PGlite's clock counts milliseconds, so two awards in the same one may come in either order.
    expect(recent).toHaveLength(10);
    expect(recent.every((e) => e.type === 'admin_add' && e.currency === 'meritus' && e.to?.id === bruno.id)).toBe(true);
    const times = recent.map((e) => Date.parse(e.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(recent.map((e) => e.amount)).toContain(11);
    expect(new Set(recent.map((e) => e.amount)).size).toBe(10);

    const top = (await t.app.inject({ url: '/api/admin/estelecas/ranking', headers: { cookie: adminCookie } })).json();
    // current students holding Estelecas, most first, at most 10
    const holders = (
      await t.db
        .select()
        .from(students)
        .where(and(isNull(students.deletedAt), gt(students.estelecas, 0)))
    ).map((row) => row.estelecas);
    const counts = top.map((s: { estelecas: number }) => s.estelecas);
    expect(counts).toEqual([...holders].sort((a, b) => b - a).slice(0, 10));
  });

  test('refused attempts are kept in the audit log, with who, what and why, also those the database refused under its lock', async () => {
    const refused = () => t.db.select().from(auditLog).where(eq(auditLog.action, 'ledger.refused')).orderBy(auditLog.id);
    const before = (await refused()).length;
    const { meritus } = await balances(ana.id);
    expect((await transfer({ recipientId: bruno.id, amount: meritus + 1, description: 'Lanche' }, { key: randomUUID() })).statusCode).toBe(
      400,
    );
    const unknown = randomUUID();
    expect((await transfer({ recipientId: unknown, amount: 2 }, { currency: 'estelecas' })).statusCode).toBe(404);
    const removal = await t.app.inject({
      method: 'POST',
      url: `/api/admin/students/${bruno.id}/estelecas`,
      headers: { cookie: adminCookie },
      payload: { type: 'penalty', amount: (await balances(bruno.id)).estelecas + 1, description: 'Atraso' },
    });
    expect(removal.statusCode).toBe(400);
    const rows = (await refused()).slice(before);
    expect(rows.map(({ actorKind, actorId, actorLabel, details }) => ({ actorKind, actorId, actorLabel, details }))).toEqual([
      {
        actorKind: 'student',
        actorId: ana.id,
        actorLabel: ana.name,
        details: {
          currency: 'meritus',
          type: 'transfer',
          amount: meritus + 1,
          rawAmount: String(meritus + 1),
          description: 'Lanche',
          fromStudentId: ana.id,
          toStudentId: bruno.id,
          code: 'insufficient_balance',
          reason: 'Saldo insuficiente',
        },
      },
      {
        actorKind: 'student',
        actorId: ana.id,
        actorLabel: ana.name,
        details: {
          currency: 'estelecas',
          type: 'transfer',
          amount: 2,
          rawAmount: '2',
          description: null,
          fromStudentId: ana.id,
          toStudentId: unknown,
          code: 'student_not_found',
          reason: 'Estudante não encontrado',
        },
      },
      {
        actorKind: 'admin',
        actorId: t.admin.id,
        actorLabel: t.admin.name,
        details: {
          currency: 'estelecas',
          type: 'penalty',
          amount: expect.any(Number),
          rawAmount: expect.any(String),
          description: 'Atraso',
          fromStudentId: bruno.id,
          toStudentId: null,
          code: 'remove_exceeds_estelecas',
          reason: 'Não é possível remover mais Estelecas do que o estudante possui',
        },
      },
    ]);
  });
});
