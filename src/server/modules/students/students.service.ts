import { and, asc, desc, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { students } from '../../db/schema.ts';
import type { PublicStudent } from '../../../shared/auth.ts';
import { activeTagsByStudent, toPublicStudent } from '../../views/student-views.ts';

async function withTags(db: Db, rows: (typeof students.$inferSelect)[]): Promise<PublicStudent[]> {
  const tags = await activeTagsByStudent(db, rows.map((row) => row.id));
  return rows.map((row) => toPublicStudent(row, tags.get(row.id) ?? []));
}

/** Current students by Méritus, highest first; ties by name so the order is stable. */
export async function ranking(db: Db): Promise<PublicStudent[]> {
  const rows = await db
    .select()
    .from(students)
    .where(isNull(students.deletedAt))
    .orderBy(desc(students.meritus), asc(students.name));
  return withTags(db, rows);
}

/** Everyone a student can send to: current students except themself. */
export async function transferDirectory(db: Db, selfId: string): Promise<PublicStudent[]> {
  const rows = await db
    .select()
    .from(students)
    .where(and(isNull(students.deletedAt), ne(students.id, selfId)))
    .orderBy(asc(students.name));
  return withTags(db, rows);
}
