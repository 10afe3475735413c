import { and, asc, count, desc, eq, inArray, ne, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { lockForTransaction } from '../../db/advisory-locks.ts';
import { admins, sessions, staffTurmas, turmas } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, type AdminActor, type SystemActor } from '../auth/actor.ts';
import { hashPassword } from '../auth/password.ts';
import { generateReadablePassword } from '../../../shared/admin-students.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import type { StaffRole } from '../../../shared/permissions.ts';
import { budgetOf, DEFAULT_RULES, type WeeklyBudget } from '../../../shared/settings.ts';
import {
  createStaffInput,
  ownProfileInput,
  updateStaffInput,
  type CreateStaffInput,
  type OwnProfileInput,
  type StaffMember,
  type StaffWithPassword,
  type UpdateStaffInput,
} from '../../../shared/staff.ts';
import { issueCode, issueFields } from '../../../shared/validation.ts';
import { nameOrderOf } from '../../views/name-order.ts';

/**
 * The school's staff (Configurações › Equipe). Every creation and change runs under the staff's advisory lock, so an
 * email is taken once and no two requests at once (on any instances) can leave the school without an active coordinator.
 * A coordinator sees every turma and has no budget: their turmas and budget are stored empty.
 */
export type StaffDeps = { db: Db; events: EventBus; settings?: Pick<SettingsStore, 'get'> };
type Context = { ip?: string | undefined };

/** A creation's answer: the member, the generated password (once), and the readable id (admin001…) the command line names. */
export type CreatedStaffMember = StaffWithPassword & { adminId: string };
type CreateOptions = Context & {
  /** Create only while the school has no staff at all (the first start, the diagnostics' fix); null otherwise. */
  onlyIfNone?: boolean;
};

function refuseInput(issues: Parameters<typeof issueFields>[0]): never {
  throw new AppError(issueCode(issues[0]!), { status: 400, fields: issueFields(issues) });
}

/** The members `where` picks, with their turmas in the school's order; active members first, then by name. */
async function loadMembers(db: DbOrTx, where?: SQL): Promise<StaffMember[]> {
  const rows = await db
    .select()
    .from(admins)
    .where(where)
    .orderBy(desc(admins.active), asc(nameOrderOf(admins.name)), asc(admins.createdAt));
  if (rows.length === 0) return [];
  const links = await db
    .select({ adminId: staffTurmas.adminId, turmaId: staffTurmas.turmaId })
    .from(staffTurmas)
    .innerJoin(turmas, eq(turmas.id, staffTurmas.turmaId))
    .where(
      inArray(
        staffTurmas.adminId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(turmas.position), asc(turmas.createdAt));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role as StaffRole,
    turmaIds: links.filter((link) => link.adminId === row.id).map((link) => link.turmaId),
    weeklyBudget: budgetOf(row.weeklyBudgetMeritus, row.weeklyBudgetEstelecas),
    active: row.active,
    lastLoginAt: row.lastLogin?.toISOString() ?? null,
  }));
}

async function loadMember(db: DbOrTx, id: string): Promise<StaffMember> {
  const [member] = await loadMembers(db, eq(admins.id, id));
  if (!member) throw new AppError('staff_not_found');
  return member;
}

export function listStaff(db: Db): Promise<StaffMember[]> {
  return loadMembers(db);
}

/** The readable id after the highest adminNNN in use: admin001 for the first. */
function nextAdminId(taken: string[]): string {
  const next = 1 + Math.max(0, ...taken.map((adminId) => Number(/^admin(\d+)$/.exec(adminId)?.[1] ?? 0)));
  return `admin${String(next).padStart(3, '0')}`;
}

/**
 * A teacher's turmas, each once and in the school's order: the school's active turmas, or one the member already had
 * (a turma retired since stays until it is taken away). Anything else is refused naming the field.
 */
async function checkTurmas(tx: DbOrTx, wanted: readonly string[], kept: readonly string[] = []): Promise<string[]> {
  const ids = [...new Set(wanted)];
  if (ids.length === 0) return [];
  const found = await tx
    .select({ id: turmas.id, retiredAt: turmas.retiredAt })
    .from(turmas)
    .where(inArray(turmas.id, ids))
    .orderBy(asc(turmas.position), asc(turmas.createdAt))
    // A deletion of one of them under way (settings' deleteTurma) is waited for, then the turma is not found.
    .for('key share');
  const allowed = found.filter((turma) => turma.retiredAt === null || kept.includes(turma.id)).map((turma) => turma.id);
  if (allowed.length < ids.length)
    throw new AppError('staff_turmas_invalid', { fields: { turmaIds: ERROR_MESSAGES.staff_turmas_invalid } });
  return allowed;
}

async function writeTurmas(tx: DbOrTx, adminId: string, turmaIds: readonly string[]): Promise<void> {
  await tx.delete(staffTurmas).where(eq(staffTurmas.adminId, adminId));
  if (turmaIds.length > 0) await tx.insert(staffTurmas).values(turmaIds.map((turmaId) => ({ adminId, turmaId })));
}

const budgetColumns = (budget: WeeklyBudget) => ({
  weeklyBudgetMeritus: budget?.meritus ?? null,
  weeklyBudgetEstelecas: budget?.estelecas ?? null,
});

/** The school's default budget for a new teacher (Configurações › Regras); without the settings, the default rules'. */
async function defaultTeacherBudget(deps: Pick<StaffDeps, 'settings'>): Promise<WeeklyBudget> {
  return deps.settings ? (await deps.settings.get()).rules.defaultTeacherBudget : DEFAULT_RULES.defaultTeacherBudget;
}

/**
 * A request already past the guard may come from a member deactivated or demoted meanwhile (a request of theirs
 * waiting on the lock): under the lock, only an active coordinator's change goes on.
 */
async function checkStillCoordinator(tx: DbOrTx, actor: AdminActor | SystemActor): Promise<void> {
  if (actor.role === 'system') return;
  const [row] = await tx.select({ role: admins.role, active: admins.active }).from(admins).where(eq(admins.id, actor.id));
  if (!row?.active || row.role !== 'coordinator') throw new AppError('forbidden');
}

/**
 * The one way a staff member is created: Equipe, `npm run admin:create`, the diagnostics' fix, the first start and the
 * demo all come here. The input is parsed with the shared schema, and the id, the email check, the row, the turmas and
 * the audit record ('admin.create') are written under the lock. Without a password, a readable one is generated and
 * answered once.
 */
export async function createStaffMember(
  deps: Pick<StaffDeps, 'db' | 'settings'>,
  actor: AdminActor | SystemActor,
  input: CreateStaffInput,
  options?: CreateOptions & { onlyIfNone?: false },
): Promise<CreatedStaffMember>;
export async function createStaffMember(
  deps: Pick<StaffDeps, 'db' | 'settings'>,
  actor: AdminActor | SystemActor,
  input: CreateStaffInput,
  options: CreateOptions & { onlyIfNone: true },
): Promise<CreatedStaffMember | null>;
export async function createStaffMember(
  deps: Pick<StaffDeps, 'db' | 'settings'>,
  actor: AdminActor | SystemActor,
  input: CreateStaffInput,
  options: CreateOptions = {},
): Promise<CreatedStaffMember | null> {
  const parsed = createStaffInput.safeParse(input);
  if (!parsed.success) refuseInput(parsed.error.issues);
  const { name, email, role, password } = parsed.data;
  const teacher = role === 'teacher';
  const weeklyBudget = !teacher
    ? null
    : parsed.data.weeklyBudget !== undefined
      ? parsed.data.weeklyBudget
      : await defaultTeacherBudget(deps);
  const generated = password === undefined ? generateReadablePassword() : null;
  // Hashing takes milliseconds: done before the lock, which then holds only the writes.
  const passwordHash = await hashPassword(password ?? generated!);
  const created = await deps.db.transaction(async (tx) => {
    await lockForTransaction(tx, 'admins');
    const existing = await tx.select({ adminId: admins.adminId, email: admins.email }).from(admins);
    if (options.onlyIfNone) {
      // The school has no staff: whoever asks (the first start, the diagnostics' fix) creates the first coordinator.
      if (existing.length > 0) return null;
    } else await checkStillCoordinator(tx, actor);
    if (existing.some((other) => other.email.toLowerCase() === email))
      throw new AppError('email_taken', { fields: { email: ERROR_MESSAGES.email_taken } });
    const turmaIds = teacher ? await checkTurmas(tx, parsed.data.turmaIds) : [];
    const [row] = await tx
      .insert(admins)
      .values({
        adminId: nextAdminId(existing.map((other) => other.adminId)),
        name,
        email,
        passwordHash,
        role,
        ...budgetColumns(weeklyBudget),
      })
      .returning({ id: admins.id, adminId: admins.adminId });
    await writeTurmas(tx, row!.id, turmaIds);
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: 'admin.create',
      ip: options.ip,
      details: { adminId: row!.id, email, role, turmaIds, weeklyBudget, generatedPassword: generated !== null },
    });
    return { adminId: row!.adminId, member: await loadMember(tx, row!.id) };
  });
  return created && { ...created.member, adminId: created.adminId, password: generated };
}

/** Deletes a member's sessions; `keep` spares the one a change is made from. Every instance forgets them through the bus. */
async function endStaffSessions(tx: DbOrTx, events: EventBus, adminId: string, keep?: string): Promise<number> {
  const ended = await tx
    .delete(sessions)
    .where(and(eq(sessions.adminId, adminId), keep ? ne(sessions.tokenHash, keep) : undefined))
    .returning({ tokenHash: sessions.tokenHash });
  for (const { tokenHash } of ended) await events.publish(tx, { type: 'sessions_ended', tokenHash });
  return ended.length;
}

/**
 * Changes a member's role, turmas, budget or whether they may sign in. Never one's own role or active flag, and never
 * the last active coordinator's (checked under the lock). A deactivated member's sessions end at once; a member whose
 * role or turmas changed is read anew on their next request, on every instance (the bus's 'staff_changed').
 */
export async function updateStaffMember(
  deps: StaffDeps,
  actor: AdminActor,
  id: string,
  input: UpdateStaffInput,
  context: Context = {},
): Promise<StaffMember> {
  const parsed = updateStaffInput.safeParse(input);
  if (!parsed.success) refuseInput(parsed.error.issues);
  const change = parsed.data;
  const defaultBudget = await defaultTeacherBudget(deps);
  return deps.db.transaction(async (tx) => {
    await lockForTransaction(tx, 'admins');
    const before = await loadMember(tx, id);
    const role = change.role ?? before.role;
    const active = change.active ?? before.active;
    if (id === actor.id && (role !== before.role || !active)) throw new AppError('staff_self');
    if (before.active && before.role === 'coordinator' && !(active && role === 'coordinator')) {
      const [others] = await tx
        .select({ n: count() })
        .from(admins)
        .where(and(eq(admins.role, 'coordinator'), eq(admins.active, true), ne(admins.id, id)));
      if (!others?.n) throw new AppError('staff_last_coordinator');
    }
    await checkStillCoordinator(tx, actor);
    const teacher = role === 'teacher';
    const turmaIds = !teacher
      ? []
      : change.turmaIds !== undefined
        ? await checkTurmas(tx, change.turmaIds, before.turmaIds)
        : before.turmaIds;
    // A coordinator made a teacher without a budget gets the school's default, as a new teacher does.
    const weeklyBudget = !teacher
      ? null
      : change.weeklyBudget !== undefined
        ? change.weeklyBudget
        : before.role === 'teacher'
          ? before.weeklyBudget
          : defaultBudget;
    const after = { role, active, turmaIds, weeklyBudget };
    const changed = Object.fromEntries(
      (Object.keys(after) as (keyof typeof after)[])
        .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
        .map((key) => [key, { from: before[key], to: after[key] }]),
    );
    if (Object.keys(changed).length === 0) return before;
    await tx
      .update(admins)
      .set({ role, active, ...budgetColumns(weeklyBudget), updatedAt: new Date() })
      .where(eq(admins.id, id));
    if ('turmaIds' in changed) await writeTurmas(tx, id, turmaIds);
    const sessionsEnded = active ? 0 : await endStaffSessions(tx, deps.events, id);
    if ('role' in changed || 'turmaIds' in changed) await deps.events.publish(tx, { type: 'staff_changed', adminId: id });
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: 'admin.update',
      ip: context.ip,
      details: { adminId: id, email: before.email, changed, sessionsEnded },
    });
    return loadMember(tx, id);
  });
}

/**
 * Sets a new password (typed, or generated and shown once) and ends that member's sessions; resetting one's own keeps
 * the session it is done from (`keepSessionHash`).
 */
export async function resetStaffPassword(
  deps: StaffDeps,
  actor: AdminActor,
  id: string,
  input: { password?: string | undefined },
  context: Context & { keepSessionHash?: string } = {},
): Promise<StaffWithPassword> {
  const generated = input.password === undefined ? generateReadablePassword() : null;
  const passwordHash = await hashPassword(input.password ?? generated!);
  const member = await deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(admins)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(admins.id, id))
      .returning({ email: admins.email });
    if (!updated) throw new AppError('staff_not_found');
    const sessionsEnded = await endStaffSessions(tx, deps.events, id, id === actor.id ? context.keepSessionHash : undefined);
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: 'admin.password_reset',
      ip: context.ip,
      details: { adminId: id, email: updated.email, generatedPassword: generated !== null, sessionsEnded },
    });
    return loadMember(tx, id);
  });
  return { ...member, password: generated };
}

/**
 * A member renames themself (Meu perfil): the first coordinator, created as 'Administrador', gives their real name. Only
 * the actor's own row: the input names nobody. Operations written from now on carry the new name ('por …'); those
 * already written keep the name they were made under. Every instance drops the member's cached sessions (the bus's
 * 'staff_changed'), whose name the next operation would otherwise carry, and their open pages read it anew.
 */
export async function updateOwnProfile(
  deps: Pick<StaffDeps, 'db' | 'events'>,
  actor: AdminActor,
  input: OwnProfileInput,
  context: Context = {},
): Promise<void> {
  const parsed = ownProfileInput.safeParse(input);
  if (!parsed.success) refuseInput(parsed.error.issues);
  const { name } = parsed.data;
  await deps.db.transaction(async (tx) => {
    const [before] = await tx.select({ name: admins.name, email: admins.email }).from(admins).where(eq(admins.id, actor.id)).for('update');
    if (!before) throw new AppError('unauthenticated');
    if (before.name === name) return;
    await tx.update(admins).set({ name, updatedAt: new Date() }).where(eq(admins.id, actor.id));
    await deps.events.publish(tx, { type: 'staff_changed', adminId: actor.id });
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: 'admin.update',
      ip: context.ip,
      details: { adminId: actor.id, email: before.email, changed: { name: { from: before.name, to: name } }, sessionsEnded: 0 },
    });
  });
}
