import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog, students } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, turmaScopeOf, type AdminActor, type GuardianActor } from '../auth/actor.ts';
import { assertStudentInScope } from '../../views/turma-scope.ts';
import { ACCESS_LOG_LIMIT, LGPD_TEXTS, type AccessKind, type AccessLog, type StudentPersonalData } from '../../../shared/lgpd.ts';

/**
 * The audit actions that make a student's access log (decision 030): a member of the staff opened their personal data
 * (email, birth date), or the coordination exported all of it. Lists that merely carry those fields are not views.
 */
export const ACCESS_ACTIONS = ['student.personal_data_view', 'student.personal_data_export'] as const;
const KIND_OF: Record<(typeof ACCESS_ACTIONS)[number], AccessKind> = {
  'student.personal_data_view': 'personal_data',
  'student.personal_data_export': 'export',
};

/** A student's email, birth date and consent, for the staff member who opens them; the view enters the access log. */
export async function readPersonalData(
  db: Db,
  admin: AdminActor,
  id: string,
  context: { ip?: string | undefined } = {},
): Promise<StudentPersonalData> {
  const [row] = await db.select().from(students).where(eq(students.id, id));
  if (!row) throw new AppError('student_not_found');
  assertStudentInScope(turmaScopeOf(admin), row);
  await recordAudit(db, {
    actor: auditActor(admin),
    action: ACCESS_ACTIONS[0],
    ip: context.ip,
    details: { studentUuid: id, studentId: row.studentId },
  });
  return {
    id: row.id,
    studentId: row.studentId,
    name: row.name,
    email: row.email,
    birthDate: row.birthDate,
    imageConsent: row.imageConsent,
    removed: row.deletedAt !== null,
    erased: row.erasedAt !== null,
  };
}

/** Who saw the student's personal data and when, newest first (the last ACCESS_LOG_LIMIT views). */
export async function accessLogOf(db: Db, studentUuid: string): Promise<AccessLog> {
  const rows = await db
    .select({ at: auditLog.at, action: auditLog.action, who: auditLog.actorLabel })
    .from(auditLog)
    .where(
      and(
        sql`${auditLog.details} ? 'studentUuid'`,
        sql`${auditLog.details}->>'studentUuid' = ${studentUuid}`,
        inArray(auditLog.action, [...ACCESS_ACTIONS]),
      ),
    )
    .orderBy(desc(auditLog.at))
    .limit(ACCESS_LOG_LIMIT);
  return {
    items: rows.map((row) => ({
      at: row.at.toISOString(),
      kind: KIND_OF[row.action as (typeof ACCESS_ACTIONS)[number]],
      who: row.who ?? 'Sistema',
    })),
  };
}

/** The access log of a student the school has (removed and erased ones too: the log outlives them). */
export async function studentAccessLog(db: Db, studentUuid: string): Promise<AccessLog> {
  const [row] = await db.select({ id: students.id }).from(students).where(eq(students.id, studentUuid));
  if (!row) throw new AppError('student_not_found');
  return accessLogOf(db, studentUuid);
}

/**
 * Records (or withdraws) the image consent of a current student: the coordination from the signed form, or a linked
 * guardian in the family area (who checked the link first, decision 037); others' screens follow at once.
 */
export async function setImageConsent(
  deps: { db: Db; events: EventBus },
  admin: AdminActor | GuardianActor,
  id: string,
  consent: boolean,
  context: { ip?: string | undefined } = {},
): Promise<{ message: string }> {
  const name = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(students)
      .set({ imageConsent: consent, updatedAt: new Date() })
      .where(and(eq(students.id, id), sql`${students.deletedAt} IS NULL`))
      .returning({ name: students.name, studentId: students.studentId });
    if (!row) throw new AppError('student_not_found');
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'student.image_consent',
      ip: context.ip,
      details: { studentUuid: id, studentId: row.studentId, consent },
    });
    // The ranking and every list with photos are read again.
    await deps.events.publish(tx, { type: 'students' });
    return row.name;
  });
  return { message: consent ? LGPD_TEXTS.consentGiven(name) : LGPD_TEXTS.consentWithdrawn(name) };
}
