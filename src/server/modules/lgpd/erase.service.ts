import { and, eq, sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx, type Tx } from '../../db/client.ts';
import { lockForTransaction } from '../../db/advisory-locks.ts';
import {
  auditLog,
  guardianCodes,
  guardianStudents,
  mailOutbox,
  loginFailures,
  storeOrders,
  students,
  studentStoreGoals,
  studentTags,
  tagLikes,
} from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { removeStoredPhoto } from '../../storage/photos.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { endStudentSessions } from '../auth/auth.service.ts';
import { auditActor, type AdminActor, type SystemActor } from '../auth/actor.ts';
import type { AdminStudentsDeps } from '../students/admin-students.service.ts';
import { confirmationMatches, erasedStudentName, LGPD_TEXTS, type EraseStudentResult } from '../../../shared/lgpd.ts';

/** A removed student keeps no password: this is no argon2 hash, so every sign-in against it fails. */
const NO_PASSWORD = '!erased';

type StudentBefore = typeof students.$inferSelect;

/** `text` as a case-insensitive regular expression matching it literally (PostgreSQL's ARE, like JavaScript's). */
function literalPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The text inside a JSON string's quotes, as jsonb::text writes it. */
function jsonInner(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/**
 * Replaces the student's old name (case aside) with the anonymous one in the free texts that may carry it: what staff
 * wrote (reasons of awards, refusals, reversals), what the server wrote (transfer descriptions, messages), and the
 * audit's details. Every row of the school is looked at, not only the student's: a reason may name a classmate
 * (decision 030). A short name could hit inside another word: names are full names here, and erasure is rare.
 */
async function scrubName(tx: Tx, oldName: string, anonymous: string): Promise<void> {
  const pattern = literalPattern(oldName);
  const jsonPattern = literalPattern(jsonInner(oldName));
  const like = `%${oldName.replace(/[\\%_]/g, '\\$&')}%`;
  const jsonLike = `%${jsonInner(oldName).replace(/[\\%_]/g, '\\$&')}%`;
  await tx.execute(sql`UPDATE ledger_entries SET
      description = regexp_replace(description, ${pattern}, ${anonymous}, 'gi'),
      actor_name = regexp_replace(actor_name, ${pattern}, ${anonymous}, 'gi'),
      reversal_reason = regexp_replace(reversal_reason, ${pattern}, ${anonymous}, 'gi')
    WHERE description ILIKE ${like} OR actor_name ILIKE ${like} OR reversal_reason ILIKE ${like}`);
  await tx.execute(sql`UPDATE ledger_sums_pending SET description = regexp_replace(description, ${pattern}, ${anonymous}, 'gi')
    WHERE description ILIKE ${like}`);
  // The reports' sums by reason: a renamed reason may meet one already there, so its figures are added to it.
  await tx.execute(sql`WITH renamed AS (
      DELETE FROM ledger_reason_sums WHERE description ILIKE ${like}
      RETURNING span, start, turma_id, kind, regexp_replace(description, ${pattern}, ${anonymous}, 'gi') AS description, ops, meritus, estelecas
    )
    INSERT INTO ledger_reason_sums (span, start, turma_id, kind, description, ops, meritus, estelecas)
    SELECT span, start, turma_id, kind, description, sum(ops), sum(meritus), sum(estelecas) FROM renamed
    GROUP BY span, start, turma_id, kind, description
    ON CONFLICT (span, start, turma_id, kind, description) DO UPDATE SET
      ops = ledger_reason_sums.ops + excluded.ops,
      meritus = ledger_reason_sums.meritus + excluded.meritus,
      estelecas = ledger_reason_sums.estelecas + excluded.estelecas`);
  await tx.execute(sql`UPDATE store_orders SET reason = regexp_replace(reason, ${pattern}, ${anonymous}, 'gi') WHERE reason ILIKE ${like}`);
  await tx.execute(sql`UPDATE audit_log SET
      actor_label = regexp_replace(actor_label, ${pattern}, ${anonymous}, 'gi'),
      details = regexp_replace(details::text, ${jsonPattern}, ${anonymous}, 'gi')::jsonb
    WHERE actor_label ILIKE ${like} OR details::text ILIKE ${jsonLike}`);
  await tx.execute(sql`UPDATE diagnostic_logs SET
      message = regexp_replace(message, ${pattern}, ${anonymous}, 'gi'),
      details = regexp_replace(details::text, ${jsonPattern}, ${anonymous}, 'gi')::jsonb
    WHERE message ILIKE ${like} OR details::text ILIKE ${jsonLike}`);
  // Answers kept for a day to replay a retried request ("M$ 10 transferidos para …").
  await tx.execute(sql`DELETE FROM idempotency_keys WHERE response::text ILIKE ${jsonLike}`);
}

type Details = Record<string, unknown>;
/** The personal fields an audit entry about a student may hold, at its top or as a change's `from`/`to`. */
const PERSONAL_KEYS = ['name', 'email', 'birthDate', 'studentId'] as const;
type Replacements = Record<(typeof PERSONAL_KEYS)[number], string | null>;

function masked(details: Details, replacements: Replacements, seen: Set<string>): Details {
  const mask = (key: keyof Replacements, value: unknown) => {
    if (typeof value === 'string') seen.add(`${key}:${value}`);
    return value === null || value === undefined ? value : replacements[key];
  };
  const out: Details = { ...details };
  for (const key of PERSONAL_KEYS) if (key in out) out[key] = mask(key, out[key]);
  const changed = out.changed as Record<string, { from?: unknown; to?: unknown }> | undefined;
  if (changed && typeof changed === 'object') {
    out.changed = Object.fromEntries(
      Object.entries(changed).map(([key, change]) =>
        (PERSONAL_KEYS as readonly string[]).includes(key) && change && typeof change === 'object'
          ? [key, { from: mask(key as keyof Replacements, change.from), to: mask(key as keyof Replacements, change.to) }]
          : [key, change],
      ),
    );
  }
  return out;
}

/**
 * The audit's entries about the student keep what happened, not who (their name, email, birth date and matrícula, now
 * and before a change, are replaced), and their own actions lose the address they came from. Answers every name and
 * email the student ever had, for the scrub of free texts.
 */
async function scrubAudit(tx: Tx, before: StudentBefore, replacements: Replacements): Promise<{ names: string[]; emails: string[] }> {
  const entries = await tx
    .select({ id: auditLog.id, details: auditLog.details })
    .from(auditLog)
    .where(and(sql`${auditLog.details} ? 'studentUuid'`, sql`${auditLog.details}->>'studentUuid' = ${before.id}`));
  const seen = new Set<string>([`name:${before.name}`, ...(before.email ? [`email:${before.email}`] : [])]);
  for (const entry of entries) {
    const details = masked(entry.details, replacements, seen);
    if (JSON.stringify(details) !== JSON.stringify(entry.details))
      await tx.update(auditLog).set({ details }).where(eq(auditLog.id, entry.id));
  }
  await tx.execute(sql`UPDATE audit_log SET ip = NULL WHERE actor_kind = 'student' AND actor_id = ${before.id}`);
  const values = (kind: string) => [...seen].filter((item) => item.startsWith(`${kind}:`)).map((item) => item.slice(kind.length + 1));
  return { names: values('name').filter((name) => name.trim() !== ''), emails: values('email').filter(Boolean) };
}

/** An email is distinctive: wherever else it was written (a refused import's row, another entry), it goes. */
async function scrubEmail(tx: Tx, email: string): Promise<void> {
  const jsonLike = `%${jsonInner(email).replace(/[\\%_]/g, '\\$&')}%`;
  await tx.execute(sql`UPDATE audit_log SET details = replace(details::text, ${jsonInner(email)}, 'removido')::jsonb
    WHERE details::text ILIKE ${jsonLike}`);
  await tx.execute(sql`UPDATE diagnostic_logs SET details = replace(details::text, ${jsonInner(email)}, 'removido')::jsonb
    WHERE details::text ILIKE ${jsonLike}`);
}

export type EraseDeps = Pick<AdminStudentsDeps, 'db' | 'events' | 'storage' | 'beforeRemoval'>;

/**
 * Anonymises one student in one transaction (decision 030): 'Aluno removido #n' in place of the name, no email, birth
 * date, photo, password, tags or sessions; removed from every list if they were not yet. Their ledger rows stay, so every
 * balance and report stays true, and show the anonymous name. The coordination confirms by typing the name again; the
 * retention sweep (`actor` system) acts on its own rule. Answers the anonymous name.
 */
export async function eraseStudentData(
  deps: EraseDeps,
  actor: AdminActor | SystemActor,
  id: string,
  input: { confirm?: string; reason: string },
  context: { ip?: string | undefined } = {},
): Promise<EraseStudentResult> {
  const done = await deps.db.transaction(async (tx) => {
    await lockForTransaction(tx, 'studentErasures');
    const [before] = await tx.select().from(students).where(eq(students.id, id)).for('update');
    if (!before) throw new AppError('student_not_found');
    if (before.erasedAt) throw new AppError('student_already_erased');
    if (actor.role === 'admin' && !confirmationMatches(input.confirm ?? '', before.name))
      throw new AppError('erase_confirmation_mismatch', { fields: { confirm: 'erase_confirmation_mismatch' } });
    // A current student's pending orders are refused and refunded first, as a removal does.
    if (!before.deletedAt && actor.role === 'admin') await deps.beforeRemoval(tx, deps.events, actor, id, context.ip);
    const [numbered] = rowsOf<{ next: number | string }>(
      await tx.execute(sql`SELECT coalesce(max(erasure_number), 0) + 1 AS next FROM students`),
    );
    const number = Number(numbered!.next);
    const name = erasedStudentName(number);
    const studentId = `removido-${number}`;
    const now = new Date();
    await tx
      .update(students)
      .set({
        name,
        studentId,
        email: null,
        birthDate: null,
        photoUrl: null,
        photoVersion: before.photoVersion + 1,
        passwordHash: NO_PASSWORD,
        imageConsent: false,
        lastLogin: null,
        deletedAt: before.deletedAt ?? now,
        erasedAt: now,
        erasureNumber: number,
        updatedAt: now,
      })
      .where(eq(students.id, id));
    await endStudentSessions(tx, deps.events, id);
    const droppedTags = await tx.delete(studentTags).where(eq(studentTags.studentUuid, id)).returning({ id: studentTags.id });
    await tx.delete(tagLikes).where(eq(tagLikes.studentUuid, id));
    await tx.delete(studentStoreGoals).where(eq(studentStoreGoals.studentUuid, id));
    await tx.delete(loginFailures).where(eq(loginFailures.accountKey, `student:${before.studentId}`));
    // Their guardians no longer follow them, and no code of theirs can link anyone (decision 037).
    const unlinked = await tx
      .delete(guardianStudents)
      .where(eq(guardianStudents.studentUuid, id))
      .returning({ guardianId: guardianStudents.guardianId });
    await tx.delete(guardianCodes).where(eq(guardianCodes.studentUuid, id));
    // Messages about the student (a weekly summary, a letter), sent or waiting, carry their name (decision 038).
    await tx.delete(mailOutbox).where(eq(mailOutbox.studentUuid, id));
    const past = await scrubAudit(tx, before, { name, email: 'removido', birthDate: 'removido', studentId });
    // Longest first: a full name is replaced before a shorter earlier one that it contains.
    past.names.sort((a, b) => b.length - a.length);
    for (const oldName of past.names) await scrubName(tx, oldName, name);
    for (const email of past.emails) await scrubEmail(tx, email);
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: 'student.erase',
      ip: context.ip,
      details: {
        studentUuid: id,
        name,
        // Why, as the coordination wrote it, without the name it may repeat.
        reason: past.names.reduce((text, oldName) => text.replace(new RegExp(literalPattern(oldName), 'gi'), name), input.reason),
        wasRemoved: before.deletedAt !== null,
      },
    });
    await deps.events.publish(tx, { type: 'students' });
    if (droppedTags.length > 0) await deps.events.publish(tx, { type: 'tags', studentUuids: [id] });
    for (const { guardianId } of unlinked) await deps.events.publish(tx, { type: 'family_changed', guardianId });
    return { before, name };
  });
  // The stored files (photo and thumbnail) once the row no longer names them.
  await removeStoredPhoto(deps.storage, done.before.photoUrl);
  return { message: LGPD_TEXTS.erased(done.name), name: done.name };
}

/** Whether a student has orders still waiting (the sweep leaves them to the coordination: refusing one refunds it). */
export async function hasPendingOrders(db: DbOrTx, studentUuid: string): Promise<boolean> {
  const [row] = await db
    .select({ id: storeOrders.id })
    .from(storeOrders)
    .where(and(eq(storeOrders.studentUuid, studentUuid), eq(storeOrders.status, 'pending')))
    .limit(1);
  return row !== undefined;
}
