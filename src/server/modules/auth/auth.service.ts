import { createHash, randomBytes } from 'node:crypto';
import { normalizeIP } from '@fastify/rate-limit';
import { and, asc, desc, eq, gt, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { rowsOf, runPrepared, type Db, type DbOrTx, type PreparedStatement } from '../../db/client.ts';
import {
  admins,
  guardians,
  loginFailures,
  oidcStates,
  passwordResetSessions,
  sessions,
  staffTurmas,
  students,
  turmas,
} from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { ERROR_MESSAGES, loginLockedMessage } from '../../../shared/errors.ts';
import { OWN_PASSWORD_TEXTS, type ChangeOwnPasswordInput } from '../../../shared/student-access.ts';
import { LOGIN_LIMITS, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../../shared/constants.ts';
import type { AdminLoginInput, SelfAdmin, SelfGuardian, SelfStudent, SessionUser, StudentLoginInput } from '../../../shared/auth.ts';
import type { SchoolRules } from '../../../shared/settings.ts';
import { permissionsOf, type PermissionRules, type StaffRole } from '../../../shared/permissions.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, type Principal, type StudentActor } from './actor.ts';
import { loadSelfStudent, selectStudents } from '../../views/student-views.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password.ts';
import type { EventBus } from '../../realtime/event-bus.ts';

export type RequestContext = { ip: string; userAgent?: string | undefined };

export type LoginResult = { token: string; expiresAt: Date; user: SessionUser };

/** Only the hash of a session token is stored, so a leaked table cannot be replayed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** What the staff screens know of the member signed in: their role, its permissions under the school's rules, their turmas. */
export async function loadSelfAdmin(db: DbOrTx, row: typeof admins.$inferSelect, rules: PermissionRules): Promise<SelfAdmin> {
  const role = row.role as StaffRole;
  const taught =
    role === 'teacher'
      ? await db
          .select({ id: turmas.id, name: turmas.name })
          .from(staffTurmas)
          .innerJoin(turmas, eq(turmas.id, staffTurmas.turmaId))
          .where(eq(staffTurmas.adminId, row.id))
          .orderBy(asc(turmas.position), asc(turmas.createdAt))
      : [];
  return {
    id: row.id,
    adminId: row.adminId,
    name: row.name,
    email: row.email,
    role,
    permissions: [...permissionsOf(role, rules)],
    turmas: taught,
  };
}

/** A guardian's own record (decision 037): who they are; their children come from the family routes. */
export async function loadSelfGuardian(db: DbOrTx, guardianId: string): Promise<SelfGuardian> {
  const [row] = await db
    .select({ id: guardians.id, name: guardians.name, email: guardians.email })
    .from(guardians)
    .where(eq(guardians.id, guardianId));
  if (!row) throw new AppError('unauthenticated');
  return row;
}

function staffUser(admin: SelfAdmin): SessionUser {
  return admin.role === 'coordinator' ? { role: 'coordinator', admin } : { role: 'teacher', admin };
}

/** Which sign-in limit refused an attempt (named in the audit log). */
type LoginLimitName = keyof typeof LOGIN_LIMITS;

/** A sign-in attempt registered before its password is checked (a pending row of login_failures). */
export type Attempt = { id: number; accountKey: string; address: string };

/**
 * The address the sign-in limits count, as the API limiter counts it: an IPv6 client by
 * its /64, the block one subscriber holds, so changing the last bits is not a new address.
 */
function addressOf(ip: string): string {
  return normalizeIP(ip);
}

/** The max-th newest failure in a limit's window: while there is one, the limit is reached. */
function nthNewestFailure(db: Db, limit: { max: number; windowMs: number }, where: SQL | undefined, now: number) {
  return db
    .select({ at: loginFailures.at })
    .from(loginFailures)
    .where(and(where, gt(loginFailures.at, new Date(now - limit.windowMs))))
    .orderBy(desc(loginFailures.at))
    .offset(limit.max - 1)
    .limit(1);
}

/**
 * Registers an attempt on an account, or refuses it (429 with the wait) while a limit of
 * LOGIN_LIMITS is reached. The attempt is written before the limits are read, so guesses
 * sent together see each other and no more than the limit of one account from one
 * address get their password checked. Pending attempts count only there: a burst of
 * refused guesses must not close the account or the address for anyone else.
 */
export async function beginAttempt(db: Db, accountKey: string, context: RequestContext): Promise<Attempt> {
  const address = addressOf(context.ip);
  const now = Date.now();
  const [row] = await db
    .insert(loginFailures)
    .values({ accountKey, ip: address, at: new Date(now), pending: true })
    .returning({ id: loginFailures.id });
  const attempt = { id: row!.id, accountKey, address };
  const counted: Record<LoginLimitName, SQL | undefined> = {
    perAccountAndAddress: and(eq(loginFailures.accountKey, accountKey), eq(loginFailures.ip, address), ne(loginFailures.id, attempt.id)),
    perAccount: and(eq(loginFailures.accountKey, accountKey), eq(loginFailures.pending, false)),
    perAddress: and(eq(loginFailures.ip, address), eq(loginFailures.pending, false)),
  };
  const names = Object.keys(counted) as LoginLimitName[];
  // One round trip for the three limits: a sign-in is the first request of every school day.
  const columns = sql.join(
    names.map((name) => sql`(${nthNewestFailure(db, LOGIN_LIMITS[name], counted[name], now)}) as ${sql.identifier(name)}`),
    sql`, `,
  );
  const [nth] = rowsOf<Record<LoginLimitName, Date | string | null>>(await db.execute(sql`select ${columns}`));
  // A limit lets the next attempt through when its max-th newest failure leaves the window.
  const reached = names.flatMap((name) => {
    const at = nth?.[name];
    return at ? [{ name, reopensAt: new Date(at).getTime() + LOGIN_LIMITS[name].windowMs }] : [];
  });
  if (reached.length === 0) return attempt;

  await db.delete(loginFailures).where(eq(loginFailures.id, attempt.id));
  const retryAfterSeconds = Math.max(1, Math.ceil((Math.max(...reached.map((limit) => limit.reopensAt)) - now) / 1000));
  await recordAudit(db, {
    actor: { kind: 'anonymous', label: accountKey },
    action: 'login.blocked',
    ip: context.ip,
    details: { limits: reached.map((limit) => limit.name), retryAfterSeconds },
  });
  throw new AppError('login_locked', { retryAfterSeconds, message: loginLockedMessage(retryAfterSeconds) });
}

/** The attempt's password was wrong (or the account unknown): it now counts as a failure. `details` go to the audit record. */
export async function recordFailure(
  db: Db,
  attempt: Attempt,
  context: RequestContext,
  reason: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(loginFailures).set({ pending: false }).where(eq(loginFailures.id, attempt.id));
    await recordAudit(tx, {
      actor: { kind: 'anonymous', label: attempt.accountKey },
      action: 'login.failure',
      ip: context.ip,
      details: { reason, ...details },
    });
  });
}

/**
 * The right password: the attempt and the earlier failures of this account from this
 * address are forgotten. Failures from other addresses stay: they may be someone else's.
 */
export async function clearFailures(db: Db, attempt: Attempt): Promise<void> {
  await db
    .delete(loginFailures)
    .where(
      and(
        eq(loginFailures.accountKey, attempt.accountKey),
        eq(loginFailures.ip, attempt.address),
        or(eq(loginFailures.pending, false), eq(loginFailures.id, attempt.id)),
      ),
    );
}

export async function createSession(
  db: Db,
  owner: { studentUuid: string } | { adminId: string } | { guardianId: string },
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

/** The school's rule on passwords the staff gives (settings). */
export type PasswordRules = Pick<SchoolRules, 'studentsChangeResetPassword'>;

/** Whether a student must choose their own password before using the area: the staff gave it and the school asks so. */
export function passwordChangeDue(temporaryPassword: boolean, rules: PasswordRules): boolean {
  return temporaryPassword && rules.studentsChangeResetPassword;
}

function studentUser(student: SelfStudent, temporaryPassword: boolean, rules: PasswordRules): SessionUser {
  return passwordChangeDue(temporaryPassword, rules)
    ? { role: 'student', student, passwordChangeRequired: true }
    : { role: 'student', student };
}

export async function loginStudent(db: Db, input: StudentLoginInput, rules: PasswordRules, context: RequestContext): Promise<LoginResult> {
  const attempt = await beginAttempt(db, `student:${input.studentId}`, context);
  const [row] = await selectStudents(db)
    .where(and(eq(students.studentId, input.studentId), isNull(students.deletedAt)))
    .limit(1);
  const valid = await verifyPassword(row?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (!row || !valid) {
    await recordFailure(db, attempt, context, row ? 'wrong_password' : 'unknown_account');
    throw new AppError('student_login_failed');
  }
  const now = new Date();
  const [updated] = await db.update(students).set({ lastLogin: now }).where(eq(students.id, row.id)).returning();
  await clearFailures(db, attempt);
  const session = await createSession(db, { studentUuid: row.id }, context);
  await recordAudit(db, {
    actor: { kind: 'student', id: row.id, label: `${row.name} (${row.studentId})` },
    action: 'login.success',
    ip: context.ip,
  });
  return { ...session, user: studentUser(await loadSelfStudent(db, { ...row, ...updated }), row.temporaryPassword, rules) };
}

export async function loginAdmin(db: Db, input: AdminLoginInput, rules: PermissionRules, context: RequestContext): Promise<LoginResult> {
  const email = input.email.toLowerCase();
  const attempt = await beginAttempt(db, `admin:${email}`, context);
  const [row] = await db
    .select()
    .from(admins)
    .where(eq(sql`lower(${admins.email})`, email))
    .limit(1);
  const valid = await verifyPassword(row?.passwordHash ?? (await dummyPasswordHash()), input.password);
  // A deactivated member is refused as a wrong password is: the answer does not say the account exists.
  if (!row || !valid || !row.active) {
    await recordFailure(db, attempt, context, !row ? 'unknown_account' : valid ? 'inactive_account' : 'wrong_password');
    throw new AppError('admin_login_failed');
  }
  await db.update(admins).set({ lastLogin: new Date() }).where(eq(admins.id, row.id));
  await clearFailures(db, attempt);
  const session = await createSession(db, { adminId: row.id }, context);
  await recordAudit(db, {
    actor: { kind: 'admin', id: row.id, label: row.name },
    action: 'login.success',
    ip: context.ip,
  });
  return { ...session, user: staffUser(await loadSelfAdmin(db, row, rules)) };
}

/** Activity refreshes the idle timer at most once a minute, to spare a write per request. */
const TOUCH_INTERVAL_MS = 60_000;

type SessionRow = {
  last_seen_at: Date;
  expires_at: Date;
  student_uuid: string | null;
  student_name: string | null;
  student_id: string | null;
  student_deleted_at: Date | null;
  student_temporary_password: boolean | null;
  admin_id: string | null;
  admin_name: string | null;
  admin_email: string | null;
  admin_role: StaffRole | null;
  admin_active: boolean | null;
  admin_turma_ids: string[] | null;
  guardian_id: string | null;
  guardian_name: string | null;
  guardian_email: string | null;
};

/**
 * Read whenever a session is not in the cache (every few seconds for each active user): a
 * named prepared statement, planned once per connection and sent without the query
 * builder, whose building cost more CPU than the lookup itself.
 */
const SESSION_BY_TOKEN: PreparedStatement = {
  name: 'session_by_token',
  text: `SELECT s.last_seen_at, s.expires_at,
                st.id AS student_uuid, st.name AS student_name, st.student_id, st.deleted_at AS student_deleted_at,
                st.temporary_password AS student_temporary_password,
                a.id AS admin_id, a.name AS admin_name, a.email AS admin_email, a.role AS admin_role, a.active AS admin_active,
                CASE WHEN a.role = 'teacher' THEN array(SELECT t.turma_id FROM staff_turmas t WHERE t.admin_id = a.id) END AS admin_turma_ids,
                g.id AS guardian_id, g.name AS guardian_name, g.email AS guardian_email
           FROM sessions s
           LEFT JOIN students st ON st.id = s.student_id
           LEFT JOIN admins a ON a.id = s.admin_id
           LEFT JOIN guardians g ON g.id = s.guardian_id
          WHERE s.token_hash = $1`,
};

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
  const [row] = await runPrepared<SessionRow>(db, SESSION_BY_TOKEN, [tokenHash]);
  if (!row) return null;
  const now = Date.now();
  const idleExpired = row.last_seen_at.getTime() + SESSION_IDLE_MS <= now;
  if (idleExpired || row.expires_at.getTime() <= now || row.student_deleted_at || row.admin_active === false) {
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    return null;
  }
  let lastSeenAt = row.last_seen_at.getTime();
  if (now - lastSeenAt > TOUCH_INTERVAL_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.tokenHash, tokenHash));
    lastSeenAt = now;
  }
  const principal: Principal | null =
    row.student_uuid !== null
      ? {
          role: 'student',
          id: row.student_uuid,
          name: row.student_name!,
          studentId: row.student_id!,
          temporaryPassword: row.student_temporary_password ?? false,
        }
      : row.admin_id !== null
        ? {
            role: 'admin',
            id: row.admin_id,
            name: row.admin_name!,
            email: row.admin_email!,
            staffRole: row.admin_role!,
            turmaIds: row.admin_turma_ids ?? [],
          }
        : row.guardian_id !== null
          ? { role: 'guardian', id: row.guardian_id, name: row.guardian_name!, email: row.guardian_email! }
          : null;
  return principal && { principal, lastSeenAt, expiresAt: row.expires_at.getTime() };
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
    actor: auditActor(principal),
    action: 'logout',
    ip: context.ip,
  });
}

export async function currentUser(db: Db, principal: Principal, rules: PermissionRules & PasswordRules): Promise<SessionUser> {
  if (principal.role === 'student') {
    const [row] = await selectStudents(db).where(eq(students.id, principal.id)).limit(1);
    if (!row || row.deletedAt) throw new AppError('unauthenticated');
    return studentUser(await loadSelfStudent(db, row), row.temporaryPassword, rules);
  }
  if (principal.role === 'guardian') return { role: 'guardian', guardian: await loadSelfGuardian(db, principal.id) };
  const [row] = await db.select().from(admins).where(eq(admins.id, principal.id)).limit(1);
  if (!row || !row.active) throw new AppError('unauthenticated');
  return staffUser(await loadSelfAdmin(db, row, rules));
}

/**
 * Ends every session of a student (removal, password reset), on every server instance if the transaction commits. The
 * sessions a reset ends are remembered, so the student's page is told why it was signed out (passwordResetSessions).
 */
export async function endStudentSessions(
  db: DbOrTx,
  events: EventBus,
  studentUuid: string,
  options: { passwordReset?: boolean } = {},
): Promise<void> {
  const ended = await db.delete(sessions).where(eq(sessions.studentUuid, studentUuid)).returning({ tokenHash: sessions.tokenHash });
  if (options.passwordReset && ended.length > 0) await db.insert(passwordResetSessions).values(ended).onConflictDoNothing();
  await events.publish(db, { type: 'sessions_ended', studentUuid });
}

/**
 * A student chooses their own password. The current one is checked as a sign-in checks it (its failures count toward the
 * same limits, so a session left open is no way to guess it); the new one is theirs, no longer temporary; every other
 * session of theirs ends, this one stays. Audited, without either password.
 */
export async function changeOwnPassword(
  db: Db,
  events: EventBus,
  student: StudentActor,
  token: string,
  input: ChangeOwnPasswordInput,
  context: RequestContext,
): Promise<{ message: string }> {
  const attempt = await beginAttempt(db, `student:${student.studentId}`, context);
  const [row] = await db
    .select({ passwordHash: students.passwordHash })
    .from(students)
    .where(and(eq(students.id, student.id), isNull(students.deletedAt)));
  if (!row || !(await verifyPassword(row.passwordHash, input.currentPassword))) {
    await recordFailure(db, attempt, context, 'wrong_current_password', { studentUuid: student.id });
    throw new AppError('current_password_wrong', { fields: { currentPassword: ERROR_MESSAGES.current_password_wrong } });
  }
  await clearFailures(db, attempt);
  if (input.newPassword === input.currentPassword)
    throw new AppError('password_unchanged', { fields: { newPassword: ERROR_MESSAGES.password_unchanged } });
  const passwordHash = await hashPassword(input.newPassword);
  const kept = hashToken(token);
  await db.transaction(async (tx) => {
    await tx.update(students).set({ passwordHash, temporaryPassword: false, updatedAt: new Date() }).where(eq(students.id, student.id));
    const ended = await tx
      .delete(sessions)
      .where(and(eq(sessions.studentUuid, student.id), ne(sessions.tokenHash, kept)))
      .returning({ tokenHash: sessions.tokenHash });
    // Each ended session by its token, so this one's page and event stream carry on.
    for (const { tokenHash } of ended) await events.publish(tx, { type: 'sessions_ended', tokenHash });
    await recordAudit(tx, {
      actor: auditActor(student),
      action: 'student.password_change',
      ip: context.ip,
      details: { studentUuid: student.id, studentId: student.studentId, endedSessions: ended.length },
    });
  });
  return { message: OWN_PASSWORD_TEXTS.changed };
}

/** Whether a session token (one that no longer signs anybody in) was ended by a reset of its student's password. */
export async function endedByPasswordReset(db: Db, token: string): Promise<boolean> {
  const [row] = await db
    .select({ tokenHash: passwordResetSessions.tokenHash })
    .from(passwordResetSessions)
    .where(eq(passwordResetSessions.tokenHash, hashToken(token)))
    .limit(1);
  return row !== undefined;
}

/** The longest window of the sign-in limits: older failures no longer count anywhere. */
const LOGIN_FAILURE_MEMORY_MS = Math.max(...Object.values(LOGIN_LIMITS).map((limit) => limit.windowMs));

/** Drops expired sessions, failures no sign-in limit counts any more and sign-ins at a provider never finished; run periodically. */
export async function sweepAuthState(db: Db): Promise<void> {
  const now = new Date();
  await db.delete(oidcStates).where(lt(oidcStates.expiresAt, now));
  await db.delete(sessions).where(or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS))));
  await db.delete(loginFailures).where(lt(loginFailures.at, new Date(now.getTime() - LOGIN_FAILURE_MEMORY_MS)));
  // Past a session's longest life, its cookie would have expired anyway.
  await db.delete(passwordResetSessions).where(lt(passwordResetSessions.endedAt, new Date(now.getTime() - SESSION_ABSOLUTE_MS)));
}
