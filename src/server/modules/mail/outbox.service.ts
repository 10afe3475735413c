import { and, eq, sql } from 'drizzle-orm';
import { rowsOf, type Db, type DbOrTx } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';
import type { Mailer } from './mailer.ts';

/*
 * The outbox (decision 038). A message is a row written in the transaction of what caused it: if that rolls back, no
 * message; if it commits, the message waits here until SMTP takes it. The worker claims due rows for a lease
 * (claimed_until, by an UPDATE over FOR UPDATE SKIP LOCKED: two instances never claim one row), sends outside any
 * transaction (the embedded database serves one transaction at a time, and SMTP may be slow), then marks it sent only
 * while it still holds the lease. A refusal or an unreachable server puts the message back with an exponential wait.
 */

/** How long a claim lasts: far over one attempt's timeouts (mailer.ts), so a claim never lapses mid-send. */
export const OUTBOX_LEASE_MS = 5 * 60_000;
/** The first retry waits this long, doubling each time, up to OUTBOX_MAX_BACKOFF_MS: an outage of days loses nothing. */
export const OUTBOX_FIRST_BACKOFF_MS = 60_000;
export const OUTBOX_MAX_BACKOFF_MS = 6 * 3_600_000;
/** Messages claimed at once. */
const BATCH = 20;

export type QueuedMail = {
  kind: (typeof mailOutbox.$inferInsert)['kind'];
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Sent as List-Unsubscribe: the weekly summary's one-click opt-out address (RFC 8058). */
  unsubscribeUrl?: string;
  studentUuid?: string;
  guardianId?: string;
  /** A message a job makes once (the weekly summary): the same key again queues nothing. */
  dedupeKey?: string;
};

/** The wait before attempt n+1 after n failed attempts. */
export function backoffMs(attempts: number): number {
  return Math.min(OUTBOX_MAX_BACKOFF_MS, OUTBOX_FIRST_BACKOFF_MS * 2 ** Math.max(0, attempts - 1));
}

/** Writes a message in the caller's transaction; answers false when a message with its dedupe key exists already. */
export async function queueMail(tx: DbOrTx, message: QueuedMail): Promise<boolean> {
  const inserted = await tx
    .insert(mailOutbox)
    .values({
      kind: message.kind,
      toAddress: message.to,
      subject: message.subject,
      textBody: message.text,
      htmlBody: message.html,
      unsubscribeUrl: message.unsubscribeUrl ?? null,
      studentUuid: message.studentUuid ?? null,
      guardianId: message.guardianId ?? null,
      dedupeKey: message.dedupeKey ?? null,
      // Due at once by the clock sendDueMail compares with (this server's), not the database's.
      nextAttemptAt: new Date(),
    })
    .onConflictDoNothing()
    .returning({ id: mailOutbox.id });
  return inserted.length > 0;
}

type Claimed = {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  unsubscribe_url: string | null;
  attempts: number;
};

/**
 * Sends the messages due at `now`: claims a batch, sends each, marks it sent or schedules its retry; goes on while
 * batches come full and nothing failed (an SMTP outage ends the run with its batch). Answers what it did.
 */
export async function sendDueMail(deps: { db: Db; mailer: Mailer }, now: Date = new Date()): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  for (;;) {
    const leaseUntil = new Date(now.getTime() + OUTBOX_LEASE_MS);
    // The database keeps microseconds and a Date only milliseconds: a time within `now`'s millisecond (the column's
    // default, the database's now()) is due.
    const dueBefore = new Date(now.getTime() + 1);
    const claimed = rowsOf<Claimed>(
      await deps.db.execute(sql`
        UPDATE mail_outbox SET claimed_until = ${leaseUntil.toISOString()}::timestamptz, attempts = attempts + 1
        WHERE id IN (
          SELECT id FROM mail_outbox
          WHERE sent_at IS NULL AND next_attempt_at < ${dueBefore.toISOString()}::timestamptz
            AND (claimed_until IS NULL OR claimed_until < ${now.toISOString()}::timestamptz)
          ORDER BY next_attempt_at, created_at
          LIMIT ${BATCH}
          FOR UPDATE SKIP LOCKED)
        RETURNING id, to_address, subject, text_body, html_body, unsubscribe_url, attempts`),
    );
    for (const row of claimed) {
      const ours = and(eq(mailOutbox.id, row.id), eq(mailOutbox.claimedUntil, leaseUntil));
      try {
        await deps.mailer.send({
          to: row.to_address,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body,
          unsubscribeUrl: row.unsubscribe_url,
        });
      } catch (error) {
        failed += 1;
        await deps.db
          .update(mailOutbox)
          .set({
            claimedUntil: null,
            nextAttemptAt: new Date(now.getTime() + backoffMs(row.attempts)),
            lastError: String(error instanceof Error ? error.message : error).slice(0, 500),
          })
          .where(ours);
        continue;
      }
      sent += 1;
      // Sent: the bodies (a child's figures, a code) are not kept; who, what and when stay for the record.
      await deps.db
        .update(mailOutbox)
        .set({ sentAt: new Date(), claimedUntil: null, lastError: null, textBody: '', htmlBody: '', unsubscribeUrl: null })
        .where(ours);
    }
    if (claimed.length < BATCH || failed > 0) return { sent, failed };
  }
}
