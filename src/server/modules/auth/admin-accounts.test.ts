import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { adminActor, buildTestApp, type TestApp } from '../../test/test-app.ts';
import { admins, auditLog } from '../../db/schema.ts';
import { createAdmin } from './admin-accounts.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

/**
 * The administrators stored with this email and the audit records of their creation. The
 * command line, the diagnostics' fix and the first start are held to the same in their own tests.
 */
async function createdAs(db: TestApp['db'], email: string) {
  const rows = await db.select().from(admins).where(eq(admins.email, email));
  const audit = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'admin.create'), sql`${auditLog.details}->>'email' = ${email}`));
  return { rows, audit };
}

describe('one way to create an administrator', () => {
  test('the settings screen: the email is trimmed and lower-cased, the name keeps single spaces, one admin.create record', async () => {
    const response = await t.request('POST', '/admin/admins', {
      payload: { name: '  Nova   Coordenadora ', email: '  Nova.Coord@Escola.TEST ', password: 'senha-da-nova' },
    });
    expect(response.statusCode).toBe(201);
    const { rows, audit } = await createdAs(t.db, 'nova.coord@escola.test');
    expect(rows.map((row) => [row.name, row.adminId])).toEqual([['Nova Coordenadora', 'admin001']]);
    expect(audit).toMatchObject([{ actorKind: 'admin', actorId: t.admin.id, details: { adminId: rows[0]!.id, generatedPassword: false } }]);
    // The same email in another spelling is the same email.
    const again = await t.request('POST', '/admin/admins', { payload: { name: 'Outra', email: 'NOVA.COORD@escola.test' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('email_taken');
  });

  test('two creations of one email at once (the screen and the command line) make one administrator', async () => {
    const results = await Promise.allSettled([
      t
        .request('POST', '/admin/admins', { payload: { name: 'Pela Tela', email: 'Dupla@Escola.test', password: 'senha-da-tela' } })
        .then((response) => {
          if (response.statusCode !== 201) throw new Error(response.json().error.code);
        }),
      createAdmin(
        { db: t.db },
        { role: 'system', name: 'npm run admin:create' },
        { name: 'Pelo Terminal', email: ' dupla@escola.TEST', password: 'senha-do-cli' },
      ),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refusal = results.find((result) => result.status === 'rejected')!.reason as { code?: string; message: string };
    expect(refusal.code ?? refusal.message).toBe('email_taken');
    const { rows, audit } = await createdAs(t.db, 'dupla@escola.test');
    expect(rows).toHaveLength(1);
    expect(audit).toHaveLength(1);
  });

  test('the readable id follows the highest in use, and a creation without a password gets a readable one, shown once', async () => {
    await t.db.insert(admins).values({ adminId: 'admin041', name: 'Antiga', email: 'antiga@escola.test', passwordHash: 'x' });
    const created = await createAdmin({ db: t.db }, adminActor(t.admin), { name: 'Sem Senha', email: 'sem.senha@escola.test' });
    expect(created.adminId).toBe('admin042');
    expect(created.password).toMatch(/^[a-z]{4}-[a-z]{4}-\d{2}$/);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      payload: { email: 'SEM.SENHA@escola.test', password: created.password },
    });
    expect(login.statusCode).toBe(200);
  });
});
