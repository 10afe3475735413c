import { and, eq, isNull } from 'drizzle-orm';
import { students } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { removeStoredPhoto, storeStudentPhoto } from '../../storage/photos.ts';
import { assertStudentInScope } from '../../views/turma-scope.ts';
import type { StudentRow } from '../../views/student-views.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, turmaScopeOf, type AdminActor } from '../auth/actor.ts';
import { ADMIN_STUDENT_TEXTS, type StudentWriteResult } from '../../../shared/admin-students.ts';
import { lockCurrentStudent, withTags, type ActionContext, type StudentChangeDeps } from './admin-students.service.ts';

/**
 * A student's photo, set by the staff (a teacher: of their turmas' students): uploaded, from an address (or the image
 * archive's 'Selecionar Imagem'), or removed. Split from admin-students.service.ts when it passed 400 lines (decision 017).
 */

/** Changes the photo column and bumps its version; returns the previous address to clean up. */
async function replacePhoto(
  deps: StudentChangeDeps,
  admin: AdminActor,
  id: string,
  photoUrl: string | null,
  action: string,
  context: ActionContext,
): Promise<{ before: StudentRow; after: StudentRow }> {
  return deps.db.transaction(async (tx) => {
    const before = await lockCurrentStudent(tx, admin, id);
    const [after] = await tx
      .update(students)
      .set({ photoUrl, photoVersion: before.photoVersion + 1, updatedAt: new Date() })
      .where(eq(students.id, id))
      .returning();
    await recordAudit(tx, {
      actor: auditActor(admin),
      action,
      ip: context.ip,
      details: { studentUuid: id, studentId: before.studentId, from: before.photoUrl, to: photoUrl },
    });
    await deps.events.publish(tx, { type: 'students' });
    return { before, after: { ...after!, grade: before.grade } };
  });
}

/** Stores an uploaded photo (checked by its bytes, re-encoded, thumbnail made) as the student's photo. */
export async function uploadStudentPhoto(
  deps: StudentChangeDeps,
  admin: AdminActor,
  id: string,
  bytes: Buffer,
  context: ActionContext = {},
): Promise<StudentWriteResult> {
  const [exists] = await deps.db
    .select({ id: students.id, turmaId: students.turmaId })
    .from(students)
    .where(and(eq(students.id, id), isNull(students.deletedAt)));
  if (!exists) throw new AppError('student_not_found');
  assertStudentInScope(turmaScopeOf(admin), exists);
  const stored = await storeStudentPhoto(deps.storage, id, bytes);
  let result: { before: StudentRow; after: StudentRow };
  try {
    result = await replacePhoto(deps, admin, id, stored, 'student.photo.upload', context);
  } catch (error) {
    await removeStoredPhoto(deps.storage, stored);
    throw error;
  }
  await removeStoredPhoto(deps.storage, result.before.photoUrl);
  return { message: ADMIN_STUDENT_TEXTS.photoUploaded, student: await withTags(deps.db, result.after) };
}

export async function setStudentPhotoUrl(
  deps: StudentChangeDeps,
  admin: AdminActor,
  id: string,
  url: string,
  context: ActionContext = {},
): Promise<StudentWriteResult> {
  const { before, after } = await replacePhoto(deps, admin, id, url, 'student.photo.url', context);
  if (before.photoUrl !== url) await removeStoredPhoto(deps.storage, before.photoUrl);
  return { message: ADMIN_STUDENT_TEXTS.photoUpdated, student: await withTags(deps.db, after) };
}

export async function removeStudentPhoto(
  deps: StudentChangeDeps,
  admin: AdminActor,
  id: string,
  context: ActionContext = {},
): Promise<StudentWriteResult> {
  const { before, after } = await replacePhoto(deps, admin, id, null, 'student.photo.remove', context);
  await removeStoredPhoto(deps.storage, before.photoUrl);
  return { message: ADMIN_STUDENT_TEXTS.photoRemoved, student: await withTags(deps.db, after) };
}
