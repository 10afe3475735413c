import { randomUUID } from 'node:crypto';
import { eq, like } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { addAdmin, type TestApp, withSharedAdminApp } from '../../test/test-app.ts';
import { auditLog, reasonPresets } from '../../db/schema.ts';
import type { ReasonPreset } from '../../../shared/reason-presets.ts';

let t: TestApp;
let adminCookie: string;

withSharedAdminApp((app, cookie) => ([t, adminCookie] = [app, cookie]));

function list(cookie = adminCookie) {
  return t.app.inject({ url: '/api/admin/reason-presets', headers: { cookie } });
}
function create(label: unknown, cookie = adminCookie) {
  return t.app.inject({ method: 'POST', url: '/api/admin/reason-presets', headers: { cookie }, payload: { label } });
}
function remove(id: string, cookie = adminCookie) {
  return t.app.inject({ method: 'DELETE', url: `/api/admin/reason-presets/${id}`, headers: { cookie } });
}

describe('reason presets', () => {
  test('an administrator keeps reasons, listed alphabetically, and each change is audited with who did it', async () => {
    expect((await list()).json()).toEqual([]);
    const first = await create('  Participação   em aula ');
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ label: 'Participação em aula' });
    expect((await create('Ajuda a um colega')).statusCode).toBe(201);
    expect(((await list()).json() as ReasonPreset[]).map((p) => p.label)).toEqual(['Ajuda a um colega', 'Participação em aula']);

    const audit = await t.db.select().from(auditLog).where(eq(auditLog.action, 'reason_preset.create'));
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({ actorKind: 'admin', actorId: t.admin.id, actorLabel: t.admin.name });
    expect(audit[0]!.details).toMatchObject({ label: 'Participação em aula' });
  });

  test('the list is shared by every administrator', async () => {
    const other = await addAdmin(t.db, { email: 'outro@escola.test', name: 'Marcos Pereira' });
    const otherCookie = await t.loginAdmin(other.email);
    expect(((await list(otherCookie)).json() as ReasonPreset[]).map((p) => p.label)).toContain('Participação em aula');
  });

  test.each([
    ['participação EM AULA', 409, 'Este motivo já está salvo'],
    ['', 400, 'Informe o texto do motivo'],
    ['    ', 400, 'Informe o texto do motivo'],
    [null, 400, 'Informe o texto do motivo'],
    ['x'.repeat(81), 400, 'O motivo deve ter no máximo 80 caracteres'],
  ])('refuses %j with %i "%s" and stores nothing', async (label, status, message) => {
    const before = await t.db.select().from(reasonPresets);
    const response = await create(label);
    expect(response.statusCode).toBe(status);
    expect(response.json().error.message).toBe(message);
    expect(await t.db.select().from(reasonPresets)).toEqual(before);
  });

  test('an administrator removes a reason; removing it again or an unknown id answers 404', async () => {
    const created: ReasonPreset = (await create('Atraso na entrega')).json();
    const response = await remove(created.id);
    expect(response.statusCode).toBe(204);
    expect(((await list()).json() as ReasonPreset[]).some((p) => p.id === created.id)).toBe(false);
    const again = await remove(created.id);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe('Motivo não encontrado');
    expect((await remove(randomUUID())).statusCode).toBe(404);
    expect((await remove('nao-e-um-id')).statusCode).toBe(404);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'reason_preset.delete'));
    expect(audit).toMatchObject({ actorId: t.admin.id, actorLabel: t.admin.name });
    expect(audit!.details).toMatchObject({ presetId: created.id, label: 'Atraso na entrega' });
  });

  test('at most 30 reasons are kept, even when created at once', async () => {
    const existing = (await t.db.select().from(reasonPresets)).length;
    const responses = await Promise.all(Array.from({ length: 32 - existing }, (_, i) => create(`Motivo ${i + 1}`)));
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(30 - existing);
    const refused = responses.filter((r) => r.statusCode !== 201);
    expect(refused).toHaveLength(2);
    for (const response of refused) {
      expect(response.statusCode).toBe(409);
      expect(response.json().error.message).toBe('Limite de 30 motivos atingido. Remova um para adicionar outro.');
    }
    expect(await t.db.select().from(reasonPresets)).toHaveLength(30);
    await t.db.delete(reasonPresets).where(like(reasonPresets.label, 'Motivo %'));
  });

  test('students cannot read or change the reasons; anonymous callers are asked to sign in', async () => {
    const studentCookie = await t.loginStudent(t.students[0]!.studentId);
    expect((await list(studentCookie)).statusCode).toBe(403);
    expect((await create('Tentativa', studentCookie)).statusCode).toBe(403);
    const [preset] = await t.db.select().from(reasonPresets).limit(1);
    expect((await remove(preset!.id, studentCookie)).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/admin/reason-presets' })).statusCode).toBe(401);
  });
});
