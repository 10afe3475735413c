import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { and, count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { addAdmin, adminActor, buildTestApp, testConfig, turmaIdOf, type TestApp } from '../../test/test-app.ts';
import { buildApp } from '../../app.ts';
import { admins, auditLog, sessions, staffTurmas, turmas } from '../../db/schema.ts';
import { DEFAULT_RULES } from '../../../shared/settings.ts';
import type { StaffMember, StaffWithPassword } from '../../../shared/staff.ts';
import { createStaffMember } from './staff.service.ts';
import { openStream } from '../../realtime/sse-test-client.ts';

let t: TestApp;
/** A second server instance on the same database: what one instance changes, the other must see at once. */
let other: FastifyInstance;
let otherDataDir: string;
let otherUrl: string;
let turmaA: string;
let turmaB: string;
beforeAll(async () => {
  t = await buildTestApp();
  const otherConfig = testConfig();
  otherDataDir = otherConfig.dataDir;
  other = await buildApp(otherConfig, t.database);
  otherUrl = await other.listen({ port: 0, host: '127.0.0.1' });
  turmaA = await turmaIdOf(t.db, '1º EM - Turma A');
  turmaB = await turmaIdOf(t.db, '1º EM - Turma B');
});
afterAll(async () => {
  await other.close();
  fs.rmSync(otherDataDir, { recursive: true, force: true });
  await t.close();
});

const tokenOf = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);
/** A request to the other instance. */
const onOther = (method: 'GET' | 'POST', url: string, cookie: string) => other.inject({ method, url: `/api${url}`, headers: { cookie } });

async function addTeacher(payload: Record<string, unknown>): Promise<StaffWithPassword> {
  const response = await t.request('POST', '/admin/staff', { payload: { role: 'teacher', ...payload } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function rowCounts() {
  const [[a], [l]] = await Promise.all([t.db.select({ n: count() }).from(admins), t.db.select({ n: count() }).from(staffTurmas)]);
  return { admins: a!.n, links: l!.n };
}

describe('adding a member', () => {
  test('a teacher with turmas: the password is answered once, they sign in as a teacher of those turmas; audited', async () => {
    const created = await addTeacher({
      name: '  Paulo   Freire ',
      email: ' Paulo.Freire@Escola.TEST ',
      turmaIds: [turmaB, turmaA, turmaA],
    });
    expect(created).toMatchObject({
      name: 'Paulo Freire',
      email: 'paulo.freire@escola.test',
      role: 'teacher',
      // Each once, in the school's order.
      turmaIds: [turmaA, turmaB],
      weeklyBudget: null,
      active: true,
      lastLoginAt: null,
    });
    expect(created.password).toMatch(/^[a-z]{4}-[a-z]{4}-\d{2}$/);
    const cookie = await t.loginAdmin('paulo.freire@escola.test', created.password!);
    const me = (await t.request('GET', '/auth/me', { cookie })).json();
    expect(me).toMatchObject({ role: 'teacher', admin: { turmas: [{ id: turmaA }, { id: turmaB }] } });
    expect((await t.lastAudit('admin.create'))?.details).toMatchObject({
      adminId: created.id,
      role: 'teacher',
      turmaIds: [turmaA, turmaB],
      generatedPassword: true,
    });
    // The list shows the sign-in; the password is never listed.
    const listed = (await t.request('GET', '/admin/staff')).json() as StaffMember[];
    const paulo = listed.find((member) => member.id === created.id)!;
    expect(paulo.lastLoginAt).not.toBeNull();
    expect(paulo).not.toHaveProperty('password');
    expect(listed.find((member) => member.id === t.admin.id)).toMatchObject({ role: 'coordinator', turmaIds: [], weeklyBudget: null });
  });

  test("a teacher without a budget gets the school's default; null is no limit; a coordinator has every turma and no budget", async () => {
    const rules = { ...DEFAULT_RULES, defaultTeacherBudget: { meritus: 300, estelecas: null } };
    const bad = await t.request('PUT', '/admin/settings/rules', {
      payload: { ...rules, defaultTeacherBudget: { meritus: -5, estelecas: null } },
    });
    expect(bad.json().error).toMatchObject({
      code: 'invalid_staff_budget',
      fields: { 'defaultTeacherBudget.meritus': expect.any(String) },
    });
    expect((await t.request('PUT', '/admin/settings/rules', { payload: rules })).statusCode).toBe(200);
    try {
      expect(await addTeacher({ name: 'Com Padrão', email: 'padrao@escola.test' })).toMatchObject({
        weeklyBudget: { meritus: 300, estelecas: null },
      });
      expect(await addTeacher({ name: 'Sem Limite', email: 'sem.limite@escola.test', weeklyBudget: null })).toMatchObject({
        weeklyBudget: null,
      });
      expect(
        await addTeacher({ name: 'Com Limite', email: 'com.limite@escola.test', weeklyBudget: { meritus: 0, estelecas: 20 } }),
      ).toMatchObject({ weeklyBudget: { meritus: 0, estelecas: 20 } });
      const coordinator = await t.request('POST', '/admin/staff', {
        payload: {
          name: 'Vice',
          email: 'vice@escola.test',
          role: 'coordinator',
          turmaIds: [turmaA],
          weeklyBudget: { meritus: 5, estelecas: 5 },
        },
      });
      expect(coordinator.json()).toMatchObject({ role: 'coordinator', turmaIds: [], weeklyBudget: null });
    } finally {
      await t.request('PUT', '/admin/settings/rules', { payload: DEFAULT_RULES });
    }
  });

  test('bad input is refused with its message and writes nothing', async () => {
    const [retired] = await t.db.insert(turmas).values({ name: 'Turma Antiga', position: 99, retiredAt: new Date() }).returning();
    const before = await rowCounts();
    const refused = async (payload: Record<string, unknown>, status: number, code: string, message: string) => {
      const response = await t.request('POST', '/admin/staff', {
        payload: { name: 'Rita Moura', email: 'rita@escola.test', role: 'teacher', ...payload },
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json().error).toMatchObject({ code, message });
    };
    const turmasMessage = 'Escolha somente turmas ativas da escola';
    await refused({ turmaIds: [retired!.id] }, 400, 'staff_turmas_invalid', turmasMessage);
    await refused({ turmaIds: [turmaA, '00000000-0000-4000-8000-000000000000'] }, 400, 'staff_turmas_invalid', turmasMessage);
    await refused({ turmaIds: ['not-an-id'] }, 400, 'staff_turmas_invalid', turmasMessage);
    await refused({ turmaIds: Array.from({ length: 201 }, () => turmaA) }, 400, 'staff_turmas_invalid', turmasMessage);
    await refused({ role: 'admin' }, 400, 'invalid_staff_role', 'Escolha o papel: Coordenação ou Professor');
    const budgetMessage = 'O limite semanal deve ser um número inteiro de 0 a 1.000.000 (vazio: sem limite)';
    await refused({ weeklyBudget: { meritus: -1, estelecas: null } }, 400, 'invalid_staff_budget', budgetMessage);
    await refused({ weeklyBudget: { meritus: 1.5, estelecas: null } }, 400, 'invalid_staff_budget', budgetMessage);
    await refused({ weeklyBudget: { meritus: 1_000_001, estelecas: null } }, 400, 'invalid_staff_budget', budgetMessage);
    await refused({ name: '   ' }, 400, 'admin_name_required', 'Informe o nome da pessoa');
    await refused({ email: 'PROF@escola.test' }, 409, 'email_taken', 'Este email já está em uso');
    await refused({ password: 'curta' }, 400, 'admin_password_too_short', 'A senha do administrador deve ter pelo menos 8 caracteres');
    expect(await rowCounts()).toEqual(before);
    // A teacher may not manage the staff at all.
    const teacher = await addAdmin(t.db, { email: 'prof.b@escola.test', name: 'Prof B', role: 'teacher', turmaIds: [turmaB] });
    const cookie = await t.loginAdmin(teacher.email);
    for (const [method, url] of [
      ['GET', '/admin/staff'],
      ['POST', '/admin/staff'],
      ['PATCH', `/admin/staff/${teacher.id}`],
      ['POST', `/admin/staff/${teacher.id}/password`],
    ] as const)
      expect((await t.request(method, url, { cookie, payload: { role: 'coordinator' } })).statusCode, url).toBe(403);
  });

  test('the command line and the screen creating one email at once make one member', async () => {
    const results = await Promise.allSettled([
      t
        .request('POST', '/admin/staff', { payload: { name: 'Pela Tela', email: 'Dupla@Escola.test', role: 'teacher' } })
        .then((response) => {
          if (response.statusCode !== 201) throw new Error(response.json().error.code);
        }),
      createStaffMember(
        { db: t.db },
        { role: 'system', name: 'npm run admin:create' },
        { name: 'Pelo Terminal', email: ' dupla@escola.TEST', password: 'senha-do-cli' },
      ),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refusal = results.find((result) => result.status === 'rejected')!.reason as { code?: string; message: string };
    expect(refusal.code ?? refusal.message).toBe('email_taken');
    expect(await t.db.select().from(admins).where(eq(admins.email, 'dupla@escola.test'))).toHaveLength(1);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'admin.create'), sql`${auditLog.details}->>'email' = 'dupla@escola.test'`));
    expect(audit).toHaveLength(1);
  });

  test('the readable id follows the highest in use; a coordinator by default, as the command line and the first start make', async () => {
    await t.db.insert(admins).values({ adminId: 'admin041', name: 'Antiga', email: 'antiga@escola.test', passwordHash: 'x' });
    const created = await createStaffMember({ db: t.db }, adminActor(t.admin), { name: 'Sem Senha', email: 'sem.senha@escola.test' });
    expect(created).toMatchObject({ adminId: 'admin042', role: 'coordinator' });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      payload: { email: 'SEM.SENHA@escola.test', password: created.password },
    });
    expect(login.json()).toMatchObject({ role: 'coordinator' });
  });
});

test('the list reads names in the order a Brazilian reader expects: accents and case do not push a name to the end', async () => {
  for (const name of ['Zuleica Prado', 'Álvaro Nunes', 'érica Lima', 'Bruna Souza']) {
    await addTeacher({ name, email: `${name.split(' ')[1]!.toLowerCase()}.ordem@escola.test` });
  }
  const response = await t.request('GET', '/admin/staff');
  const names = (response.json() as StaffMember[]).map((member) => member.name);
  const order = ['Álvaro Nunes', 'Bruna Souza', 'érica Lima', 'Zuleica Prado'];
  expect(names.filter((name) => order.includes(name))).toEqual(order);
});

describe('changing a member', () => {
  test('role and turmas: every instance reads the member anew on their next request; audited', async () => {
    const teacher = await addTeacher({ name: 'Cecília Meireles', email: 'cecilia@escola.test', turmaIds: [turmaA] });
    const cookie = await t.loginAdmin('cecilia@escola.test', teacher.password!);
    // Both instances have the teacher's session cached.
    expect((await onOther('GET', '/admin/staff', cookie)).statusCode).toBe(403);
    expect((await t.request('GET', '/admin/staff', { cookie })).statusCode).toBe(403);
    expect((await other.sessionCache.resolve(tokenOf(cookie)))?.role).toBe('admin');
    // Their open page's stream, on the other instance: it ends, so the page reconnects as what they now are.
    const stream = await openStream(otherUrl, cookie);
    await stream.waitFor((events) => events.some((event) => event.event === 'ready'));

    const moved = await t.request('PATCH', `/admin/staff/${teacher.id}`, {
      payload: { turmaIds: [turmaB], weeklyBudget: { meritus: 200, estelecas: 10 } },
    });
    expect(moved.json()).toMatchObject({ role: 'teacher', turmaIds: [turmaB], weeklyBudget: { meritus: 200, estelecas: 10 } });
    await stream.waitForEnd();
    await vi.waitFor(async () => {
      const principal = await other.sessionCache.resolve(tokenOf(cookie));
      expect(principal).toMatchObject({ staffRole: 'teacher', turmaIds: [turmaB] });
    });
    await vi.waitFor(async () => expect(await t.app.sessionCache.resolve(tokenOf(cookie))).toMatchObject({ turmaIds: [turmaB] }));
    expect((await t.lastAudit('admin.update'))?.details).toMatchObject({
      adminId: teacher.id,
      changed: { turmaIds: { from: [turmaA], to: [turmaB] }, weeklyBudget: { from: null, to: { meritus: 200, estelecas: 10 } } },
    });

    const promoted = await t.request('PATCH', `/admin/staff/${teacher.id}`, { payload: { role: 'coordinator' } });
    expect(promoted.json()).toMatchObject({ role: 'coordinator', turmaIds: [], weeklyBudget: null });
    await vi.waitFor(async () => expect((await onOther('GET', '/admin/staff', cookie)).statusCode).toBe(200));
    await vi.waitFor(async () => expect((await t.request('GET', '/admin/staff', { cookie })).statusCode).toBe(200));

    // Made a teacher again without a budget: the school's default, as a new teacher.
    const demoted = await t.request('PATCH', `/admin/staff/${teacher.id}`, { payload: { role: 'teacher', turmaIds: [turmaA] } });
    expect(demoted.json()).toMatchObject({ role: 'teacher', turmaIds: [turmaA], weeklyBudget: null });
    await vi.waitFor(async () => expect((await onOther('GET', '/admin/staff', cookie)).statusCode).toBe(403));

    // Nothing to change: the member as they are, no record.
    const audits = await t.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, 'admin.update'));
    expect((await t.request('PATCH', `/admin/staff/${teacher.id}`, { payload: { role: 'teacher' } })).json()).toMatchObject({
      turmaIds: [turmaA],
    });
    expect(await t.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, 'admin.update'))).toEqual(audits);
    // A turma retired since stays while it is kept, but cannot be given anew.
    await t.db.update(turmas).set({ retiredAt: new Date() }).where(eq(turmas.id, turmaA));
    try {
      const kept = await t.request('PATCH', `/admin/staff/${teacher.id}`, { payload: { turmaIds: [turmaA, turmaB] } });
      expect(kept.json()).toMatchObject({ turmaIds: [turmaA, turmaB] });
      const someone = await addTeacher({ name: 'Outro', email: 'outro@escola.test' });
      const refused = await t.request('PATCH', `/admin/staff/${someone.id}`, { payload: { turmaIds: [turmaA] } });
      expect(refused.json().error.code).toBe('staff_turmas_invalid');
    } finally {
      await t.db.update(turmas).set({ retiredAt: null }).where(eq(turmas.id, turmaA));
    }
    const unknown = await t.request('PATCH', '/admin/staff/00000000-0000-4000-8000-000000000000', { payload: { active: false } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('Membro da equipe não encontrado');
  });

  test('deactivating ends every session of the member at once, on every instance; they cannot sign in until reactivated', async () => {
    const teacher = await addTeacher({ name: 'Darcy Ribeiro', email: 'darcy@escola.test', password: 'senha-do-darcy' });
    const first = await t.loginAdmin('darcy@escola.test', 'senha-do-darcy');
    const second = await t.loginAdmin('darcy@escola.test', 'senha-do-darcy');
    expect((await onOther('GET', '/auth/me', first)).statusCode).toBe(200);
    expect((await t.request('GET', '/auth/me', { cookie: second })).statusCode).toBe(200);

    const off = await t.request('PATCH', `/admin/staff/${teacher.id}`, { payload: { active: false } });
    expect(off.json()).toMatchObject({ active: false });
    const [left] = await t.db.select({ n: count() }).from(sessions).where(eq(sessions.adminId, teacher.id));
    expect(left!.n).toBe(0);
    await vi.waitFor(async () => expect((await onOther('GET', '/auth/me', first)).statusCode).toBe(401));
    expect((await t.request('GET', '/auth/me', { cookie: second })).statusCode).toBe(401);
    expect((await t.lastAudit('admin.update'))?.details).toMatchObject({
      changed: { active: { from: true, to: false } },
      sessionsEnded: 2,
    });
    // Refused as a wrong password is: the answer does not tell the account exists.
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      payload: { email: 'darcy@escola.test', password: 'senha-do-darcy' },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.message).toBe('Email ou senha incorretos');

    expect((await t.request('PATCH', `/admin/staff/${teacher.id}`, { payload: { active: true } })).json()).toMatchObject({ active: true });
    expect((await t.request('GET', '/auth/me', { cookie: await t.loginAdmin('darcy@escola.test', 'senha-do-darcy') })).statusCode).toBe(
      200,
    );
  });
});

describe('a new password', () => {
  test('generated and answered once; the member’s sessions end, but not the one resetting its own', async () => {
    const teacher = await addTeacher({ name: 'Anísio Teixeira', email: 'anisio@escola.test', password: 'senha-do-anisio' });
    const cookie = await t.loginAdmin('anisio@escola.test', 'senha-do-anisio');
    const reset = await t.request('POST', `/admin/staff/${teacher.id}/password`, { payload: {} });
    expect(reset.json()).toMatchObject({ id: teacher.id, role: 'teacher' });
    const { password } = reset.json() as StaffWithPassword;
    expect(password).toMatch(/^[a-z]{4}-[a-z]{4}-\d{2}$/);
    await vi.waitFor(async () => expect((await onOther('GET', '/auth/me', cookie)).statusCode).toBe(401));
    expect((await t.lastAudit('admin.password_reset'))?.details).toMatchObject({
      adminId: teacher.id,
      generatedPassword: true,
      sessionsEnded: 1,
    });
    expect((await t.request('GET', '/auth/me', { cookie: await t.loginAdmin('anisio@escola.test', password!) })).statusCode).toBe(200);

    const vice = await t.request('POST', '/admin/staff', {
      payload: { name: 'Nísia Floresta', email: 'nisia@escola.test', role: 'coordinator', password: 'senha-da-nisia' },
    });
    const viceId = (vice.json() as StaffMember).id;
    const own = await t.loginAdmin('nisia@escola.test', 'senha-da-nisia');
    const elsewhere = await t.loginAdmin('nisia@escola.test', 'senha-da-nisia');
    const typed = await t.request('POST', `/admin/staff/${viceId}/password`, { cookie: own, payload: { password: 'senha-nova-forte' } });
    expect(typed.json()).toMatchObject({ password: null });
    expect((await t.request('GET', '/auth/me', { cookie: own })).statusCode).toBe(200);
    await vi.waitFor(async () => expect((await t.request('GET', '/auth/me', { cookie: elsewhere })).statusCode).toBe(401));
    const short = await t.request('POST', `/admin/staff/${viceId}/password`, { cookie: own, payload: { password: 'curta' } });
    expect(short.statusCode).toBe(400);
  });
});

describe('the last coordinator', () => {
  test('nobody deactivates or demotes themself; the last active coordinator stays, even against two requests at once', async () => {
    const self = await t.request('PATCH', `/admin/staff/${t.admin.id}`, { payload: { active: false } });
    expect(self.statusCode).toBe(409);
    expect(self.json().error.message).toBe('Você não pode desativar a si mesmo nem mudar o próprio papel');
    expect((await t.request('PATCH', `/admin/staff/${t.admin.id.toUpperCase()}`, { payload: { role: 'teacher' } })).statusCode).toBe(409);

    // The school's other coordinators step aside, so two are left: the test's and Beatriz.
    const others = await t.db
      .select({ id: admins.id })
      .from(admins)
      .where(and(eq(admins.role, 'coordinator'), eq(admins.active, true), sql`${admins.id} <> ${t.admin.id}`));
    for (const { id } of others)
      expect((await t.request('PATCH', `/admin/staff/${id}`, { payload: { active: false } })).statusCode).toBe(200);
    const beatriz = await t.request('POST', '/admin/staff', {
      payload: { name: 'Beatriz Nascimento', email: 'beatriz@escola.test', role: 'coordinator', password: 'senha-da-beatriz' },
    });
    const beatrizCookie = await t.loginAdmin('beatriz@escola.test', 'senha-da-beatriz');
    // Each takes the other away at once: both requests passed the guard; one of them must lose.
    const results = await Promise.all([
      t.request('PATCH', `/admin/staff/${beatriz.json().id}`, { payload: { active: false } }),
      t.request('PATCH', `/admin/staff/${t.admin.id}`, { cookie: beatrizCookie, payload: { role: 'teacher' } }),
    ]);
    expect(results.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((response) => response.statusCode === 409)!.json().error).toEqual({
      code: 'staff_last_coordinator',
      message: 'A escola precisa de pelo menos uma coordenação ativa',
    });
    const [left] = await t.db
      .select({ n: count() })
      .from(admins)
      .where(and(eq(admins.role, 'coordinator'), eq(admins.active, true)));
    expect(left!.n).toBe(1);
  });
});

describe('Meu perfil: one’s own name', () => {
  test(
    'a member renames themself (the first coordinator, created as "Administrador"): the greeting and the operations from ' +
      'then on carry the new name, on this instance and on another; the ones before keep theirs; audited',
    async () => {
      const first = await addAdmin(t.db, { email: 'primeiro@escola.test', name: 'Administrador' });
      const cookie = await t.loginAdmin(first.email);
      const [ana] = t.students;
      const award = (app: FastifyInstance, description: string) =>
        app.inject({
          method: 'POST',
          url: `/api/admin/students/${ana!.id}/meritus`,
          headers: { cookie },
          payload: { type: 'reward', amount: 1, description },
        });
      const authorOf = async (description: string) => {
        const feed = (await t.request('GET', '/admin/operations', { cookie })).json() as { description: string; actorName: string }[];
        return feed.find((operation) => operation.description === description)?.actorName;
      };
      // Both instances hold the session with the old name in their caches.
      expect((await award(t.app, 'Antes do nome')).statusCode).toBe(201);
      expect((await award(other, 'Antes do nome, na outra')).statusCode).toBe(201);

      const renamed = await t.request('PATCH', '/admin/me', { cookie, payload: { name: '  Marta   Queiroz ' } });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ role: 'coordinator', admin: { id: first.id, name: 'Marta Queiroz' } });
      expect((await t.request('GET', '/auth/me', { cookie })).json().admin.name).toBe('Marta Queiroz');
      expect((await t.lastAudit('admin.update'))?.details).toMatchObject({
        adminId: first.id,
        changed: { name: { from: 'Administrador', to: 'Marta Queiroz' } },
      });

      expect((await award(t.app, 'Depois do nome')).statusCode).toBe(201);
      expect(await authorOf('Depois do nome')).toBe('Marta Queiroz');
      await vi.waitFor(async () => {
        const description = `Na outra ${Math.random()}`;
        expect((await award(other, description)).statusCode).toBe(201);
        expect(await authorOf(description)).toBe('Marta Queiroz');
      });
      expect(await authorOf('Antes do nome')).toBe('Administrador');

      // The same name again changes nothing (no audit record).
      const audits = await t.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, 'admin.update'));
      expect((await t.request('PATCH', '/admin/me', { cookie, payload: { name: 'Marta Queiroz' } })).statusCode).toBe(200);
      expect(await t.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, 'admin.update'))).toEqual(audits);
    },
  );

  test('only one’s own name: a teacher renames themself, never another member (the route names nobody); bad names change nothing', async () => {
    // Set up on the database: the file's other tests may have left the test coordinator demoted (the last coordinator's race).
    const teacher = await addAdmin(t.db, { email: 'paula.reis@escola.test', name: 'Paula Reis', role: 'teacher', turmaIds: [turmaA] });
    const cookie = await t.loginAdmin(teacher.email);
    const nameOf = async (id: string) => (await t.db.select({ name: admins.name }).from(admins).where(eq(admins.id, id)))[0]?.name;

    const own = await t.request('PATCH', '/admin/me', { cookie, payload: { name: 'Paula R. Reis', id: t.admin.id, adminId: t.admin.id } });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ role: 'teacher', admin: { id: teacher.id, name: 'Paula R. Reis' } });
    expect(await nameOf(teacher.id)).toBe('Paula R. Reis');
    expect(await nameOf(t.admin.id)).toBe(t.admin.name);
    expect((await t.request('PATCH', `/admin/staff/${t.admin.id}`, { cookie, payload: { name: 'Outro nome' } })).statusCode).toBe(403);
    expect(await nameOf(t.admin.id)).toBe(t.admin.name);

    for (const name of ['', '   ', 'x'.repeat(121)]) {
      const refused = await t.request('PATCH', '/admin/me', { cookie, payload: { name } });
      expect(refused.statusCode, JSON.stringify(name)).toBe(400);
      expect(refused.json().error.code, JSON.stringify(name)).toMatch(/^(admin_name_required|validation)$/);
    }
    expect(await nameOf(teacher.id)).toBe('Paula R. Reis');

    const student = await t.loginStudent(t.students[0]!.studentId);
    expect((await t.request('PATCH', '/admin/me', { cookie: student, payload: { name: 'Ana' } })).statusCode).toBe(403);
  });
});
