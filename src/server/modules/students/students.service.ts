import { and, asc, desc, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { students } from '../../db/schema.ts';
import type { PublicStudent } from '../../../shared/auth.ts';
import { activeTagsByStudent, selectStudents, toPublicStudent, type StudentRow } from '../../views/student-views.ts';

async function withTags(db: Db, rows: StudentRow[]): Promise<PublicStudent[]> {
  const tags = await activeTagsByStudent(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toPublicStudent(row, tags.get(row.id) ?? []));
}

/** Current students by Méritus, highest first; ties by name so the order is stable. */
export async function ranking(db: Db): Promise<PublicStudent[]> {
  const rows = await selectStudents(db).where(isNull(students.deletedAt)).orderBy(desc(students.meritus), asc(students.name));
  return withTags(db, rows);
}

/** Everyone a student can send to: current students except themself. */
export async function transferDirectory(db: Db, selfId: string): Promise<PublicStudent[]> {
  const rows = await selectStudents(db)
    .where(and(isNull(students.deletedAt), ne(students.id, selfId)))
    .orderBy(asc(students.name));
  return withTags(db, rows);
}
