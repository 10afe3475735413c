import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { addStudents, buildTestApp, type TestApp } from '../../test/test-app.ts';
import { admins, auditLog, diagnosticLogs, students, studentTags } from '../../db/schema.ts';
import { sqlState } from '../../db/sql-state.ts';
import { verifyPassword } from '../auth/password.ts';
import {
  DEFAULT_ADMIN,
  type DiagnosticLog,
  type DiagnosticRun,
  type FixAdministratorsResult,
  type FixPreview,
  type FixResult,
} from '../../../shared/system.ts';
import { fixAdministrators } from './diagnostics.service.ts';
import { ORPHAN_MIN_AGE_MS } from './photo-files.ts';
import { localFileStorage } from '../../storage/file-storage.ts';
import { silentEvents } from '../../realtime/event-bus.ts';
import { createSettingsStore } from '../settings/settings.service.ts';
import { coordinatorActor } from '../auth/actor.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

async function call<T>(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown): Promise<{ status: number; body: T }> {
  const response = await t.request(method, url, { payload });
  return { status: response.statusCode, body: response.json() as T };
}

async function run(): Promise<DiagnosticRun> {
  const { status, body } = await call<DiagnosticRun>('POST', '/admin/diagnostics/run');
  expect(status).toBe(200);
  return body;
}

const problems = (logs: DiagnosticLog[]) => logs.filter((log) => log.status === 'error' || log.status === 'warning');

/** A photo file under the uploads folder, written `ageMs` ago. */
function writePhotoFile(key: string, ageMs: number): string {
  const file = path.join(t.config.uploadsDir, key);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.from('RIFF0000WEBPVP8 '));
  const at = new Date(Date.now() - ageMs);
  fs.utimesSync(file, at, at);
  return file;
}

describe('a clean school', () => {
  test('every check of every category runs and none reports a problem; the run is stored and listed newest first', async () => {
    const result = await run();
    expect(problems(result.logs)).toEqual([]);
    expect(new Set(result.logs.map((log) => log.category))).toEqual(
      new Set(['CONNECTIVITY', 'ADMINISTRATORS', 'STUDENTS', 'TRANSACTIONS', 'AUTH', 'SYSTEM']),
    );
    expect(result.fixes).toEqual([]);
    expect(result.counters).toMatchObject({ administrators: 1, students: 4, transactions: 0 });
    expect(result.counters.logs).toBeGreaterThanOrEqual(result.logs.length);

    const listed = await call<{ logs: DiagnosticLog[] }>('GET', `/admin/diagnostics/logs?category=TRANSACTIONS`);
    expect(listed.body.logs.length).toBeGreaterThan(0);
    expect(listed.body.logs.every((log) => log.category === 'TRANSACTIONS')).toBe(true);
    expect(listed.body.logs.map((log) => log.id)).toEqual(
      result.logs
        .filter((log) => log.category === 'TRANSACTIONS')
        .map((log) => log.id)
        .reverse(),
    );
  });

  test('an unknown category or fix is a 400 with a pt-BR message, and changes nothing', async () => {
    const before = (await t.db.select({ n: count() }).from(diagnosticLogs))[0]!.n;
    const category = await call<{ error: { message: string } }>('GET', `/admin/diagnostics/logs?category=NOPE`);
    expect(category.status).toBe(400);
    expect(category.body.error.message).toBe('Dados inválidos');
    const fix = await call<{ error: { message: string } }>('POST', '/admin/diagnostics/fixes/drop_everything', { keys: [] });
    expect(fix.status).toBe(400);
    const keys = await call('POST', '/admin/diagnostics/fixes/expired_tags', { keys: 'all' });
    expect(keys.status).toBe(400);
    expect((await t.db.select({ n: count() }).from(diagnosticLogs))[0]!.n).toBe(before);
  });
});

describe('each check finds what it is for', () => {
  test('a balance changed behind the ledger is reported under STUDENTS and TRANSACTIONS, and left as it is', async () => {
    const ana = t.students[0]!;
    await t.db.execute(sql`UPDATE students SET meritus = 7 WHERE id = ${ana.id}`);
    try {
      const result = await run();
      const student = result.logs.find((log) => log.category === 'STUDENTS' && log.status === 'error')!;
      expect(student.message).toBe('1 saldo diverge do razão; nada foi alterado');
      expect(student.details.discrepancies).toEqual([
        { kind: 'balance_mismatch', studentUuid: ana.id, studentId: ana.studentId, field: 'meritus', stored: 7, fromLedger: 0 },
      ]);
      const invariants = result.logs.filter((log) => log.category === 'TRANSACTIONS' && log.status === 'error').map((log) => log.message);
      expect(invariants).toEqual([
        'Invariantes 1 e 2: 1 saldo difere da soma do razão (ver STUDENTS)',
        'Invariante 4: a soma dos saldos difere do saldo das operações de administradores, compras, devoluções e contribuições',
      ]);
      const [row] = await t.db.select({ meritus: students.meritus }).from(students).where(eq(students.id, ana.id));
      expect(row!.meritus).toBe(7);
    } finally {
      await t.db.execute(sql`UPDATE students SET meritus = 0 WHERE id = ${ana.id}`);
    }
  });

  test('removed students are checked against the ledger too, and the message says how many of them there are', async () => {
    const clean = await run();
    expect(clean.logs.find((log) => log.category === 'STUDENTS' && log.status === 'success')!.message).toBe(
      'Méritus, Estelecas e total ganho conferem com o razão (4 estudantes)',
    );
    const [leaving] = await addStudents(t.db, [{ studentId: '3000099', name: 'Helena Saída' }]);
    try {
      expect((await t.request('DELETE', `/admin/students/${leaving!.id}`)).statusCode).toBe(200);
      const result = await run();
      expect(result.logs.find((log) => log.category === 'STUDENTS' && log.status === 'success')!.message).toBe(
        'Méritus, Estelecas e total ganho conferem com o razão (5 estudantes, 1 removido)',
      );
      expect(result.counters.students).toBe(4);
    } finally {
      await t.db.delete(students).where(eq(students.id, leaving!.id));
    }
  });

  test('an administrator without a required field is named with what is missing', async () => {
    const [broken] = await t.db
      .insert(admins)
      .values({ adminId: 'adm-sem-nome', name: '  ', email: 'sem.nome@escola.test', passwordHash: '' })
      .returning();
    try {
      const result = await run();
      const found = result.logs.find((log) => log.category === 'ADMINISTRATORS' && log.status === 'error')!;
      expect(found.message).toBe('1 administrador sem campo obrigatório');
      expect(found.details.administrators).toEqual([
        { id: broken!.id, adminId: 'adm-sem-nome', email: 'sem.nome@escola.test', missing: ['name', 'password'] },
      ]);
      expect(problems(result.logs).filter((log) => log.category === 'ADMINISTRATORS')).toHaveLength(1);
    } finally {
      await t.db.delete(admins).where(eq(admins.id, broken!.id));
    }
  });

  test('an expired tag not yet swept is reported, previewed, removed by its fix once, logged as FIX with before/after and audited', async () => {
    const diego = t.students[3]!;
    const [tag] = await t.db
      .insert(studentTags)
      .values({
        studentUuid: diego.id,
        kind: 'angel',
        assignedAt: new Date(Date.now() - 8 * 86_400_000),
        expiresAt: new Date(Date.now() - 86_400_000),
      })
      .returning();
    const [current] = await t.db
      .insert(studentTags)
      .values({ studentUuid: diego.id, kind: 'leader', expiresAt: new Date(Date.now() + 86_400_000) })
      .returning();
    try {
      const result = await run();
      const found = result.logs.find((log) => log.category === 'STUDENTS' && log.status === 'warning')!;
      expect(found.message).toBe('1 tag expirada ainda não removida');
      expect(result.fixes).toEqual(['expired_tags']);

      const preview = await call<FixPreview>('GET', '/admin/diagnostics/fixes/expired_tags/preview');
      expect(preview.body.items).toHaveLength(1);
      expect(preview.body.items[0]).toMatchObject({ key: tag!.id });
      expect(preview.body.items[0]!.label).toContain('Anjo da Semana de Diego Martins Rocha (3000004)');

      const applied = await call<FixResult>('POST', '/admin/diagnostics/fixes/expired_tags', {
        keys: [tag!.id, current!.id, 'não-é-uma-tag'],
      });
      expect(applied.status).toBe(200);
      expect(applied.body).toMatchObject({ before: 1, after: 0, applied: [{ key: tag!.id }] });
      expect(applied.body.log).toMatchObject({ category: 'FIX', status: 'success', details: { before: 1, after: 0 } });
      const left = await t.db.select({ id: studentTags.id }).from(studentTags).where(eq(studentTags.studentUuid, diego.id));
      expect(left.map((row) => row.id)).toEqual([current!.id]);
      const audits = await t.db.select().from(auditLog).where(eq(auditLog.action, 'diagnostics.fix.expired_tags'));
      expect(audits).toHaveLength(1);
      expect(audits[0]!.actorId).toBe(t.admin.id);

      const again = await call<FixResult>('POST', '/admin/diagnostics/fixes/expired_tags', { keys: [tag!.id] });
      expect(again.body).toMatchObject({ before: 0, after: 0, applied: [] });
      expect(again.body.log).toMatchObject({ category: 'FIX', status: 'info' });
    } finally {
      await t.db.delete(studentTags).where(eq(studentTags.studentUuid, diego.id));
    }
  });

  test("an expired tag's time is written in the school's time zone", async () => {
    const diego = t.students[3]!;
    await t.db.insert(studentTags).values({
      studentUuid: diego.id,
      kind: 'angel',
      assignedAt: new Date('2026-01-08T03:30:00Z'),
      expiresAt: new Date('2026-01-15T03:30:00Z'),
    });
    try {
      const label = async () => (await call<FixPreview>('GET', '/admin/diagnostics/fixes/expired_tags/preview')).body.items[0]!.label;
      expect(await label()).toContain('expirou em 15/01/2026, 00:30');
      expect(
        (await t.request('PUT', '/admin/settings/school', { payload: { name: 'Escola Méritus', timeZone: 'Asia/Tokyo' } })).statusCode,
      ).toBe(200);
      expect(await label()).toContain('expirou em 15/01/2026, 12:30');
    } finally {
      await t.request('PUT', '/admin/settings/school', { payload: { name: 'Escola Méritus', timeZone: 'America/Sao_Paulo' } });
      await t.db.delete(studentTags).where(eq(studentTags.studentUuid, diego.id));
    }
  });

  test(
    "a student's turma is a reference the database keeps, " +
      "so no check of série names is left to fail; a retired turma's student is no problem",
    async () => {
      const ana = t.students[0]!;
      const created = await t.request('POST', '/admin/turmas', { payload: { name: '9º Ano B' } });
      const turma = created.json().turma as { id: string };
      await t.db.update(students).set({ turmaId: turma.id }).where(eq(students.id, ana.id));
      expect((await t.request('PATCH', `/admin/turmas/${turma.id}`, { payload: { retired: true } })).statusCode).toBe(200);
      try {
        const unknown = await t.db
          .update(students)
          .set({ turmaId: randomUUID() })
          .where(eq(students.id, ana.id))
          .catch((error: unknown) => sqlState(error));
        expect(unknown).toBe('23503');
        const { logs } = await run();
        expect(problems(logs)).toEqual([]);
        expect(logs.filter((log) => /séries?\b/.test(log.message))).toEqual([]);
      } finally {
        await t.db.update(students).set({ turmaId: ana.turmaId }).where(eq(students.id, ana.id));
      }
    },
  );

  test('a photo file without a record is reported and removed by its fix; a record without its file is reported; a fresh upload is left alone', async () => {
    const carla = t.students[2]!;
    const orphanKey = `students/${randomUUID()}/0123456789abcdef.webp`;
    const orphan = writePhotoFile(orphanKey, ORPHAN_MIN_AGE_MS + 60_000);
    const orphanThumb = writePhotoFile(orphanKey.replace('.webp', '.thumb.webp'), ORPHAN_MIN_AGE_MS + 60_000);
    const fresh = writePhotoFile(`students/${randomUUID()}/fedcba9876543210.webp`, 0);
    const keptKey = `students/${carla.id}/00112233aabbccdd.webp`;
    const kept = writePhotoFile(keptKey, ORPHAN_MIN_AGE_MS + 60_000);
    const missingUrl = `/uploads/students/${t.students[1]!.id}/ffeeddccbbaa9988.webp`;
    await t.db
      .update(students)
      .set({ photoUrl: `/uploads/${keptKey}` })
      .where(eq(students.id, carla.id));
    await t.db.update(students).set({ photoUrl: missingUrl }).where(eq(students.id, t.students[1]!.id));
    try {
      const result = await run();
      const system = result.logs.find((log) => log.category === 'SYSTEM' && log.status === 'warning')!;
      expect(system.details.orphanFiles).toEqual(expect.arrayContaining([orphanKey, orphanKey.replace('.webp', '.thumb.webp')]));
      expect(system.details.orphanFiles).toHaveLength(2);
      expect(system.details.missingFiles).toEqual([{ studentUuid: t.students[1]!.id, studentId: '3000002', photoUrl: missingUrl }]);
      const student = result.logs.find((log) => log.category === 'STUDENTS' && log.status === 'warning')!;
      expect(student.message).toBe('1 foto aponta para arquivo inexistente');
      expect(result.fixes).toEqual(['orphan_photos']);

      const preview = await call<FixPreview>('GET', '/admin/diagnostics/fixes/orphan_photos/preview');
      const keys = preview.body.items.map((item) => item.key);
      expect(keys.sort()).toEqual([orphanKey, orphanKey.replace('.webp', '.thumb.webp')].sort());
      // A key that is not in the preview (here a file with a record) is never removed.
      const applied = await call<FixResult>('POST', '/admin/diagnostics/fixes/orphan_photos', {
        keys: [...keys, keptKey, '../../etc/passwd'],
      });
      expect(applied.body).toMatchObject({ before: 2, after: 0 });
      expect([fs.existsSync(orphan), fs.existsSync(orphanThumb), fs.existsSync(fresh), fs.existsSync(kept)]).toEqual([
        false,
        false,
        true,
        true,
      ]);
      expect(await t.db.select().from(auditLog).where(eq(auditLog.action, 'diagnostics.fix.orphan_photos'))).toHaveLength(1);
    } finally {
      await t.db
        .update(students)
        .set({ photoUrl: null })
        .where(sql`${students.id} IN (${carla.id}, ${t.students[1]!.id})`);
      fs.rmSync(path.join(t.config.uploadsDir, 'students'), { recursive: true, force: true });
    }
  });

  test('a server error (5xx) is reported with its request id', async () => {
    const other = await buildTestApp();
    try {
      // A route fails as a defect would (every API route is the contract's, so an existing one): its table is gone from this app's own database.
      await other.db.execute(sql`DROP TABLE reason_presets`);
      const failed = await other.request('GET', '/admin/reason-presets');
      expect(failed.statusCode).toBe(500);
      const result = (await other.request('POST', '/admin/diagnostics/run')).json() as DiagnosticRun;
      const found = result.logs.find((log) => log.category === 'SYSTEM' && log.status === 'error')!;
      expect(found.details.errors).toEqual([
        expect.objectContaining({ route: '/api/admin/reason-presets', status: 500, method: 'GET', requestId: expect.any(String) }),
      ]);
    } finally {
      await other.close();
    }
  });
});

describe('Corrigir Administrators', () => {
  test('with an administrator present it creates nothing, shows no password, logs FIX and runs the diagnostic again', async () => {
    const before = await t.db.select().from(admins);
    const { status, body } = await call<FixAdministratorsResult>('POST', '/admin/diagnostics/fixes/administrators');
    expect(status).toBe(200);
    expect(body).toMatchObject({ created: false, admin: null, password: null });
    expect(body.run.logs.length).toBeGreaterThan(0);
    expect(await t.db.select().from(admins)).toEqual(before);
    const [fixLog] = await t.db
      .select()
      .from(diagnosticLogs)
      .where(eq(diagnosticLogs.category, 'FIX'))
      .orderBy(sql`id DESC`)
      .limit(1);
    expect(fixLog).toMatchObject({ status: 'info', details: { fix: 'administrators', before: 1, after: 1 } });
  });

  test('with none, two clicks at once create exactly one default administrator, whose one-time password signs in and is stored nowhere in clear', async () => {
    // ADMIN_EMAIL as typed in a deployment: stored as every way of creating an administrator stores an email.
    const other = await buildTestApp({ env: { ADMIN_EMAIL: 'Diretoria@Escola.TEST', ADMIN_PASSWORD: 'senha-da-diretoria' } });
    try {
      await other.db.delete(admins);
      const actor = coordinatorActor({ id: randomUUID(), name: 'Suporte', email: 'suporte@escola.test' });
      const deps = {
        database: other.database,
        config: other.config,
        metrics: other.app.metrics,
        settings: createSettingsStore(other.db, silentEvents),
        storage: localFileStorage(other.config.uploadsDir),
      };
      const results = await Promise.all([fixAdministrators(deps, actor, {}), fixAdministrators(deps, actor, {})]);
      const created = results.filter((result) => result.created);
      expect(created).toHaveLength(1);
      expect(results.find((result) => !result.created)).toMatchObject({ admin: null, password: null });
      const rows = await other.db.select().from(admins);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        adminId: DEFAULT_ADMIN.adminId,
        name: 'Administrador Principal',
        role: 'coordinator',
        active: true,
        email: 'diretoria@escola.test',
      });
      const password = created[0]!.password!;
      expect(password.length).toBeGreaterThanOrEqual(16);
      expect(await verifyPassword(rows[0]!.passwordHash, password)).toBe(true);
      const login = await other.app.inject({
        method: 'POST',
        url: '/api/auth/admin/login',
        payload: { email: 'diretoria@escola.test', password },
      });
      expect(login.statusCode).toBe(200);
      const stored = JSON.stringify([await other.db.select().from(diagnosticLogs), await other.db.select().from(auditLog)]);
      expect(stored).not.toContain(password);
      const audit = await other.db.select().from(auditLog).where(eq(auditLog.action, 'admin.create'));
      expect(audit).toMatchObject([
        { actorKind: 'admin', actorId: actor.id, details: { adminId: rows[0]!.id, email: 'diretoria@escola.test' } },
      ]);

      // A third click finds the one just created.
      const third = await fixAdministrators(deps, actor, {});
      expect(third.created).toBe(false);
      expect(await other.db.select({ n: count() }).from(admins)).toEqual([{ n: 1 }]);
    } finally {
      await other.close();
    }
  });
});

describe('Limpar Logs', () => {
  beforeEach(async () => {
    await run();
  });

  test('removes every diagnostic log, says how many, and is audited', async () => {
    const before = (await t.db.select({ n: count() }).from(diagnosticLogs))[0]!.n;
    expect(before).toBeGreaterThan(0);
    const { status, body } = await call<{ removed: number }>('DELETE', '/admin/diagnostics/logs');
    expect(status).toBe(200);
    expect(body.removed).toBe(before);
    const listed = await call<{ logs: DiagnosticLog[]; counters: { logs: number } }>('GET', '/admin/diagnostics/logs');
    expect(listed.body.logs).toEqual([]);
    expect(listed.body.counters.logs).toBe(0);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'diagnostics.logs_cleared'))
      .orderBy(sql`id DESC`)
      .limit(1);
    expect(audit).toMatchObject({ actorId: t.admin.id, details: { removed: before } });
  });
});
