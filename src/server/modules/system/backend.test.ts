import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addStudents, adminActor, buildTestApp, type TestApp } from '../../test/test-app.ts';
import { idempotencyKeys, sessions, students } from '../../db/schema.ts';
import { hashToken } from '../auth/auth.service.ts';
import { EXPORT_PAGE, exportEntityCsv } from './entities.service.ts';
import {
  ENTITY_IDS,
  FIX_IDS,
  SECRET_MASK,
  type ConfigEntry,
  type EntityPage,
  type MonitoringSnapshot,
  type SystemOverview,
} from '../../../shared/system.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({
    env: {
      METRICS_TOKEN: 'token-de-metricas-muito-secreto',
      ADMIN_PASSWORD: 'senha-do-primeiro-admin',
      ADMIN_EMAIL: 'primeiro@escola.test',
    },
  });
});
afterAll(async () => {
  await t.close();
});

async function get<T>(url: string): Promise<T> {
  const response = await t.request('GET', url);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json() as T;
}

describe('Visão Geral', () => {
  test('counts records per entity from the database and applies the spec health rule beside the real health', async () => {
    const before = await get<SystemOverview>('/admin/system/overview');
    // Four students, one administrator and the administrator's session: 6 records, under 10.
    expect(before.counts).toMatchObject({
      studentsActive: 4,
      studentsRemoved: 0,
      administrators: 1,
      meritusEntries: 0,
      estelecasEntries: 0,
      tags: 0,
      images: 0,
      openSessions: 1,
    });
    expect(before).toMatchObject({ totalRecords: 6, recordHealth: 'warning' });

    await t.award(t.students[0]!.id, 10);
    await t.award(t.students[1]!.id, 3, { currency: 'estelecas' });
    const [extra] = await addStudents(t.db, [
      { studentId: '4000001', name: 'Fábio Extra' },
      { studentId: '4000002', name: 'Gabi Extra' },
    ]);
    await t.db.update(students).set({ deletedAt: new Date() }).where(eq(students.id, extra!.id));
    const after = await get<SystemOverview>('/admin/system/overview');
    expect(after.counts).toMatchObject({ studentsActive: 5, studentsRemoved: 1, meritusEntries: 1, estelecasEntries: 1 });
    expect(after).toMatchObject({ totalRecords: 10, recordHealth: 'healthy' });

    expect(after.health.database.ok).toBe(true);
    expect(after.health.migrations).toMatchObject({ ok: true });
    expect(after.health.migrations.applied).toBe(after.health.migrations.expected);
    expect(after.health.storage.ok).toBe(true);
    expect(after.health.disk.freeBytes).toBeGreaterThan(0);
    expect(after.versions.node).toBe(process.version);
    expect(after.versions.database).toMatch(process.env.TEST_DB === 'postgres' ? /^PostgreSQL \d+/ : /^PGlite \(PostgreSQL \d+/);
    expect(after.instance.id).toBe(t.app.metrics.instance.id);
  });
});

describe('Entidades', () => {
  test('pages and searches on the server; the search takes % and _ literally', async () => {
    const page = await get<EntityPage>(`/admin/system/entities/students?pageSize=25&q=bruno`);
    expect(page.total).toBe(1);
    expect(page.rows[0]).toMatchObject({ studentId: '3000002', name: 'Bruno Henrique Lima', status: 'ativo' });
    expect(page.columns.map((column) => column.key)).not.toContain('passwordHash');

    const seeded = await get<EntityPage>(`/admin/system/entities/students?pageSize=25&q=300000`);
    expect(seeded.rows.map((row) => row.studentId)).toEqual(['3000001', '3000002', '3000003', '3000004']);
    const wildcard = await get<EntityPage>(`/admin/system/entities/students?q=${encodeURIComponent('%')}`);
    expect(wildcard.total).toBe(0);
    const second = await get<EntityPage>(`/admin/system/entities/students?pageSize=25&page=2&q=300000`);
    expect(second).toMatchObject({ total: 4, page: 2, rows: [] });
  });

  test('codes show and are searched by their pt-BR names', async () => {
    await t.award(t.students[2]!.id, 4, { description: 'Feira de ciências' });
    const page = await get<EntityPage>(`/admin/system/entities/meritus_ledger?q=${encodeURIComponent('adição')}`);
    expect(page.rows.length).toBeGreaterThan(0);
    expect(page.rows.every((row) => row.type === 'Adição')).toBe(true);
    expect(page.rows.find((row) => row.description === 'Feira de ciências')).toMatchObject({
      to: '3000003 · Carla Dias Ferreira',
      amount: 4,
    });
  });

  test('bad paging or search is a 400 in pt-BR', async () => {
    for (const query of ['page=0', 'pageSize=7', 'page=abc', `q=${'x'.repeat(101)}`]) {
      const response = await t.request('GET', `/admin/system/entities/students?${query}`);
      expect(response.statusCode, query).toBe(400);
    }
    const long = await t.request('GET', `/admin/system/entities/students?q=${'x'.repeat(101)}`);
    expect(long.json()).toMatchObject({ error: { code: 'search_too_long', message: 'A busca deve ter no máximo 100 caracteres' } });
    expect((await t.request('GET', '/admin/system/entities/passwords')).statusCode).toBe(400);
  });

  test('the CSV export holds every matching row with the column labels and is audited', async () => {
    const response = await t.request('GET', '/admin/system/entities/administrators/export.csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('ID;Nome;Email;Papel;Ativo;Último acesso;Criado em');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('prof@escola.test');
    expect(await t.lastAudit('system.entity_export')).toMatchObject({ actorId: t.admin.id, details: { entity: 'administrators', q: '' } });
  });
});

describe('an export while the table is written', () => {
  test('a row written between two pages neither repeats a row nor leaves one out', async () => {
    const rows = EXPORT_PAGE + 100;
    await t.db.execute(
      sql`INSERT INTO audit_log (actor_kind, action, details)
          SELECT 'system', 'teste.paginas', jsonb_build_object('n', n) FROM generate_series(1, ${rows}) AS n`,
    );
    const { chunks } = await exportEntityCsv(t.db, adminActor(t.admin), 'audit', 'teste.paginas', { timeZone: 'America/Sao_Paulo' });
    let text = '';
    let read = 0;
    for await (const chunk of chunks) {
      text += chunk;
      read += 1;
      // After the header and the first page, the newest row of the table is a new one: read by offset, the second
      // page would start one row earlier and repeat the last of the first.
      if (read === 2)
        await t.db.execute(sql`INSERT INTO audit_log (actor_kind, action, details) VALUES ('system', 'teste.paginas', '{"n": 0}')`);
    }
    const numbers = [...text.matchAll(/""n"": (\d+)/g)].map((match) => Number(match[1]));
    expect(numbers).toHaveLength(rows);
    expect(new Set(numbers).size).toBe(rows);
    expect(Math.min(...numbers)).toBe(1);
  });
});

describe('Configurações', () => {
  test('every variable with its source and a pt-BR explanation; secrets are masked', async () => {
    const { entries } = await get<{ entries: ConfigEntry[] }>('/admin/system/configuration');
    const byName = new Map(entries.map((entry) => [entry.name, entry]));
    expect(byName.get('METRICS_TOKEN')).toMatchObject({ value: SECRET_MASK, source: 'environment', secret: true });
    expect(byName.get('ADMIN_PASSWORD')).toMatchObject({ value: SECRET_MASK, source: 'environment', secret: true });
    expect(byName.get('ADMIN_EMAIL')).toMatchObject({ value: 'primeiro@escola.test', source: 'environment', secret: false });
    expect(byName.get('PORT')).toMatchObject({ value: '3000', source: 'default' });
    expect(byName.get('DEMO')).toMatchObject({ value: 'off', source: 'environment' });
    expect(byName.get('DATABASE_URL')).toMatchObject({ value: null, source: 'default', secret: true });
    for (const entry of entries) expect(entry.description.length, entry.name).toBeGreaterThan(10);
  });
});

describe('Monitoramento', () => {
  test('answers which instance it is and the samples taken so far', async () => {
    const snapshot = await get<MonitoringSnapshot>('/admin/system/monitoring');
    expect(snapshot.instance.id).toBe(t.app.metrics.instance.id);
    expect(snapshot.windowMs).toBe(15 * 60 * 1000);
    expect(snapshot.series.length).toBeLessThanOrEqual(snapshot.windowMs / snapshot.sampleMs);
  });
});

describe('secrets', () => {
  test('no answer of the system area carries a password hash, a session token or its hash, an idempotency key or the metrics token', async () => {
    const studentCookie = await t.loginStudent(t.students[0]!.studentId);
    const adminCookie = await t.loginAdmin();
    await t.award(t.students[0]!.id, 50);
    const idempotencyKey = `chave-${crypto.randomUUID()}`;
    const transfer = await t.request('POST', '/meritus/transfers', {
      cookie: studentCookie,
      payload: { recipientId: t.students[1]!.id, amount: 5 },
    });
    expect(transfer.statusCode).toBe(201);
    const keyed = await t.app.inject({
      method: 'POST',
      url: '/api/meritus/transfers',
      headers: { cookie: studentCookie, 'idempotency-key': idempotencyKey },
      payload: { recipientId: t.students[1]!.id, amount: 1 },
    });
    expect(keyed.statusCode).toBe(201);
    expect(await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, idempotencyKey))).toHaveLength(1);

    const tokens = [studentCookie, adminCookie].map((cookie) => cookie.split('=')[1]!);
    const secrets = [
      t.admin.passwordHash,
      t.students[0]!.passwordHash,
      ...tokens,
      ...tokens.map(hashToken),
      ...(await t.db.select({ tokenHash: sessions.tokenHash }).from(sessions)).map((row) => row.tokenHash),
      idempotencyKey,
      'token-de-metricas-muito-secreto',
      'senha-do-primeiro-admin',
    ];
    expect(secrets.every((secret) => secret.length > 10)).toBe(true);

    const urls = [
      '/admin/system/overview',
      '/admin/system/monitoring',
      '/admin/system/configuration',
      '/admin/diagnostics/logs',
      ...FIX_IDS.map((fix) => `/admin/diagnostics/fixes/${fix}/preview`),
      ...ENTITY_IDS.flatMap((entity) => [`/admin/system/entities/${entity}?pageSize=100`, `/admin/system/entities/${entity}/export.csv`]),
    ];
    const answers = await Promise.all(
      urls.map(async (url) => ({ url, body: (await t.request('GET', url, { cookie: adminCookie })).body })),
    );
    for (const method of ['POST'] as const) {
      answers.push({
        url: '/admin/diagnostics/run',
        body: (await t.request(method, '/admin/diagnostics/run', { cookie: adminCookie })).body,
      });
      answers.push({
        url: '/admin/diagnostics/fixes/administrators',
        body: (await t.request(method, '/admin/diagnostics/fixes/administrators', { cookie: adminCookie })).body,
      });
    }
    // The sessions and the ledger really are in the pages scanned.
    const sessionsPage = answers.find((answer) => answer.url.startsWith('/admin/system/entities/sessions'))!;
    expect(sessionsPage.body).toContain('Ana Beatriz Souza');
    const found = answers.flatMap(({ url, body }) =>
      secrets.filter((secret) => body.includes(secret)).map((secret) => `${url}: ${secret.slice(0, 12)}…`),
    );
    expect(found).toEqual([]);
  });
});
