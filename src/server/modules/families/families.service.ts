import { createHash, randomInt } from 'node:crypto';
import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { guardianCodes, guardians, guardianStudents, students } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { achievementsOf, type SchoolRules } from '../../../shared/settings.ts';
import type { SessionUser } from '../../../shared/auth.ts';
import {
  FAMILY_RECENT_OPERATIONS,
  FAMILY_TEXTS,
  GUARDIAN_CODE_ALPHABET,
  GUARDIAN_CODE_DAYS,
  GUARDIAN_CODE_LENGTH,
  formatGuardianCode,
  normalizeGuardianCode,
  type AddChildInput,
  type FamilyChild,
  type FamilyChildSummary,
  type GuardianCodeResult,
  type GuardianLoginInput,
  type GuardianSignupInput,
  type StudentGuardians,
} from '../../../shared/families.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, turmaScopeOf, type AdminActor, type GuardianActor } from '../auth/actor.ts';
import { beginAttempt, clearFailures, createSession, recordFailure, type LoginResult, type RequestContext } from '../auth/auth.service.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../auth/password.ts';
import { activeTagsByStudent, photoAddress, selectStudents, type StudentRow } from '../../views/student-views.ts';
import { assertStudentInScope } from '../../views/turma-scope.ts';
import { rankingPrivacyOf } from '../../views/student-privacy.ts';
import { studentOperations } from '../ledger/ledger-queries.service.ts';
import { myOrders } from '../store/store-catalogue.service.ts';
import { setImageConsent } from '../lgpd/personal-data.service.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import { studentSummary } from '../students/student-summary.service.ts';
import type { RankingStore } from '../students/ranking-store.ts';
import { estelecasAchievements } from '../../../shared/student-figures.ts';

/*
 * Responsáveis (issue 37, decision 037). A code is 60 random bits shown once; only its SHA-256 is kept, so a leaked
 * table links nobody. Redeeming a code (sign-up, a second child) is an attempt counted like a sign-in (beginAttempt),
 * keyed by the address: guessing is slower than the codes' life. Every family read checks the link in the database,
 * so a link the coordination removes or an erasure drops is gone for the guardian's next request.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

function hashCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

function newCode(): string {
  let code = '';
  for (let i = 0; i < GUARDIAN_CODE_LENGTH; i += 1) code += GUARDIAN_CODE_ALPHABET[randomInt(GUARDIAN_CODE_ALPHABET.length)];
  return code;
}

/** A current student the staff member may manage (a teacher: of their turmas). */
export async function managedStudent(db: DbOrTx, admin: AdminActor, studentUuid: string): Promise<StudentRow> {
  const [row] = await selectStudents(db)
    .where(and(eq(students.id, studentUuid), isNull(students.deletedAt)))
    .limit(1);
  if (!row) throw new AppError('student_not_found');
  assertStudentInScope(turmaScopeOf(admin), row);
  return row;
}

/**
 * A new code for the student's guardians ('Carta para responsáveis'), shown once. The student's codes not yet used
 * stop being valid: a new letter replaces the one before (that is how a code is revoked).
 */
export async function createGuardianCode(
  db: Db,
  admin: AdminActor,
  studentUuid: string,
  context: RequestContext,
): Promise<GuardianCodeResult> {
  return db.transaction(async (tx) => {
    const student = await managedStudent(tx, admin, studentUuid);
    const issued = await issueCode(tx, admin, studentUuid, new Date());
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'guardian.code_create',
      ip: context.ip,
      details: { studentUuid, revoked: issued.revoked },
    });
    return { code: issued.code, expiresAt: issued.expiresAt.toISOString(), message: FAMILY_TEXTS.codeCreated(student.name) };
  });
}

/** A new code for the student (as printed), revoking the codes of theirs not yet used; only its hash is stored. */
export async function issueCode(
  tx: DbOrTx,
  admin: AdminActor,
  studentUuid: string,
  now: Date,
): Promise<{ code: string; expiresAt: Date; revoked: number }> {
  const revoked = await tx
    .update(guardianCodes)
    .set({ revokedAt: now })
    .where(and(eq(guardianCodes.studentUuid, studentUuid), isNull(guardianCodes.usedAt), isNull(guardianCodes.revokedAt)))
    .returning({ id: guardianCodes.id });
  const code = newCode();
  const expiresAt = new Date(now.getTime() + GUARDIAN_CODE_DAYS * DAY_MS);
  await tx.insert(guardianCodes).values({ codeHash: hashCode(code), studentUuid, createdBy: admin.id, expiresAt });
  return { code: formatGuardianCode(code), expiresAt, revoked: revoked.length };
}

/** Who follows a student, and whether a code waits to be used. */
export async function studentGuardians(db: Db, admin: AdminActor, studentUuid: string): Promise<StudentGuardians> {
  await managedStudent(db, admin, studentUuid);
  const [linked, [pending]] = await Promise.all([
    db
      .select({ id: guardians.id, name: guardians.name, email: guardians.email, linkedAt: guardianStudents.createdAt })
      .from(guardianStudents)
      .innerJoin(guardians, eq(guardians.id, guardianStudents.guardianId))
      .where(eq(guardianStudents.studentUuid, studentUuid))
      .orderBy(asc(guardianStudents.createdAt)),
    db
      .select({ createdAt: guardianCodes.createdAt, expiresAt: guardianCodes.expiresAt })
      .from(guardianCodes)
      .where(and(eq(guardianCodes.studentUuid, studentUuid), ...openCode()))
      .orderBy(desc(guardianCodes.createdAt))
      .limit(1),
  ]);
  return {
    guardians: linked.map((row) => ({ ...row, linkedAt: row.linkedAt.toISOString() })),
    pendingCode: pending ? { createdAt: pending.createdAt.toISOString(), expiresAt: pending.expiresAt.toISOString() } : null,
  };
}

/** A code still good: not used, not revoked, not expired. */
function openCode() {
  return [isNull(guardianCodes.usedAt), isNull(guardianCodes.revokedAt), gt(guardianCodes.expiresAt, sql`now()`)];
}

/** The coordination removes a link: the guardian stops following the student at once (their open streams start over). */
export async function unlinkGuardian(
  { db, events }: { db: Db; events: EventBus },
  admin: AdminActor,
  guardianId: string,
  studentUuid: string,
  context: RequestContext,
): Promise<{ message: string }> {
  return db.transaction(async (tx) => {
    const student = await managedStudent(tx, admin, studentUuid);
    const [removed] = await tx
      .delete(guardianStudents)
      .where(and(eq(guardianStudents.guardianId, guardianId), eq(guardianStudents.studentUuid, studentUuid)))
      .returning({ guardianId: guardianStudents.guardianId });
    if (!removed) throw new AppError('guardian_link_not_found');
    const [guardian] = await tx.select({ name: guardians.name }).from(guardians).where(eq(guardians.id, guardianId));
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'guardian.unlink',
      ip: context.ip,
      details: { guardianId, studentUuid },
    });
    await events.publish(tx, { type: 'family_changed', guardianId });
    return { message: FAMILY_TEXTS.linkRemoved(guardian!.name, student.name) };
  });
}

/**
 * Takes a code for the guardian (a transaction's lock on its row: two redemptions of one code cannot both win), or
 * answers null when no code is open under that text.
 */
async function redeemCode(tx: DbOrTx, code: string, guardianId: string): Promise<string | null> {
  const [taken] = await tx
    .update(guardianCodes)
    .set({ usedAt: new Date(), usedBy: guardianId })
    .where(and(eq(guardianCodes.codeHash, hashCode(normalizeGuardianCode(code))), ...openCode()))
    .returning({ studentUuid: guardianCodes.studentUuid });
  if (!taken) return null;
  const [student] = await tx
    .select({ id: students.id })
    .from(students)
    .where(and(eq(students.id, taken.studentUuid), isNull(students.deletedAt)));
  return student?.id ?? null;
}

/** A code that opens nothing: counted as a failed attempt. */
class CodeRefused extends Error {}

/** Whether a code is open (and its student current), without taking it. */
async function codeIsOpen(tx: DbOrTx, code: string): Promise<boolean> {
  const [open] = await tx
    .select({ id: guardianCodes.id })
    .from(guardianCodes)
    .innerJoin(students, and(eq(students.id, guardianCodes.studentUuid), isNull(students.deletedAt)))
    .where(and(eq(guardianCodes.codeHash, hashCode(normalizeGuardianCode(code))), ...openCode()));
  return open !== undefined;
}

/**
 * Runs a redemption of a code as one sign-in attempt: only a success clears the attempts. A refused code (CodeRefused)
 * counts as a failure, and so does a right code that made nothing (an email taken, a child already followed): the code
 * stays open then, and clearing would let its holder ask "is this email a guardian here?" without limit.
 */
async function asCodeAttempt<T>(db: Db, context: RequestContext, details: Record<string, unknown>, redeem: () => Promise<T>): Promise<T> {
  const attempt = await beginAttempt(db, `guardian-code:${context.ip}`, context);
  try {
    const result = await redeem();
    await clearFailures(db, attempt);
    return result;
  } catch (error) {
    if (!(error instanceof CodeRefused)) {
      await recordFailure(db, attempt, context, error instanceof AppError ? error.code : 'error', details);
      throw error;
    }
    await recordFailure(db, attempt, context, 'guardian_code_invalid', details);
    throw new AppError('guardian_code_invalid', { fields: { code: ERROR_MESSAGES.guardian_code_invalid } });
  }
}

/** A guardian's account from a child's code: the account, the link and the code's use in one transaction; then signed in. */
export async function signupGuardian(db: Db, input: GuardianSignupInput, context: RequestContext): Promise<LoginResult> {
  const passwordHash = await hashPassword(input.password);
  const created = await asCodeAttempt(db, context, {}, () =>
    db.transaction(async (tx) => {
      const [guardian] = await tx
        .insert(guardians)
        .values({ name: input.name, email: input.email, passwordHash, lastLogin: new Date() })
        .onConflictDoNothing()
        .returning({ id: guardians.id, name: guardians.name, email: guardians.email });
      if (!guardian) {
        // The email is someone's already: only a code's holder is told so.
        if (!(await codeIsOpen(tx, input.code))) throw new CodeRefused();
        throw new AppError('guardian_email_taken', { fields: { email: ERROR_MESSAGES.guardian_email_taken } });
      }
      const studentUuid = await redeemCode(tx, input.code, guardian.id);
      if (!studentUuid) throw new CodeRefused();
      await tx.insert(guardianStudents).values({ guardianId: guardian.id, studentUuid });
      await recordAudit(tx, {
        actor: { kind: 'guardian', id: guardian.id, label: guardian.name },
        action: 'guardian.signup',
        ip: context.ip,
        details: { studentUuid },
      });
      return guardian;
    }),
  );
  const session = await createSession(db, { guardianId: created.id }, context);
  return { ...session, user: { role: 'guardian', guardian: created } };
}

export async function loginGuardian(db: Db, input: GuardianLoginInput, context: RequestContext): Promise<LoginResult> {
  const email = input.email.toLowerCase();
  const attempt = await beginAttempt(db, `guardian:${email}`, context);
  const [row] = await db
    .select()
    .from(guardians)
    .where(eq(sql`lower(${guardians.email})`, email))
    .limit(1);
  const valid = await verifyPassword(row?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (!row || !valid) {
    await recordFailure(db, attempt, context, row ? 'wrong_password' : 'unknown_account');
    throw new AppError('admin_login_failed');
  }
  await db.update(guardians).set({ lastLogin: new Date() }).where(eq(guardians.id, row.id));
  await clearFailures(db, attempt);
  const session = await createSession(db, { guardianId: row.id }, context);
  await recordAudit(db, { actor: { kind: 'guardian', id: row.id, label: row.name }, action: 'login.success', ip: context.ip });
  const user: SessionUser = { role: 'guardian', guardian: { id: row.id, name: row.name, email: row.email } };
  return { ...session, user };
}

/** Another child, by that child's code; the guardian's open streams start over with them. */
export async function addChild(
  { db, events }: { db: Db; events: EventBus },
  guardian: GuardianActor,
  input: AddChildInput,
  context: RequestContext,
): Promise<FamilyChild> {
  const studentUuid = await asCodeAttempt(db, context, { guardianId: guardian.id }, () =>
    db.transaction(async (tx) => {
      const redeemed = await redeemCode(tx, input.code, guardian.id);
      if (!redeemed) throw new CodeRefused();
      const [linked] = await tx
        .insert(guardianStudents)
        .values({ guardianId: guardian.id, studentUuid: redeemed })
        .onConflictDoNothing()
        .returning();
      // Already followed: the code stays unused (the transaction rolls back), for the other guardian it was meant for.
      if (!linked) throw new AppError('guardian_already_linked', { fields: { code: ERROR_MESSAGES.guardian_already_linked } });
      await recordAudit(tx, {
        actor: auditActor(guardian),
        action: 'guardian.child_add',
        ip: context.ip,
        details: { studentUuid: redeemed },
      });
      await events.publish(tx, { type: 'family_changed', guardianId: guardian.id });
      return redeemed;
    }),
  );
  const [child] = await childRows(db, guardian.id, studentUuid);
  return toFamilyChild(child!);
}

/** The guardian's children (current students linked to them), or the one asked for. */
function childRows(db: DbOrTx, guardianId: string, studentUuid?: string): Promise<StudentRow[]> {
  return selectStudents(db)
    .innerJoin(guardianStudents, and(eq(guardianStudents.studentUuid, students.id), eq(guardianStudents.guardianId, guardianId)))
    .where(and(isNull(students.deletedAt), studentUuid === undefined ? undefined : eq(students.id, studentUuid)))
    .orderBy(asc(guardianStudents.createdAt));
}

/** A child as their guardian sees them: as the child sees themself (their own photo, consent or not). */
function toFamilyChild(row: StudentRow): FamilyChild {
  return { id: row.id, name: row.name, grade: row.grade, photo: photoAddress(row), meritus: row.meritus, estelecas: row.estelecas };
}

export async function familyChildren(db: Db, guardian: GuardianActor): Promise<{ children: FamilyChild[] }> {
  return { children: (await childRows(db, guardian.id)).map(toFamilyChild) };
}

/** The ids of every current child of the guardian (their live stream hears these). */
export async function childIdsOf(db: DbOrTx, guardianId: string): Promise<string[]> {
  return (await childRows(db, guardianId)).map((row) => row.id);
}

/**
 * One child's page in the family area. Another student's id, a removed child's or a link the school removed are 'not
 * found' alike. Operations show others as the child sees them; the school's two settings decide whether removals and
 * penalties are listed and whether the ranking position is.
 */
export async function familyChildSummary(
  db: Db,
  guardian: GuardianActor,
  studentUuid: string,
  rules: SchoolRules,
  ranking: RankingStore,
): Promise<FamilyChildSummary> {
  const [row] = await childRows(db, guardian.id, studentUuid);
  if (!row) throw new AppError('family_child_not_found');
  const privacy = rankingPrivacyOf(rules);
  const [figures, tags, operations, orders] = await Promise.all([
    // The child's own figures, as the child's home shows them (their position as they see it).
    studentSummary(db, ranking, row.id, rules.meritusGoal, privacy),
    activeTagsByStudent(db, [row.id]),
    studentOperations(db, row.id, {
      limit: FAMILY_RECENT_OPERATIONS,
      ...(rules.familiesSeePenalties ? {} : { excludeTypes: ['admin_remove', 'penalty'] as const }),
    }),
    myOrders(db, row),
  ]);
  return {
    child: toFamilyChild(row),
    imageConsent: row.imageConsent,
    tags: tags.get(row.id) ?? [],
    operations: operations.items,
    orders,
    ranking: rules.familiesSeeRanking ? { position: figures.rank.position, of: figures.rank.total } : null,
    achievements: estelecasAchievements(figures.estelecasStats.peak, figures.estelecas, achievementsOf(rules)),
  };
}

/** A linked guardian gives (or withdraws) the child's image consent; audited as the coordination's is (decision 030). */
export async function setChildImageConsent(
  deps: { db: Db; events: EventBus },
  guardian: GuardianActor,
  studentUuid: string,
  consent: boolean,
  context: RequestContext,
): Promise<{ message: string }> {
  const [row] = await childRows(deps.db, guardian.id, studentUuid);
  if (!row) throw new AppError('family_child_not_found');
  return setImageConsent(deps, guardian, row.id, consent, context);
}
