import { and, count, desc, eq, gt, isNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { students, studentTags, tagLikes } from '../../db/schema.ts';
import type { Principal } from '../auth/auth.service.ts';
import type { ActiveTag } from '../../../shared/students.ts';
import { photoAddress } from '../students/student-views.ts';

/** Removes tags past their expiry; reads already ignore them, this keeps the table small. */
export async function sweepExpiredTags(db: Db): Promise<number> {
  const removed = await db.delete(studentTags).where(lte(studentTags.expiresAt, new Date())).returning({ id: studentTags.id });
  return removed.length;
}

/** Every unexpired tag of a current student, newest first, with its like count. */
export async function listActiveTags(db: Db, viewer: Principal): Promise<ActiveTag[]> {
  const rows = await db
    .select({ tag: studentTags, student: students })
    .from(studentTags)
    .innerJoin(students, eq(students.id, studentTags.studentId))
    .where(and(gt(studentTags.expiresAt, new Date()), isNull(students.deletedAt)))
    .orderBy(desc(studentTags.assignedAt));
  const likeCounts = await db
    .select({ tagId: tagLikes.tagId, n: count() })
    .from(tagLikes)
    .groupBy(tagLikes.tagId);
  const countByTag = new Map(likeCounts.map((row) => [row.tagId, row.n]));
  const mine =
    viewer.role === 'student'
      ? new Set((await db.select({ tagId: tagLikes.tagId }).from(tagLikes).where(eq(tagLikes.studentId, viewer.id))).map((r) => r.tagId))
      : new Set<string>();
  return rows.map(({ tag, student }) => ({
    id: tag.id,
    kind: tag.kind,
    assignedAt: tag.assignedAt.toISOString(),
    expiresAt: tag.expiresAt.toISOString(),
    student: { id: student.id, studentId: student.studentId, name: student.name, grade: student.grade, photo: photoAddress(student) },
    likes: countByTag.get(tag.id) ?? 0,
    likedByMe: mine.has(tag.id),
  }));
}
