import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { students, studentTags, tagLikes } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import type { TagLikeState } from '../../../shared/student-area.ts';

export type TagLikeDeps = { db: Db; events: EventBus };

/**
 * Likes or unlikes an active weekly tag for the signed-in student. Idempotent: liking
 * twice keeps one like. Everyone's tag lists are told to refresh only when something
 * actually changed.
 */
export async function setTagLike(
  { db, events }: TagLikeDeps,
  viewer: { id: string },
  tagId: string,
  liked: boolean,
): Promise<TagLikeState> {
  return db.transaction(async (tx) => {
    const [tag] = await tx
      .select({ id: studentTags.id })
      .from(studentTags)
      .innerJoin(students, eq(students.id, studentTags.studentId))
      .where(and(eq(studentTags.id, tagId), gt(studentTags.expiresAt, new Date()), isNull(students.deletedAt)))
      .for('share', { of: studentTags });
    if (!tag) throw new AppError('tag_not_found', { status: 404 });

    const changed = liked
      ? await tx.insert(tagLikes).values({ tagId, studentId: viewer.id }).onConflictDoNothing().returning({ tagId: tagLikes.tagId })
      : await tx
          .delete(tagLikes)
          .where(and(eq(tagLikes.tagId, tagId), eq(tagLikes.studentId, viewer.id)))
          .returning({ tagId: tagLikes.tagId });
    if (changed.length > 0) await events.publish(tx, { type: 'tags' });

    const [likes] = await tx.select({ n: count() }).from(tagLikes).where(eq(tagLikes.tagId, tagId));
    return { tagId, likes: likes?.n ?? 0, likedByMe: liked };
  });
}
