import { createHash, randomBytes } from 'node:crypto';
import { and, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { admins, loginFailures, loginLocks, sessions, students } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { LOGIN_LIMITS, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../../shared/constants.ts';
import type { AdminLoginInput, SelfAdmin, SessionUser, StudentLoginInput } from '../../../shared/auth.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { loadSelfStudent } from '../students/student-views.ts';
import { dummyPasswordHash, verifyPassword } from './password.ts';
import type { EventBus } from '../../realtime/event-bus.ts';

export type RequestContext = { ip: string; userAgent?: string | undefined };

/** Who a request acts for, resolved from the session cookie. */
export type Principal =
  | { role: 'student'; id: string; name: string; studentId: string }
  | { role: 'admin'; id: string; name: string; email: string };

export type LoginResult = { token: string; expiresAt: Date; user: SessionUser };

/** Only the hash of a session token is stored, so a leaked table cannot be replayed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function toSelfAdmin(row: typeof admins.$inferSelect): SelfAdmin {
  return {
    id: row.id,
    adminId: row.adminId,
    name: row.name,
    email: row.email,
    role: row.role,
    permissions: row.permissions,
  };
}

async function assertNotLocked(db: Db, keys: string[], context: RequestContext, accountKey: string): Promise<void> {
  const [lock] = await db
    .select({ key: loginLocks.key })
    .from(loginLocks)
    .where(and(or(...keys.map((key) => eq(loginLocks.key, key))), gt(loginLocks.lockedUntil, new Date())))
    .limit(1);
  if (lock) {
    await recordAudit(db, {
      actor: { kind: 'anonymous', label: accountKey },
      action: 'login.blocked',
      ip: context.ip,
      details: { lock: lock.key },
    });
    throw new AppError('login_locked');
  }
}

/** Records a failed attempt and locks the account or the IP once it crosses its limit. */
async function recordFailure(db: Db, accountKey: string, context: RequestContext, reason: string): Promise<void> {
  const since = new Date(Date.now() - LOGIN_LIMITS.windowMs);
  const lockedUntil = new Date(Date.now() + LOGIN_LIMITS.lockMs);
  await db.transaction(async (tx) => {
    await tx.insert(loginFailures).values({ accountKey, ip: context.ip });
    const [[account], [ip]] = await Promise.all([
      tx.select({ n: count() }).from(loginFailures).where(and(eq(loginFailures.accountKey, accountKey), gt(loginFailures.at, since))),
      tx.select({ n: count() }).from(loginFailures).where(and(eq(loginFailures.ip, context.ip), gt(loginFailures.at, since))),
    ]);
    const locks: string[] = [];
    if ((account?.n ?? 0) >= LOGIN_LIMITS.perAccount) locks.push(accountKey);
    if ((ip?.n ?? 0) >= LOGIN_LIMITS.perIp) locks.push(`ip:${context.ip}`);
    for (const key of locks) {
      await tx
        .insert(loginLocks)
        .values({ key, lockedUntil })
        .onConflictDoUpdate({ target: loginLocks.key, set: { lockedUntil } });
    }
    await recordAudit(tx, {
      actor: { kind: 'anonymous', label: accountKey },
      action: 'login.failure',
      ip: context.ip,
      details: { reason, ...(locks.length ? { locked: locks } : {}) },
    });
  });
}

async function createSession(
  db: Db,
  owner: { studentId: string } | { adminId: string },
  context: RequestContext,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_ABSOLUTE_MS);
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    ...owner,
    expiresAt,
    ip: context.ip,
    userAgent: context.userAgent?.slice(0, 300) ?? null,
  });
  return { token, expiresAt };
}

export async function loginStudent(db: Db, input: StudentLoginInput, context: RequestContext): Promise<LoginResult> {
  const accountKey = `student:${input.studentId}`;
  await assertNotLocked(db, [accountKey, `ip:${context.ip}`], context, accountKey);
  const [row] = await db
    .select()
    .from(students)
    .where(and(eq(students.studentId, input.studentId), isNull(students.deletedAt)))
    .limit(1);
  const valid = await verifyPassword(row?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (!row || !valid) {
    await recordFailure(db, accountKey, context, row ? 'wrong_password' : 'unknown_account');
    throw new AppError('student_login_failed');
  }
  const now = new Date();
  const [updated] = await db.update(students).set({ lastLogin: now }).where(eq(students.id, row.id)).returning();
  await db.delete(loginFailures).where(eq(loginFailures.accountKey, accountKey));
  const session = await createSession(db, { studentId: row.id }, context);
  await recordAudit(db, {
    actor: { kind: 'student', id: row.id, label: `${row.name} (${row.studentId})` },
    action: 'login.success',
    ip: context.ip,
  });
  return { ...session, user: { role: 'student', student: await loadSelfStudent(db, updated ?? row) } };
}

export async function loginAdmin(db: Db, input: AdminLoginInput, context: RequestContext): Promise<LoginResult> {
  const email = input.email.toLowerCase();
  const accountKey = `admin:${email}`;
  await assertNotLocked(db, [accountKey, `ip:${context.ip}`], context, accountKey);
  const [row] = await db
    .select()
    .from(admins)
    .where(eq(sql`lower(${admins.email})`, email))
    .limit(1);
  const valid = await verifyPassword(row?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (!row || !valid) {
    await recordFailure(db, accountKey, context, row ? 'wrong_password' : 'unknown_account');
    throw new AppError('admin_login_failed');
  }
  await db.update(admins).set({ lastLogin: new Date() }).where(eq(admins.id, row.id));
  await db.delete(loginFailures).where(eq(loginFailures.accountKey, accountKey));
  const session = await createSession(db, { adminId: row.id }, context);
  await recordAudit(db, {
    actor: { kind: 'admin', id: row.id, label: row.name },
    action: 'login.success',
    ip: context.ip,
  });
  return { ...session, user: { role: 'admin', admin: toSelfAdmin(row) } };
}

/** Activity refreshes the idle timer at most once a minute, to spare a write per request. */
const TOUCH_INTERVAL_MS = 60_000;

/** A live session as the database knows it, with the times that end it. */
export type SessionState = { principal: Principal; lastSeenAt: number; expiresAt: number };

/** Whether a session read earlier still holds without asking the database: not expired, idle timer not due for a refresh. */
export function sessionStillCurrent(state: SessionState, now: number): boolean {
  return now < state.expiresAt && now - state.lastSeenAt <= TOUCH_INTERVAL_MS;
}

/**
 * The session behind a token hash, or null when it is unknown, idle too long or past its
 * absolute expiry (such a session is deleted). Refreshes the idle timer when it is due.
 */
export async function loadSession(db: Db, tokenHash: string): Promise<SessionState | null> {
  const [row] = await db
    .select({
      session: sessions,
      student: { id: students.id, name: students.name, studentId: students.studentId, deletedAt: students.deletedAt },
      admin: { id: admins.id, name: admins.name, email: admins.email },
    })
    .from(sessions)
    .leftJoin(students, eq(students.id, sessions.studentId))
    .leftJoin(admins, eq(admins.id, sessions.adminId))
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  if (!row) return null;
  const now = Date.now();
  const idleExpired = row.session.lastSeenAt.getTime() + SESSION_IDLE_MS <= now;
  if (idleExpired || row.session.expiresAt.getTime() <= now || row.student?.deletedAt) {
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    return null;
  }
  let lastSeenAt = row.session.lastSeenAt.getTime();
  if (now - lastSeenAt > TOUCH_INTERVAL_MS) {
    await db.update(sessions).set({ lastSeenAt: new Date(now) }).where(eq(sessions.tokenHash, tokenHash));
    lastSeenAt = now;
  }
  const principal: Principal | null = row.student
    ? { role: 'student', id: row.student.id, name: row.student.name, studentId: row.student.studentId }
    : row.admin
      ? { role: 'admin', id: row.admin.id, name: row.admin.name, email: row.admin.email }
      : null;
  return principal && { principal, lastSeenAt, expiresAt: row.session.expiresAt.getTime() };
}

/** The principal behind a session token, straight from the database. */
export async function resolveSession(db: Db, token: string): Promise<Principal | null> {
  return (await loadSession(db, hashToken(token)))?.principal ?? null;
}

/** Ends one session; every server instance forgets it at once. */
export async function logout(db: Db, events: EventBus, token: string, principal: Principal, context: RequestContext): Promise<void> {
  const tokenHash = hashToken(token);
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
  await events.publish(db, { type: 'sessions_ended', tokenHash });
  await recordAudit(db, {
    actor: { kind: principal.role, id: principal.id, label: principal.name },
    action: 'logout',
    ip: context.ip,
  });
}

export async function currentUser(db: Db, principal: Principal): Promise<SessionUser> {
  if (principal.role === 'student') {
    const [row] = await db.select().from(students).where(eq(students.id, principal.id)).limit(1);
    if (!row || row.deletedAt) throw new AppError('unauthenticated');
    return { role: 'student', student: await loadSelfStudent(db, row) };
  }
  const [row] = await db.select().from(admins).where(eq(admins.id, principal.id)).limit(1);
  if (!row) throw new AppError('unauthenticated');
  return { role: 'admin', admin: toSelfAdmin(row) };
}

/** Ends every session of a student (removal, password reset), on every server instance if the transaction commits. */
export async function endStudentSessions(db: DbOrTx, events: EventBus, studentId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.studentId, studentId));
  await events.publish(db, { type: 'sessions_ended', studentId });
}

/** Drops expired sessions, stale failures and past locks; run periodically. */
export async function sweepAuthState(db: Db): Promise<void> {
  const now = new Date();
  await db.delete(sessions).where(or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS))));
  await db.delete(loginFailures).where(lt(loginFailures.at, new Date(now.getTime() - LOGIN_LIMITS.windowMs)));
  await db.delete(loginLocks).where(lt(loginLocks.lockedUntil, now));
}
