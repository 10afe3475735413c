import { asc, desc, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { students } from '../../db/schema.ts';
import type { PublicStudent } from '../../../shared/auth.ts';
import type { DirectoryPage } from '../../../shared/students.ts';
import { searchStudents } from './student-search.ts';
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

/** A page of the students a student can send to (current students except themself), searched by name, matrícula or série. */
export async function transferDirectory(
  db: Db,
  selfId: string,
  { q, page, size }: { q?: string | undefined; page: number; size: number },
): Promise<DirectoryPage> {
  const found = await searchStudents(db, { q, exceptId: selfId, byEmail: false }, { page, size });
  return { items: await withTags(db, found.rows), total: found.total, page, size };
}
