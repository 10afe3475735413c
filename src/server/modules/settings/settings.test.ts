import fs from 'node:fs';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { buildTestApp, testConfig, type TestApp } from '../../test/test-app.ts';
import { buildApp } from '../../app.ts';
import { ledgerEntries, ledgerTurmaDays, staffTurmas, students, turmas } from '../../db/schema.ts';
import { addAdmin } from '../../test/test-app.ts';
import { formatDateTime, startOfDayIn } from '../../../shared/format.ts';
import { DEFAULT_RULES, type SchoolRules } from '../../../shared/settings.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const rules = (changes: Partial<SchoolRules>): SchoolRules => ({ ...DEFAULT_RULES, ...changes });

async function ledgerRows(app: TestApp): Promise<number> {
  const [row] = await app.db.select({ n: count() }).from(ledgerEntries);
  return row!.n;
}

test("the formatter writes an instant in the zone it is given, and a day starts at that zone's midnight", () => {
  const instant = '2026-11-23T02:30:00Z';
  expect(formatDateTime(instant, 'America/Sao_Paulo')).toBe('22/11/2026, 23:30');
  expect(formatDateTime(instant, 'Asia/Tokyo')).toBe('23/11/2026, 11:30');
  expect(startOfDayIn('America/Sao_Paulo', new Date(instant)).toISOString()).toBe('2026-11-22T03:00:00.000Z');
  expect(startOfDayIn('Asia/Tokyo', new Date(instant)).toISOString()).toBe('2026-11-22T15:00:00.000Z');
});

describe('the school', () => {
  test(
    "name and time zone: the login page's public answer, the settings every screen reads, " +
      "an export's times; audited; bad input changes nothing",
    async () => {
      t = await buildTestApp();
      const app = t;
      const before = await app.app.inject({ method: 'GET', url: '/api/settings/public' });
      expect(before.statusCode).toBe(200);
      expect(before.json()).toEqual({
        name: 'Escola Méritus',
        logoUrl: null,
        timeZone: 'America/Sao_Paulo',
        demo: false,
        signInProviders: [],
      });

      await app.award(app.students[0]!.id, 10);
      const csvBefore = (await app.request('GET', '/admin/ledger/export.csv')).body;

      const saved = await app.request('PUT', '/admin/settings/school', {
        payload: { name: '  Colégio   Horizonte ', timeZone: 'Asia/Tokyo' },
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.json().school).toEqual({ name: 'Colégio Horizonte', logoUrl: null, timeZone: 'Asia/Tokyo' });
      expect((await app.app.inject({ method: 'GET', url: '/api/settings/public' })).json()).toMatchObject({
        name: 'Colégio Horizonte',
        timeZone: 'Asia/Tokyo',
      });
      const student = await app.loginStudent('3000001');
      expect((await app.request('GET', '/settings', { cookie: student })).json().school.name).toBe('Colégio Horizonte');

      // The same ledger row, written in Tokyo's time now.
      const [entry] = await app.db.select().from(ledgerEntries);
      const csvAfter = (await app.request('GET', '/admin/ledger/export.csv')).body;
      expect(csvBefore).toContain(formatDateTime(entry!.createdAt, 'America/Sao_Paulo'));
      expect(csvAfter).toContain(formatDateTime(entry!.createdAt, 'Asia/Tokyo'));
      expect(csvAfter).not.toContain(formatDateTime(entry!.createdAt, 'America/Sao_Paulo'));

      const audit = await app.lastAudit('settings.school');
      expect(audit?.details).toEqual({
        before: { name: 'Escola Méritus', timeZone: 'America/Sao_Paulo' },
        after: { name: 'Colégio Horizonte', timeZone: 'Asia/Tokyo' },
      });

      const badZone = await app.request('PUT', '/admin/settings/school', { payload: { name: 'Outra', timeZone: 'Marte/Base_Alfa' } });
      expect(badZone.statusCode).toBe(400);
      expect(badZone.json().error).toMatchObject({ code: 'invalid_time_zone', message: 'Selecione um fuso horário válido' });
      // A name the runtime knows and the database does not: saved, it made every report answer 500.
      const legacyZone = await app.request('PUT', '/admin/settings/school', {
        payload: { name: 'Outra', timeZone: 'Canada/East-Saskatchewan' },
      });
      expect(legacyZone.json().error).toMatchObject({ code: 'invalid_time_zone', message: 'Selecione um fuso horário válido' });
      expect((await app.request('GET', '/admin/reports/overview')).statusCode).toBe(200);
      const blank = await app.request('PUT', '/admin/settings/school', { payload: { name: '   ', timeZone: 'UTC' } });
      expect(blank.json().error).toMatchObject({ code: 'school_name_required', message: 'Informe o nome da escola' });
      expect(
        (await app.request('PUT', '/admin/settings/school', { cookie: student, payload: { name: 'X', timeZone: 'UTC' } })).statusCode,
      ).toBe(403);
      expect((await app.request('GET', '/settings', { cookie: student })).json().school).toMatchObject({
        name: 'Colégio Horizonte',
        timeZone: 'Asia/Tokyo',
      });
    },
  );

  test('a logo upload is stored re-encoded and shown to the login page; removing it deletes the file', async () => {
    t = await buildTestApp();
    const app = t;
    const sharp = (await import('sharp')).default;
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#4f46e5' } })
      .png()
      .toBuffer();
    const boundary = 'logo-boundary';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const cookie = await app.loginAdmin();
    const uploaded = await app.app.inject({
      method: 'POST',
      url: '/api/admin/settings/logo',
      headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(uploaded.statusCode).toBe(200);
    const logoUrl = uploaded.json().school.logoUrl as string;
    expect(logoUrl).toMatch(/^\/uploads\/school\/logo-[0-9a-f]{16}\.webp$/);
    expect((await app.app.inject({ method: 'GET', url: logoUrl })).statusCode).toBe(200);
    expect((await app.app.inject({ method: 'GET', url: '/api/settings/public' })).json().logoUrl).toBe(logoUrl);

    // A valid image too large in pixels (a small file: one colour) is refused as too large, not as a wrong format.
    const huge = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const refused = await app.app.inject({
      method: 'POST',
      url: '/api/admin/settings/logo',
      headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([body.subarray(0, body.indexOf(png)), huge, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    });
    expect(refused.statusCode).toBe(413);
    expect(refused.json().error.message).toBe(
      'Imagem grande demais: no máximo 40 megapixels (por exemplo, 6000 × 6000). Reduza-a e envie de novo.',
    );
    expect((await app.app.inject({ method: 'GET', url: '/api/settings/public' })).json().logoUrl).toBe(logoUrl);

    const removed = await app.request('DELETE', '/admin/settings/logo');
    expect(removed.json().school.logoUrl).toBeNull();
    expect((await app.app.inject({ method: 'GET', url: logoUrl })).statusCode).toBe(404);
    expect((await app.lastAudit('settings.logo_removed'))?.details).toEqual({ from: logoUrl, to: null });
  });
});

describe('the rules', () => {
  test('the goal, the default tag duration and the maximum per operation apply at once; the change is audited; invalid rules change nothing', async () => {
    t = await buildTestApp();
    const app = t;
    const [ana, bruno] = app.students;
    await app.award(ana!.id, 250);
    const student = await app.loginStudent('3000001');

    const saved = await app.request('PUT', '/admin/settings/rules', {
      payload: rules({ meritusGoal: 500, defaultTagDays: 3, maxOperationAmount: 50 }),
    });
    expect(saved.statusCode).toBe(200);
    const summary = (await app.request('GET', '/me/summary', { cookie: student })).json();
    expect(summary.goal).toEqual({ target: 500, percent: 50, remaining: 250 });
    expect((await app.request('GET', '/settings', { cookie: student })).json().rules.meritusGoal).toBe(500);

    const tagged = await app.request('PUT', `/admin/students/${bruno!.id}/tags/leader`, { payload: {} });
    expect(tagged.statusCode).toBe(200);
    const days = (new Date(tagged.json().tags[0].expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.99);
    expect(days).toBeLessThanOrEqual(3);

    const rowsBefore = await ledgerRows(app);
    const tooMuch = await app.request('POST', `/admin/students/${bruno!.id}/meritus`, {
      payload: { type: 'reward', amount: 51, description: 'Prêmio' },
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error).toMatchObject({
      code: 'amount_too_large',
      message: 'O valor máximo por operação é 50',
      fields: { amount: 'O valor máximo por operação é 50' },
    });
    const transfer = await app.request('POST', '/meritus/transfers', { cookie: student, payload: { recipientId: bruno!.id, amount: 60 } });
    expect(transfer.json().error.message).toBe('O valor máximo por operação é 50');
    expect(await ledgerRows(app)).toBe(rowsBefore);
    expect((await app.lastAudit('ledger.refused'))?.details).toMatchObject({
      code: 'amount_too_large',
      reason: 'O valor máximo por operação é 50',
      amount: 60,
    });

    expect((await app.lastAudit('settings.rules'))?.details).toEqual({
      changed: { meritusGoal: { from: 2000, to: 500 }, defaultTagDays: { from: 7, to: 3 }, maxOperationAmount: { from: 100_000, to: 50 } },
    });

    const invalid = await app.request('PUT', '/admin/settings/rules', {
      payload: rules({ meritusGoal: 0, achievementThresholds: { collector: 80, master: 80 } }),
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.fields).toMatchObject({
      meritusGoal: 'A meta de Méritus deve ser um número inteiro de 1 a 1.000.000',
      'achievementThresholds.master': 'Os marcos das conquistas devem ser números inteiros, o segundo maior que o primeiro',
    });
    expect((await app.request('GET', '/settings', { cookie: student })).json().rules).toMatchObject({
      meritusGoal: 500,
      maxOperationAmount: 50,
    });
  });

  test("the school's 'Como ganhar' text: stored as plain text for every signed-in screen, at most 4,000 characters, control characters refused", async () => {
    t = await buildTestApp();
    const app = t;
    const student = await app.loginStudent('3000001');
    expect((await app.request('GET', '/settings', { cookie: student })).json().rules.howToEarnText).toBe('');

    const text = '  Participe das aulas.\n\n- Ajude os colegas\n- Entregue os trabalhos <script>alert(1)</script>  ';
    const saved = await app.request('PUT', '/admin/settings/rules', { payload: rules({ howToEarnText: text }) });
    expect(saved.statusCode, saved.body).toBe(200);
    // Kept as written (trimmed): the screens render it as text, never as HTML.
    expect((await app.request('GET', '/settings', { cookie: student })).json().rules.howToEarnText).toBe(text.trim());

    const refusals = [
      {
        howToEarnText: 'a'.repeat(4001),
        code: 'how_to_earn_too_long',
        message: 'O texto "Como ganhar" deve ter no máximo 4.000 caracteres',
      },
      { howToEarnText: 'Olá\u0000', code: 'invalid_text' },
    ];
    for (const { code, message, ...change } of refusals) {
      const refused = await app.request('PUT', '/admin/settings/rules', { payload: rules(change) });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toMatchObject({ code, fields: { howToEarnText: message ?? expect.any(String) } });
    }
    expect((await app.request('PUT', '/admin/settings/rules', { payload: rules({ howToEarnText: 'a'.repeat(4000) }) })).statusCode).toBe(
      200,
    );
    // A student may not write it.
    const forbidden = await app.request('PUT', '/admin/settings/rules', { cookie: student, payload: rules({ howToEarnText: 'Nada' }) });
    expect(forbidden.statusCode).toBe(403);
    expect((await app.request('GET', '/settings', { cookie: student })).json().rules.howToEarnText).toBe('a'.repeat(4000));
  });

  test('a change made through one instance reaches another instance on the same database without a restart', async () => {
    t = await buildTestApp();
    const app = t;
    const otherConfig = testConfig();
    const other = await buildApp(otherConfig, app.database);
    try {
      const student = await app.loginStudent('3000001');
      const goalOnOther = async () =>
        (await other.inject({ method: 'GET', url: '/api/settings', headers: { cookie: student } })).json().rules.meritusGoal as number;
      // The other instance has read (and cached) the settings before the change.
      expect(await goalOnOther()).toBe(2000);
      await app.request('PUT', '/admin/settings/rules', { payload: rules({ meritusGoal: 750 }) });
      // It drops its copy when the bus's event arrives (a NOTIFY away).
      await vi.waitFor(async () => expect(await goalOnOther()).toBe(750));
    } finally {
      await other.close();
      fs.rmSync(otherConfig.dataDir, { recursive: true, force: true });
    }
  });

  test(
    'transfer guardrails: over the daily cap and inside the minimum interval ' +
      'are refused with their messages, recorded, and nothing is written',
    async () => {
      t = await buildTestApp();
      const app = t;
      const [ana, bruno] = app.students;
      await app.award(ana!.id, 500);
      const student = await app.loginStudent('3000001');
      const send = (amount: number, currency = 'meritus') =>
        app.request('POST', `/${currency}/transfers`, { cookie: student, payload: { recipientId: bruno!.id, amount } });

      await app.request('PUT', '/admin/settings/rules', { payload: rules({ transferDailyCap: 100 }) });
      expect((await send(60)).statusCode).toBe(201);
      const rows = await ledgerRows(app);
      const overCap = await send(50);
      expect(overCap.statusCode).toBe(400);
      expect(overCap.json().error).toMatchObject({
        code: 'transfer_daily_cap',
        message: 'Limite diário de transferências atingido: até 100 M$ por dia. Hoje você ainda pode transferir 40 M$.',
        details: { remaining: 40 },
      });
      expect(await ledgerRows(app)).toBe(rows);
      expect((await app.lastAudit('ledger.refused'))?.details).toMatchObject({
        code: 'transfer_daily_cap',
        amount: 50,
        reason: 'Limite diário de transferências atingido: até 100 M$ por dia.',
      });
      expect((await send(40)).statusCode).toBe(201);

      await app.request('PUT', '/admin/settings/rules', { payload: rules({ transferMinIntervalSeconds: 3600 }) });
      const [{ meritus } = { meritus: 0 }] = await app.db
        .select({ meritus: students.meritus })
        .from(students)
        .where(eq(students.id, ana!.id));
      const tooSoon = await send(5);
      expect(tooSoon.statusCode).toBe(429);
      expect(tooSoon.json().error).toMatchObject({ code: 'transfer_too_soon', message: 'Aguarde 1 hora entre uma transferência e outra.' });
      expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(3500);
      // The interval counts any transfer of the student, Estelecas too.
      expect((await send(1, 'estelecas')).json().error.code).toBe('transfer_too_soon');
      const [after] = await app.db.select({ meritus: students.meritus }).from(students).where(eq(students.id, ana!.id));
      expect(after!.meritus).toBe(meritus);
      expect(await ledgerRows(app)).toBe(rows + 1);
      expect((await app.lastAudit('ledger.refused'))?.details).toMatchObject({ code: 'transfer_too_soon', currency: 'estelecas' });
    },
  );
});

describe('turmas', () => {
  test('add, rename (its students follow), retire (students stay, no one new joins); duplicates and unknown turmas refused; audited', async () => {
    t = await buildTestApp();
    const app = t;
    const [ana] = app.students;
    const list = (await app.request('GET', '/admin/turmas')).json() as { id: string; name: string; retired: boolean; students: number }[];
    expect(list).toHaveLength(12);
    expect(list[0]).toMatchObject({ name: '1º EM - Turma A', retired: false, students: 1 });

    const created = await app.request('POST', '/admin/turmas', { payload: { name: 'Robótica' } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ message: 'Turma Robótica criada', turma: { name: 'Robótica', retired: false } });
    const duplicate = await app.request('POST', '/admin/turmas', { payload: { name: 'robótica' } });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error.message).toBe('Já existe uma turma com este nome');
    // The same name with another dash would be a second turma no one can tell apart in a list.
    const dashed = await app.request('POST', '/admin/turmas', { payload: { name: '1º EM – Turma A' } });
    expect(dashed.json().error.message).toBe('Já existe uma turma com este nome');

    const first = list[0]!;
    const [anaBefore] = await app.db.select().from(students).where(eq(students.id, ana!.id));
    const renamed = await app.request('PATCH', `/admin/turmas/${first.id}`, { payload: { name: '1º EM - Alfa' } });
    expect(renamed.statusCode).toBe(200);
    // The rename changes the turma's row alone: Ana's row is as it was, and she shows the new name.
    expect(await app.db.select().from(students).where(eq(students.id, ana!.id))).toEqual([{ ...anaBefore!, turmaId: first.id }]);
    const listed = (await app.request('GET', '/admin/students')).json().items as { id: string; grade: string }[];
    expect(listed.find((student) => student.id === ana!.id)?.grade).toBe('1º EM - Alfa');
    expect((await app.lastAudit('turma.rename'))?.details).toMatchObject({ from: '1º EM - Turma A', to: '1º EM - Alfa', students: 1 });

    expect((await app.request('PATCH', `/admin/turmas/${first.id}`, { payload: {} })).json().message).toBe(
      'Nada mudou na turma 1º EM - Alfa',
    );

    const retired = await app.request('PATCH', `/admin/turmas/${first.id}`, { payload: { retired: true } });
    expect(retired.json()).toMatchObject({ message: 'Turma 1º EM - Alfa desativada', turma: { retired: true } });
    const newcomer = { studentId: '3000010', name: 'Elisa Prado', password: 'senha123' };
    const refused = await app.request('POST', '/admin/students', { payload: { ...newcomer, grade: '1º EM - Alfa' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('Esta turma está desativada e não recebe novos estudantes');
    const unknown = await app.request('POST', '/admin/students', { payload: { ...newcomer, grade: '9º ano Z' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe('Selecione uma turma válida');
    // Ana stays in her retired turma and can still be edited.
    const edited = await app.request('PATCH', `/admin/students/${ana!.id}`, { payload: { name: 'Ana B. Souza', grade: '1º EM - Alfa' } });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().student.grade).toBe('1º EM - Alfa');
    // Any spelling of a turma's case is stored as the turma's name.
    const joined = await app.request('POST', '/admin/students', { payload: { ...newcomer, grade: 'ROBÓTICA' } });
    expect(joined.json().student.grade).toBe('Robótica');
    expect(await app.lastAudit('turma.retire')).toBeDefined();
  });
});

describe('deleting a turma (day one: the default turmas the school does not have)', () => {
  test(
    'a turma nothing uses is deleted (a teacher given it loses it); one with a student, current or removed, a Loja item ' +
      'only for it, operations still queued or counted in it is refused and changes nothing; audited',
    async () => {
      t = await buildTestApp();
      const app = t;
      type Listed = { id: string; name: string; students: number };
      const list = async () => (await app.request('GET', '/admin/turmas')).json() as Listed[];
      const byName = async (name: string) => (await list()).find((turma) => turma.name === name)!;
      const remove = (id: string) => app.request('DELETE', `/admin/turmas/${id}`);
      const refusedWith = async (id: string, code: string) => {
        const before = await list();
        const response = await remove(id);
        expect(response.statusCode, response.body).toBe(409);
        expect(response.json().error.code).toBe(code);
        expect(await list()).toEqual(before);
      };

      // A default turma no student is in, given to a teacher.
      const unused = await byName('2º EM - Turma B');
      expect(unused.students).toBe(0);
      const teacher = await addAdmin(app.db, { email: 'prof9@escola.test', name: 'Rui Prado', role: 'teacher', turmaIds: [unused.id] });
      const deleted = await remove(unused.id);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(deleted.json()).toEqual({ message: 'Turma 2º EM - Turma B apagada' });
      expect((await list()).map((turma) => turma.name)).not.toContain('2º EM - Turma B');
      expect(
        ((await app.request('GET', '/settings')).json() as { turmas: { id: string }[] }).turmas.map((turma) => turma.id),
      ).not.toContain(unused.id);
      expect(await app.db.select().from(staffTurmas).where(eq(staffTurmas.adminId, teacher.id))).toEqual([]);
      expect((await app.lastAudit('turma.delete'))?.details).toEqual({
        turmaId: unused.id,
        name: '2º EM - Turma B',
        teachers: [teacher.id],
      });
      expect((await remove(unused.id)).statusCode).toBe(404);

      // A current student's turma, and a turma whose only student was removed (the history keeps them in it).
      await refusedWith((await byName('1º EM - Turma A')).id, 'turma_has_students');
      const left = await byName('2º EM - Turma C');
      const created = await app.request('POST', '/admin/students', {
        payload: { studentId: '3000020', name: 'Elisa Prado', password: 'senha123', grade: '2º EM - Turma C' },
      });
      expect((await app.request('DELETE', `/admin/students/${created.json().student.id}`)).statusCode).toBe(200);
      expect((await byName('2º EM - Turma C')).students).toBe(0);
      await refusedWith(left.id, 'turma_has_students');

      // A Loja item only for the turma would be offered to every turma without it.
      const shop = await byName('2º EM - Turma D');
      const item = await app.request('POST', '/admin/store/items', {
        payload: { name: 'Caderno', price: 5, currency: 'meritus', category: 'material', turmaIds: [shop.id] },
      });
      expect(item.statusCode, item.body).toBe(201);
      await refusedWith(shop.id, 'turma_has_store_items');

      // A student who had operations in the turma moved to another: the rows still queued for the reports' sums hold the
      // turma until they are folded; then its sums are all zero (the student took them along) and it goes with them.
      const carla = app.students[2]!;
      const moved = await byName(carla.grade);
      await app.award(carla.id, 30);
      expect((await app.request('PATCH', `/admin/students/${carla.id}`, { payload: { grade: '3º EM - Turma D' } })).statusCode).toBe(200);
      await refusedWith(moved.id, 'turma_sums_pending');
      await app.db.execute(sql`SELECT ledger_sums_fold(true)`);
      expect((await remove(moved.id)).statusCode).toBe(200);
      expect(await app.db.select().from(ledgerTurmaDays).where(eq(ledgerTurmaDays.turmaId, moved.id))).toEqual([]);

      // Sums that count something in a turma nobody is in (written by hand here) are history: refused.
      const counted = await byName('3º EM - Turma A');
      await app.db.insert(ledgerTurmaDays).values({
        turmaId: counted.id,
        day: '2026-03-02',
        meritusAwarded: 5,
        meritusRemoved: 0,
        meritusTransferred: 0,
      });
      await refusedWith(counted.id, 'turma_has_history');

      // Only the coordination deletes.
      const teacherCookie = await app.loginAdmin(teacher.email);
      expect(
        (await app.request('DELETE', `/admin/turmas/${(await byName('3º EM - Turma B')).id}`, { cookie: teacherCookie })).statusCode,
      ).toBe(403);
      expect(await byName('3º EM - Turma B')).toBeDefined();
    },
  );
});

describe('reading the settings', () => {
  test('the reports read the turmas through the cache the screens read, so they agree until a change is announced to every instance', async () => {
    t = await buildTestApp();
    const app = t;
    const screen = async () =>
      ((await app.request('GET', '/settings')).json() as { turmas: { name: string }[] }).turmas.map((turma) => turma.name);
    const report = async () => (await app.request('GET', '/admin/reports/overview?period=30d')).json().period.availableTurmas as string[];
    const names = await screen();
    expect(await report()).toEqual(names);
    // A row written behind the settings' back announces nothing: neither the screens nor the reports see it yet…
    await app.db.insert(turmas).values({ name: 'Escrita direta', position: 99 });
    expect(await report()).toEqual(names);
    // …until a change through the settings drops every copy.
    expect((await app.request('POST', '/admin/turmas', { payload: { name: 'Robótica' } })).statusCode).toBe(201);
    expect(await report()).toEqual([...names, 'Escrita direta', 'Robótica']);
    expect(await screen()).toEqual(await report());
  });
});
