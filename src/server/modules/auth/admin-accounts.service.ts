import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { lockForTransaction } from '../../db/advisory-locks.ts';
import { admins, sessions } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, type AdminActor, type SystemActor } from './actor.ts';
import { hashPassword } from './password.ts';
import { generateReadablePassword } from '../../../shared/admin-students.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { issueCode, issueFields } from '../../../shared/validation.ts';
import {
  createAdminInput,
  SETTINGS_TEXTS,
  type AdminAccount,
  type AdminWriteResult,
  type CreateAdminInput,
} from '../../../shared/settings.ts';

/**
 * The administrators' accounts. Every change runs under the administrators' advisory lock,
 * so two creations of one email make one account and two removals at once cannot leave the
 * school without an administrator.
 */
export type AdminAccountsDeps = { db: Db; events: EventBus };
type Context = { ip?: string | undefined };

/** A creation's answer: what the settings screen shows, and the readable id (admin001…) the command line and the diagnostics name. */
export type CreatedAdmin = AdminWriteResult & { adminId: string };
type CreateOptions = Context & {
  /** Create only while the school has no administrator at all (the first start, the diagnostics' fix); null otherwise. */
  onlyIfNone?: boolean;
};

function toAccount(row: typeof admins.$inferSelect): AdminAccount {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    lastLogin: row.lastLogin?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listAdmins(db: Db): Promise<AdminAccount[]> {
  const rows = await db
    .select()
    .from(admins)
    .orderBy(asc(sql`lower(${admins.name})`), asc(admins.createdAt));
  return rows.map(toAccount);
}

/** The readable id after the highest adminNNN in use: admin001 for the first. */
function nextAdminId(taken: string[]): string {
  const next = 1 + Math.max(0, ...taken.map((adminId) => Number(/^admin(\d+)$/.exec(adminId)?.[1] ?? 0)));
  return `admin${String(next).padStart(3, '0')}`;
}

/**
 * The one way an administrator is created: the settings screen, `npm run admin:create`, the
 * diagnostics' fix, the first start and the demo seed all come here. The input is parsed with
 * the shared schema (the email trimmed and lower-cased), and the id, the email check, the row
 * and its audit record ('admin.create') are written under the lock. Without a password, a
 * readable one is generated and answered once.
 */
export async function createAdmin(
  deps: { db: Db },
  actor: AdminActor | SystemActor,
  input: CreateAdminInput,
  options?: CreateOptions & { onlyIfNone?: false },
): Promise<CreatedAdmin>;
export async function createAdmin(
  deps: { db: Db },
  actor: AdminActor | SystemActor,
  input: CreateAdminInput,
  options: CreateOptions & { onlyIfNone: true },
): Promise<CreatedAdmin | null>;
export async function createAdmin(
  deps: { db: Db },
  actor: AdminActor | SystemActor,
  input: CreateAdminInput,
  options: CreateOptions = {},
): Promise<CreatedAdmin | null> {
  const parsed = createAdminInput.safeParse(input);
  if (!parsed.success) throw new AppError(issueCode(parsed.error.issues[0]!), { status: 400, fields: issueFields(parsed.error.issues) });
  const { name, email, password } = parsed.data;
  const generated = password === undefined ? generateReadablePassword() : null;
  // Hashing takes milliseconds: done before the lock, which then holds only the writes.
  const passwordHash = await hashPassword(password ?? generated!);
  const row = await deps.db.transaction(async (tx) => {
    await lockForTransaction(tx, 'admins');
    const existing = await tx.select({ adminId: admins.adminId, email: admins.email }).from(admins);
    if (options.onlyIfNone && existing.length > 0) return null;
    if (existing.some((other) => other.email.toLowerCase() === email))
      throw new AppError('email_taken', { fields: { email: ERROR_MESSAGES.email_taken } });
    const [created] = await tx
      .insert(admins)
      .values({
        adminId: nextAdminId(existing.map((other) => other.adminId)),
        name,
        email,
        passwordHash,
        role: 'coordinator',
      })
      .returning();
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: 'admin.create',
      ip: options.ip,
      details: { adminId: created!.id, email, generatedPassword: generated !== null },
    });
    return created!;
  });
  return row && { message: SETTINGS_TEXTS.adminCreated(row.name), admin: toAccount(row), adminId: row.adminId, password: generated };
}

/** Deletes an administrator's sessions and tells every instance to forget them (their session caches). */
async function endAdminSessions(tx: DbOrTx, events: EventBus, adminId: string, keep?: string): Promise<number> {
  const ended = await tx
    .delete(sessions)
    .where(and(eq(sessions.adminId, adminId), keep ? ne(sessions.tokenHash, keep) : undefined))
    .returning({ tokenHash: sessions.tokenHash });
  for (const { tokenHash } of ended) await events.publish(tx, { type: 'sessions_ended', tokenHash });
  return ended.length;
}

/** Removes an administrator: never yourself, never the last one. Their sessions end with them. */
export async function removeAdmin(
  deps: AdminAccountsDeps,
  admin: AdminActor,
  id: string,
  context: Context = {},
): Promise<{ message: string }> {
  if (id === admin.id) throw new AppError('admin_self', { status: 409 });
  const removed = await deps.db.transaction(async (tx) => {
    await lockForTransaction(tx, 'admins');
    const [row] = await tx.select().from(admins).where(eq(admins.id, id));
    if (!row) throw new AppError('admin_not_found', { status: 404 });
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(admins);
    if (n <= 1) throw new AppError('admin_last', { status: 409 });
    const sessionsEnded = await endAdminSessions(tx, deps.events, id);
    await tx.delete(admins).where(eq(admins.id, id));
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'admin.delete',
      ip: context.ip,
      details: { adminId: id, email: row.email, name: row.name, sessionsEnded },
    });
    return row;
  });
  return { message: SETTINGS_TEXTS.adminRemoved(removed.name) };
}

/**
 * Sets a new password (typed, or generated and shown once) and ends that administrator's
 * sessions; resetting one's own keeps the session it is done from (`keepSessionHash`).
 */
export async function resetAdminPassword(
  deps: AdminAccountsDeps,
  admin: AdminActor,
  id: string,
  input: { password?: string | undefined },
  context: Context & { keepSessionHash?: string } = {},
): Promise<AdminWriteResult> {
  const generated = input.password === undefined ? generateReadablePassword() : null;
  const passwordHash = await hashPassword(input.password ?? generated!);
  const row = await deps.db.transaction(async (tx) => {
    const [updated] = await tx.update(admins).set({ passwordHash, updatedAt: new Date() }).where(eq(admins.id, id)).returning();
    if (!updated) throw new AppError('admin_not_found', { status: 404 });
    const sessionsEnded = await endAdminSessions(tx, deps.events, id, id === admin.id ? context.keepSessionHash : undefined);
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'admin.password_reset',
      ip: context.ip,
      details: { adminId: id, email: updated.email, generatedPassword: generated !== null, sessionsEnded },
    });
    return updated;
  });
  return { message: SETTINGS_TEXTS.adminPasswordReset(row.name), admin: toAccount(row), password: generated };
}
