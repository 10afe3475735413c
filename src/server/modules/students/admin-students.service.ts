import { and, asc, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { students, studentTags } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { isUploadedStudentPhoto, removeStoredPhoto, thumbnailOf } from '../../storage/photos.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { endStudentSessions } from '../auth/auth.service.ts';
import { auditActor, turmaScopeOf, type AdminActor } from '../auth/actor.ts';
import { assertStudentInScope, inScope, turmaInScope, type TurmaScope } from '../../views/turma-scope.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { checkStudentTurma } from '../settings/settings.service.ts';
import { hashPassword } from '../auth/password.ts';
import { creditInitialBalance } from '../ledger/ledger.service.ts';
import {
  activeTagsByStudent,
  nameSortKey,
  photoAddress,
  selectStudents,
  toSelfStudent,
  type StudentRow,
} from '../../views/student-views.ts';
import { toCsv } from '../../csv.ts';
import { currentStudentCount, searchStudents } from './student-search.ts';
import {
  ADMIN_STUDENT_TEXTS,
  generateReadablePassword,
  STUDENTS_CSV_HEADERS,
  type AdminStudent,
  type AdminStudentsPage,
  type CreateStudentInput,
  type PasswordResetResult,
  type StudentWriteResult,
  type UpdateStudentInput,
} from '../../../shared/admin-students.ts';
import type { StudentTag } from '../../../shared/auth.ts';
import { TAG_NAMES } from '../../../shared/constants.ts';
import { dayIn, formatDate, formatDateTime } from '../../../shared/format.ts';
import { sqlState } from '../../db/sql-state.ts';

/**
 * What another module does inside a removal's transaction, before the student leaves (the Loja refuses and refunds
 * their pending orders). Given by app.ts, so this module imports none of the modules that depend on it.
 */
export type StudentRemovalStep = (
  tx: Tx,
  events: EventBus,
  admin: AdminActor,
  studentUuid: string,
  ip: string | undefined,
) => Promise<void>;
/** What a change of a student's own row needs (their data, their photo). */
export type StudentChangeDeps = { db: Db; events: EventBus; storage: FileStorage };
export type AdminStudentsDeps = StudentChangeDeps & { beforeRemoval: StudentRemovalStep };
export type ActionContext = { ip?: string | undefined };

export const INITIAL_BALANCE_DESCRIPTION = 'Saldo inicial';

export function toAdminStudent(row: StudentRow, tags: StudentTag[]): AdminStudent {
  const photo = photoAddress(row);
  const thumb = row.photoUrl ? thumbnailOf(row.photoUrl) : null;
  return {
    ...toSelfStudent(row, tags),
    photoThumb: thumb ? `${thumb}?v=${row.photoVersion}` : photo,
    photoSource: row.photoUrl ? (isUploadedStudentPhoto(row.photoUrl) ? 'upload' : 'url') : null,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function withTags(db: DbOrTx, row: StudentRow): Promise<AdminStudent> {
  const tags = await activeTagsByStudent(db, [row.id]);
  return toAdminStudent(row, tags.get(row.id) ?? []);
}

/** Every current student of the scope with what the management screen shows, for the export (2,000 students ≈ 0.6 MB). */
async function everyAdminStudent(db: Db, scope: TurmaScope): Promise<AdminStudent[]> {
  const rows = await selectStudents(db)
    .where(and(isNull(students.deletedAt), turmaInScope(students.turmaId, scope)))
    .orderBy(asc(nameSortKey), asc(students.studentId));
  const tags = await activeTagsByStudent(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toAdminStudent(row, tags.get(row.id) ?? []));
}

/** A page of the management screen's search, with how many match and how many students the school has (a teacher: their turmas). */
export async function listAdminStudents(
  db: Db,
  admin: AdminActor,
  {
    q,
    turma,
    withEstelecas,
    page,
    size,
  }: { q?: string | undefined; turma?: string | undefined; withEstelecas?: boolean | undefined; page: number; size: number },
): Promise<AdminStudentsPage> {
  const scope = turmaScopeOf(admin);
  const [found, schoolTotal] = await Promise.all([
    searchStudents(db, { q, turma, withEstelecas, byEmail: true, scope }, { page, size }),
    currentStudentCount(db, scope),
  ]);
  const tags = await activeTagsByStudent(
    db,
    found.rows.map((row) => row.id),
  );
  return { items: found.rows.map((row) => toAdminStudent(row, tags.get(row.id) ?? [])), total: found.total, schoolTotal, page, size };
}

/** A current student the staff member may manage (a teacher: of their turmas), locked for the rest of the transaction (their turma's row is not). */
export async function lockCurrentStudent(tx: Tx, admin: AdminActor, id: string): Promise<StudentRow> {
  const [row] = await selectStudents(tx)
    .where(and(eq(students.id, id), isNull(students.deletedAt)))
    .for('update', { of: students });
  if (!row) throw new AppError('student_not_found');
  assertStudentInScope(turmaScopeOf(admin), row);
  return row;
}

/** The turma a student joins (checkStudentTurma's rule), which must be one of a teacher's turmas. */
async function joinableTurma(tx: Tx, admin: AdminActor, grade: string, currentId?: string) {
  const turma = await checkStudentTurma(tx, grade, currentId);
  if (!inScope(turmaScopeOf(admin), turma.id))
    throw new AppError('turma_outside_turmas', { fields: { grade: ERROR_MESSAGES.turma_outside_turmas } });
  return turma;
}

/** A concurrent insert of the same matrícula ends in the unique index; the client sees the usual message. */
async function translatingUniqueViolation<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (sqlState(error) === '23505') throw new AppError('student_id_taken');
    throw error;
  }
}

/** Matrículas are unique among current students; a removed student's matrícula can be given again. */
export async function assertStudentIdFree(db: DbOrTx, studentId: string, exceptId?: string): Promise<void> {
  if (await currentStudentMatches(db, eq(students.studentId, studentId), exceptId)) throw new AppError('student_id_taken');
}

/** An email identifies one current student (case-insensitive). */
export async function assertEmailFree(db: DbOrTx, email: string | null | undefined, exceptId?: string): Promise<void> {
  if (!email) return;
  if (await currentStudentMatches(db, eq(sql`lower(${students.email})`, email.toLowerCase()), exceptId)) throw new AppError('email_taken');
}

/** Whether a current student other than `exceptId` matches `condition`. */
async function currentStudentMatches(db: DbOrTx, condition: SQL, exceptId: string | undefined): Promise<boolean> {
  const conditions: SQL[] = [condition, isNull(students.deletedAt)];
  if (exceptId) conditions.push(ne(students.id, exceptId));
  const [taken] = await db
    .select({ id: students.id })
    .from(students)
    .where(and(...conditions))
    .limit(1);
  return taken !== undefined;
}

type CreateInput = {
  studentId: string;
  name: string;
  password: string;
  grade: string;
  email?: string | null | undefined;
  birthDate?: string | null | undefined;
  photo?: string | null | undefined;
  meritus?: number | undefined;
};

export async function createStudent(
  deps: AdminStudentsDeps,
  admin: AdminActor,
  input: CreateInput & Pick<CreateStudentInput, 'grade'>,
  context: ActionContext = {},
): Promise<StudentWriteResult> {
  const passwordHash = await hashPassword(input.password);
  const row = await translatingUniqueViolation(() =>
    deps.db.transaction(async (tx) => {
      await assertStudentIdFree(tx, input.studentId);
      await assertEmailFree(tx, input.email);
      const turma = await joinableTurma(tx, admin, input.grade);
      const [inserted] = await tx
        .insert(students)
        .values({
          studentId: input.studentId,
          name: input.name,
          turmaId: turma.id,
          email: input.email ?? null,
          birthDate: input.birthDate ?? null,
          photoUrl: input.photo ?? null,
          passwordHash,
        })
        .returning();
      let current: StudentRow = { ...inserted!, grade: turma.name };
      if (input.meritus && input.meritus > 0) {
        const { balances, entry } = await creditInitialBalance(
          tx,
          admin,
          current.id,
          input.meritus,
          INITIAL_BALANCE_DESCRIPTION,
          context.ip,
        );
        current = { ...current, ...balances };
        await deps.events.publish(tx, {
          type: 'ledger',
          studentUuids: [current.id],
          status: 'completed',
          lines: { entryIds: [entry.id], batchIds: [], refusedIds: [] },
        });
      }
      await recordAudit(tx, {
        actor: auditActor(admin),
        action: 'student.create',
        ip: context.ip,
        details: { studentUuid: current.id, studentId: current.studentId, name: current.name, initialMeritus: input.meritus ?? 0 },
      });
      await deps.events.publish(tx, { type: 'students' });
      return current;
    }),
  );
  return { message: ADMIN_STUDENT_TEXTS.created(row.name), student: await withTags(deps.db, row) };
}

export async function updateStudent(
  deps: AdminStudentsDeps,
  admin: AdminActor,
  id: string,
  input: UpdateStudentInput & { email?: string | null | undefined; birthDate?: string | null | undefined },
  context: ActionContext = {},
): Promise<StudentWriteResult> {
  const row = await translatingUniqueViolation(() =>
    deps.db.transaction(async (tx) => {
      const before = await lockCurrentStudent(tx, admin, id);
      if (input.studentId !== undefined && input.studentId !== before.studentId) await assertStudentIdFree(tx, input.studentId, id);
      if (input.email) await assertEmailFree(tx, input.email, id);
      const turma =
        input.grade !== undefined
          ? await joinableTurma(tx, admin, input.grade, before.turmaId)
          : { id: before.turmaId, name: before.grade };
      const changes = {
        ...(input.studentId !== undefined ? { studentId: input.studentId } : {}),
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.email !== undefined ? { email: input.email } : {}),
        ...(input.birthDate !== undefined ? { birthDate: input.birthDate } : {}),
      };
      const [after] = await tx
        .update(students)
        .set({ ...changes, ...(input.grade !== undefined ? { turmaId: turma.id } : {}), updatedAt: new Date() })
        .where(eq(students.id, id))
        .returning();
      // The audit names the turma as the screens do.
      const audited = { ...changes, ...(input.grade !== undefined ? { grade: turma.name } : {}) };
      const changed = Object.fromEntries(
        Object.entries(audited)
          .filter(([key, value]) => before[key as keyof typeof audited] !== value)
          .map(([key, value]) => [key, { from: before[key as keyof typeof audited], to: value }]),
      );
      await recordAudit(tx, {
        actor: auditActor(admin),
        action: 'student.update',
        ip: context.ip,
        details: { studentUuid: id, studentId: after!.studentId, changed },
      });
      await deps.events.publish(tx, { type: 'students' });
      return { ...after!, grade: turma.name };
    }),
  );
  return { message: ADMIN_STUDENT_TEXTS.updated(row.name), student: await withTags(deps.db, row) };
}

/**
 * Removes a student: they can no longer sign in, their sessions end and they leave every
 * list and ranking. Their ledger rows stay, so the other side of each transfer and every
 * total remain correct (histories show them marked as removed).
 */
export async function removeStudent(
  deps: AdminStudentsDeps,
  admin: AdminActor,
  id: string,
  context: ActionContext = {},
): Promise<{ message: string }> {
  const row = await deps.db.transaction(async (tx) => {
    const before = await lockCurrentStudent(tx, admin, id);
    // Their pending orders are refused and refunded first, while they are still a current student.
    await deps.beforeRemoval(tx, deps.events, admin, id, context.ip);
    const [after] = await tx
      .update(students)
      .set({ deletedAt: new Date(), photoUrl: null, photoVersion: before.photoVersion + 1, updatedAt: new Date() })
      .where(eq(students.id, id))
      .returning();
    await endStudentSessions(tx, deps.events, id);
    const droppedTags = await tx.delete(studentTags).where(eq(studentTags.studentUuid, id)).returning({ id: studentTags.id });
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'student.delete',
      ip: context.ip,
      details: {
        studentUuid: id,
        studentId: before.studentId,
        name: before.name,
        balances: { meritus: before.meritus, totalEarned: before.totalEarned, estelecas: before.estelecas },
      },
    });
    await deps.events.publish(tx, { type: 'students' });
    if (droppedTags.length > 0) await deps.events.publish(tx, { type: 'tags', studentUuids: [id] });
    return { before, after: after! };
  });
  // The photo is personal data with no further use; histories show only the name.
  await removeStoredPhoto(deps.storage, row.before.photoUrl);
  return { message: ADMIN_STUDENT_TEXTS.deleted(row.before.name) };
}

/**
 * Stores the passwords the staff gives to students the transaction has locked: each marked temporary (the school may
 * require the student to choose their own), their sessions ended with the reset's notice ('Sua senha foi redefinida…').
 * The one path of every reset: a student's, and a turma's or a selection's access cards.
 */
export async function storeGivenPasswords(tx: Tx, events: EventBus, given: { id: string; passwordHash: string }[]): Promise<void> {
  const now = new Date();
  for (const { id, passwordHash } of given) {
    await tx.update(students).set({ passwordHash, temporaryPassword: true, updatedAt: now }).where(eq(students.id, id));
    await endStudentSessions(tx, events, id, { passwordReset: true });
  }
}

export async function resetStudentPassword(
  deps: AdminStudentsDeps,
  admin: AdminActor,
  id: string,
  context: ActionContext = {},
): Promise<PasswordResetResult> {
  const password = generateReadablePassword();
  const passwordHash = await hashPassword(password);
  const row = await deps.db.transaction(async (tx) => {
    const student = await lockCurrentStudent(tx, admin, id);
    await storeGivenPasswords(tx, deps.events, [{ id, passwordHash }]);
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'student.password_reset',
      ip: context.ip,
      details: { studentUuid: id, studentId: student.studentId },
    });
    return student;
  });
  return { message: ADMIN_STUDENT_TEXTS.passwordReset(row.name), password };
}

/** Every current student as a spreadsheet (UTF-8 with BOM, `;`), times in the school's time zone. */
export async function exportStudentsCsv(
  db: Db,
  admin: AdminActor,
  context: ActionContext & { timeZone: string },
): Promise<{ fileName: string; csv: string }> {
  const list = await everyAdminStudent(db, turmaScopeOf(admin));
  const csv = toCsv(
    STUDENTS_CSV_HEADERS,
    list.map((s) => [
      s.studentId,
      s.name,
      s.email,
      s.grade,
      s.birthDate ? formatDate(s.birthDate) : null,
      s.meritus,
      s.totalEarned,
      s.estelecas,
      s.tags.map((tag) => TAG_NAMES[tag.kind]).join(', '),
      s.lastLogin ? formatDateTime(s.lastLogin, context.timeZone) : null,
      formatDateTime(s.createdAt, context.timeZone),
    ]),
  );
  await recordAudit(db, { actor: auditActor(admin), action: 'students.export', ip: context.ip, details: { rows: list.length } });
  return { fileName: `estudantes-${dayIn(context.timeZone, new Date())}.csv`, csv };
}
