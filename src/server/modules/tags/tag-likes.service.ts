import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { students, studentTags, tagLikes } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import type { TagLikeState } from '../../../shared/student-area.ts';

export type TagLikeDeps = { db: Db; events: EventBus };

/**
 * Likes or unlikes an active weekly tag for the signed-in student. Idempotent: liking
 * twice keeps one like. A student cannot like their own tag (unliking it stays possible).
 * Everyone's tag lists are told to refresh only when something actually changed, right
 * after the commit (a like is a student action that can be frequent, so it takes the
 * ledger's path: no NOTIFY inside the transaction).
 */
export async function setTagLike(
  { db, events }: TagLikeDeps,
  viewer: { id: string },
  tagId: string,
  liked: boolean,
): Promise<TagLikeState> {
  const { state, changed } = await db.transaction(async (tx) => {
    const [tag] = await tx
      .select({ holder: studentTags.studentUuid })
      .from(studentTags)
      .innerJoin(students, eq(students.id, studentTags.studentUuid))
      .where(and(eq(studentTags.id, tagId), gt(studentTags.expiresAt, new Date()), isNull(students.deletedAt)))
      .for('share', { of: studentTags });
    if (!tag) throw new AppError('tag_not_found', { status: 404 });
    if (liked && tag.holder === viewer.id) throw new AppError('tag_like_own');

    const rows = liked
      ? await tx.insert(tagLikes).values({ tagId, studentUuid: viewer.id }).onConflictDoNothing().returning({ tagId: tagLikes.tagId })
      : await tx
          .delete(tagLikes)
          .where(and(eq(tagLikes.tagId, tagId), eq(tagLikes.studentUuid, viewer.id)))
          .returning({ tagId: tagLikes.tagId });
    const [likes] = await tx.select({ n: count() }).from(tagLikes).where(eq(tagLikes.tagId, tagId));
    return { state: { tagId, likes: likes?.n ?? 0, likedByMe: liked }, changed: rows.length > 0 };
  });
  if (changed) events.publishAfterCommit({ type: 'tags', studentUuids: [] });
  return state;
}
