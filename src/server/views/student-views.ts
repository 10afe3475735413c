import { and, eq, getTableColumns, gt, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { students, studentTags, turmas } from '../db/schema.ts';
import type { PublicStudent, SelfStudent, StudentTag } from '../../shared/auth.ts';
import { nameOrderOf } from './name-order.ts';

/*
 * How a student's row is shown through the API, for every module that shows students (the
 * signed-in student of auth, the ranking, the ledger's lists, the tags): a layer below the
 * modules, so none of them has to import another for it.
 */

/** A student's row with the name of their turma, which the API shows as `grade` (decision 013). */
export type StudentRow = typeof students.$inferSelect & { grade: string };

/** Students' names in the order a Brazilian reader expects (nameOrderOf). */
export const nameSortKey = nameOrderOf(students.name);

/** Students with their turma's name: add the conditions, order and locks (`of: students`) to it. */
export function selectStudents(db: DbOrTx) {
  return db
    .select({ ...getTableColumns(students), grade: turmas.name })
    .from(students)
    .innerJoin(turmas, eq(turmas.id, students.turmaId));
}

/** The photo address with its version, so a changed photo is never served from cache. */
export function photoAddress(row: Pick<StudentRow, 'photoUrl' | 'photoVersion'>): string | null {
  if (!row.photoUrl) return null;
  return `${row.photoUrl}${row.photoUrl.includes('?') ? '&' : '?'}v=${row.photoVersion}`;
}

/** Active (unexpired) tags of the given students, by the student row's UUID. */
export async function activeTagsByStudent(db: DbOrTx, studentUuids: string[]): Promise<Map<string, StudentTag[]>> {
  const byStudent = new Map<string, StudentTag[]>();
  if (studentUuids.length === 0) return byStudent;
  const rows = await db
    .select()
    .from(studentTags)
    .where(and(inArray(studentTags.studentUuid, studentUuids), gt(studentTags.expiresAt, new Date())));
  for (const row of rows) {
    const list = byStudent.get(row.studentUuid) ?? [];
    list.push({ kind: row.kind, assignedAt: row.assignedAt.toISOString(), expiresAt: row.expiresAt.toISOString() });
    byStudent.set(row.studentUuid, list);
  }
  return byStudent;
}

/** Who looks at a student's row: the staff, the student themself, or another student. */
export type PhotoViewer = { role: 'student' | 'admin'; id: string };

/**
 * A student's photo as `viewer` may see it (decision 030): another student sees it only when the school recorded the
 * signed image consent, and the initials otherwise (null); the student themself and the staff always see it.
 */
export function photoSeenBy(
  viewer: PhotoViewer,
  row: Pick<StudentRow, 'id' | 'photoUrl' | 'photoVersion' | 'imageConsent'>,
): string | null {
  return viewer.role !== 'student' || viewer.id === row.id || row.imageConsent ? photoAddress(row) : null;
}

export function toPublicStudent(row: StudentRow, tags: StudentTag[], viewer: PhotoViewer): PublicStudent {
  return {
    id: row.id,
    studentId: row.studentId,
    name: row.name,
    grade: row.grade,
    photo: photoSeenBy(viewer, row),
    meritus: row.meritus,
    estelecas: row.estelecas,
    tags,
  };
}

export function toSelfStudent(row: StudentRow, tags: StudentTag[]): SelfStudent {
  return {
    ...toPublicStudent(row, tags, { role: 'student', id: row.id }),
    email: row.email,
    birthDate: row.birthDate,
    totalEarned: row.totalEarned,
    lastLogin: row.lastLogin?.toISOString() ?? null,
    rankingHidden: row.rankingHidden,
  };
}

export async function loadSelfStudent(db: DbOrTx, row: StudentRow): Promise<SelfStudent> {
  const tags = await activeTagsByStudent(db, [row.id]);
  return toSelfStudent(row, tags.get(row.id) ?? []);
}
