import { and, count, desc, eq, gt, inArray, isNull, lte } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { students, studentTags, tagLikes, turmas } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import { auditActor, turmaScopeOf, type AdminActor, type Principal } from '../auth/actor.ts';
import { assertStudentInScope } from '../../views/turma-scope.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { ActiveTag } from '../../../shared/students.ts';
import { ADMIN_STUDENT_TEXTS, type TagChangeResult } from '../../../shared/admin-students.ts';
import { TAG_DURATION_MAX_DAYS, TAG_NAMES, type TagKind } from '../../../shared/constants.ts';
import { activeTagsByStudent, photoAddress } from '../../views/student-views.ts';
import { isHiddenFrom, shownTo, viewerOf, type RankingPrivacy } from '../../views/student-privacy.ts';

/** Removes tags past their expiry; reads already ignore them, this keeps the table small. */
export async function sweepExpiredTags(db: Db): Promise<number> {
  const removed = await db.delete(studentTags).where(lte(studentTags.expiresAt, new Date())).returning({ id: studentTags.id });
  return removed.length;
}

/**
 * Every unexpired tag of a current student, newest first, with its like count; to a student, the holders as the school's
 * privacy rules show them (decision 029), without those who chose not to appear.
 */
export async function listActiveTags(db: Db, principal: Principal, privacy: RankingPrivacy): Promise<ActiveTag[]> {
  const viewer = viewerOf(principal);
  const rows = await db
    .select({ tag: studentTags, student: students, grade: turmas.name })
    .from(studentTags)
    .innerJoin(students, eq(students.id, studentTags.studentUuid))
    .innerJoin(turmas, eq(turmas.id, students.turmaId))
    .where(and(gt(studentTags.expiresAt, new Date()), isNull(students.deletedAt)))
    .orderBy(desc(studentTags.assignedAt))
    .then((found) => found.filter(({ student }) => !isHiddenFrom(viewer, privacy, student)));
  // Likes of the tags shown only: those of expired tags stay in the table and would be counted on every read.
  const shown = rows.map(({ tag }) => tag.id);
  const [likeCounts, likedByViewer] =
    shown.length === 0
      ? [[], []]
      : await Promise.all([
          db.select({ tagId: tagLikes.tagId, n: count() }).from(tagLikes).where(inArray(tagLikes.tagId, shown)).groupBy(tagLikes.tagId),
          viewer.kind === 'student'
            ? db
                .select({ tagId: tagLikes.tagId })
                .from(tagLikes)
                .where(and(eq(tagLikes.studentUuid, viewer.id), inArray(tagLikes.tagId, shown)))
            : [],
        ]);
  const countByTag = new Map(likeCounts.map((row) => [row.tagId, row.n]));
  const mine = new Set(likedByViewer.map((row) => row.tagId));
  return rows.map(({ tag, student, grade }) => ({
    id: tag.id,
    kind: tag.kind,
    assignedAt: tag.assignedAt.toISOString(),
    expiresAt: tag.expiresAt.toISOString(),
    student: shownTo(viewer, privacy, {
      id: student.id,
      studentId: student.studentId,
      name: student.name,
      grade,
      photo: photoAddress(student),
      photoShared: student.imageConsent,
    }),
    likes: countByTag.get(tag.id) ?? 0,
    likedByMe: mine.has(tag.id),
  }));
}

export type TagWriteDeps = { db: Db; events: EventBus };
type TagContext = { ip?: string | undefined };

const DAY_MS = 86_400_000;

/** A current student the staff member may tag (a teacher: of their turmas), locked for the rest of the transaction. */
async function lockCurrentStudent(tx: Tx, admin: AdminActor, id: string) {
  const [row] = await tx
    .select({ id: students.id, studentId: students.studentId, name: students.name, turmaId: students.turmaId })
    .from(students)
    .where(and(eq(students.id, id), isNull(students.deletedAt)))
    .for('update');
  if (!row) throw new AppError('student_not_found');
  assertStudentInScope(turmaScopeOf(admin), row);
  return row;
}

async function tagsAfter(tx: Tx, studentUuid: string) {
  return (await activeTagsByStudent(tx, [studentUuid])).get(studentUuid) ?? [];
}

/**
 * Gives a student a weekly tag for `days` days from now (the school's default length when not
 * given). A tag still running is extended (its likes stay); an expired one not yet swept starts afresh.
 */
export async function giveTag(
  deps: TagWriteDeps & { settings: SettingsStore },
  admin: AdminActor,
  studentUuid: string,
  kind: TagKind,
  requestedDays: number | undefined,
  context: TagContext = {},
): Promise<TagChangeResult> {
  const { rules, school } = await deps.settings.get();
  const days = requestedDays ?? rules.defaultTagDays;
  return deps.db.transaction(async (tx) => {
    const student = await lockCurrentStudent(tx, admin, studentUuid);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + days * DAY_MS);
    const [existing] = await tx
      .select()
      .from(studentTags)
      .where(and(eq(studentTags.studentUuid, studentUuid), eq(studentTags.kind, kind)));
    if (existing && existing.expiresAt > now) {
      await tx.update(studentTags).set({ expiresAt, assignedBy: admin.id }).where(eq(studentTags.id, existing.id));
    } else {
      if (existing) await tx.delete(studentTags).where(eq(studentTags.id, existing.id));
      await tx.insert(studentTags).values({ studentUuid, kind, assignedAt: now, expiresAt, assignedBy: admin.id });
    }
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'tag.add',
      ip: context.ip,
      details: { studentUuid, studentId: student.studentId, kind, tag: TAG_NAMES[kind], days, expiresAt: expiresAt.toISOString() },
    });
    await deps.events.publish(tx, { type: 'tags', studentUuids: [studentUuid] });
    return { message: ADMIN_STUDENT_TEXTS.tagAdded(kind, expiresAt, school.timeZone), tags: await tagsAfter(tx, studentUuid) };
  });
}

/** Takes a running tag away; its likes go with it. */
export async function takeTag(
  deps: TagWriteDeps,
  admin: AdminActor,
  studentUuid: string,
  kind: TagKind,
  context: TagContext = {},
): Promise<TagChangeResult> {
  return deps.db.transaction(async (tx) => {
    const student = await lockCurrentStudent(tx, admin, studentUuid);
    const removed = await tx
      .delete(studentTags)
      .where(and(eq(studentTags.studentUuid, studentUuid), eq(studentTags.kind, kind), gt(studentTags.expiresAt, new Date())))
      .returning({ id: studentTags.id });
    if (removed.length === 0) throw new AppError('tag_not_found', { status: 404 });
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'tag.remove',
      ip: context.ip,
      details: { studentUuid, studentId: student.studentId, kind, tag: TAG_NAMES[kind] },
    });
    await deps.events.publish(tx, { type: 'tags', studentUuids: [studentUuid] });
    return { message: ADMIN_STUDENT_TEXTS.tagRemoved(kind), tags: await tagsAfter(tx, studentUuid) };
  });
}

/**
 * Moves the end of a running tag to an exact moment (ending it early, or keeping it to a
 * date rather than a number of days); at most 365 days ahead.
 */
export async function moveTagExpiry(
  deps: TagWriteDeps & { settings: SettingsStore },
  admin: AdminActor,
  studentUuid: string,
  kind: TagKind,
  expiresAt: Date,
  context: TagContext = {},
): Promise<TagChangeResult> {
  const { timeZone } = (await deps.settings.get()).school;
  const now = new Date();
  if (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() > now.getTime() + TAG_DURATION_MAX_DAYS * DAY_MS) {
    throw new AppError('invalid_tag_expiry');
  }
  return deps.db.transaction(async (tx) => {
    const student = await lockCurrentStudent(tx, admin, studentUuid);
    const moved = await tx
      .update(studentTags)
      .set({ expiresAt, assignedBy: admin.id })
      .where(and(eq(studentTags.studentUuid, studentUuid), eq(studentTags.kind, kind), gt(studentTags.expiresAt, now)))
      .returning({ id: studentTags.id });
    if (moved.length === 0) throw new AppError('tag_not_found', { status: 404 });
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'tag.expiry',
      ip: context.ip,
      details: { studentUuid, studentId: student.studentId, kind, tag: TAG_NAMES[kind], expiresAt: expiresAt.toISOString() },
    });
    await deps.events.publish(tx, { type: 'tags', studentUuids: [studentUuid] });
    const message =
      expiresAt > now ? ADMIN_STUDENT_TEXTS.tagExpiryChanged(kind, expiresAt, timeZone) : ADMIN_STUDENT_TEXTS.tagRemoved(kind);
    return { message, tags: await tagsAfter(tx, studentUuid) };
  });
}
