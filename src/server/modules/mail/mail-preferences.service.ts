import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { guardians, mailOptOuts, serverSecrets } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, type GuardianActor } from '../auth/actor.ts';
import type { RequestContext } from '../auth/auth.service.ts';
import type { FamilyMailPreferences, UnsubscribeInput } from '../../../shared/mail.ts';
import { MAIL_UNSUBSCRIBE_PATH } from '../../../shared/constants.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { MAIL_TEXTS } from '../../../shared/mail-texts.ts';

/*
 * The weekly summary's opt-out (decision 038): a guardian turns it off from the email itself, without signing in, by a
 * link that carries their id and an HMAC of it under a key every instance shares (made once, kept in the database),
 * and turns it on again in the family area.
 */

const SECRET_NAME = 'mail-links';
let cachedKey: { db: Db; key: Buffer } | undefined;

/** The key that signs the links: made by the first instance that needs it, the same for every instance after. */
async function linkKey(db: Db): Promise<Buffer> {
  if (cachedKey?.db === db) return cachedKey.key;
  await db
    .insert(serverSecrets)
    .values({ name: SECRET_NAME, value: randomBytes(32).toString('base64') })
    .onConflictDoNothing();
  const [row] = await db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, SECRET_NAME));
  const key = Buffer.from(row!.value, 'base64');
  cachedKey = { db, key };
  return key;
}

function signatureOf(key: Buffer, guardianId: string): string {
  return createHmac('sha256', key).update(`weekly-summary-off:${guardianId}`).digest('base64url');
}

/**
 * The addresses of a guardian's opt-out of the weekly summary, signed: the page the email's link opens, and the one its
 * List-Unsubscribe header names, where a mail reader's own button posts (RFC 8058).
 */
export async function unsubscribeUrls(db: Db, publicUrl: string, guardianId: string): Promise<{ page: string; oneClick: string }> {
  const signature = signatureOf(await linkKey(db), guardianId);
  const signed = (path: string) => {
    const url = new URL(path, publicUrl);
    url.searchParams.set('responsavel', guardianId);
    url.searchParams.set('assinatura', signature);
    return url.toString();
  };
  return { page: signed(MAIL_UNSUBSCRIBE_PATH), oneClick: signed(routes.mail.oneClickUnsubscribe.path) };
}

/** Where the one-click address leads a browser that opens it: the page, with the same signed query. */
export function unsubscribePageOf(query: UnsubscribeInput): string {
  return `${MAIL_UNSUBSCRIBE_PATH}?${new URLSearchParams({ responsavel: query.guardian, assinatura: query.signature })}`;
}

async function setWeeklySummary(tx: DbOrTx, guardianId: string, on: boolean): Promise<void> {
  if (on) await tx.delete(mailOptOuts).where(eq(mailOptOuts.guardianId, guardianId));
  else await tx.insert(mailOptOuts).values({ guardianId }).onConflictDoNothing();
}

/** The signed link's action: the summary off for that guardian (again: still off). A link altered in any way is refused. */
export async function unsubscribe(
  db: Db,
  input: UnsubscribeInput,
  context: RequestContext,
  by: 'email_link' | 'mail_reader' = 'email_link',
): Promise<{ message: string }> {
  const expected = Buffer.from(signatureOf(await linkKey(db), input.guardian));
  const given = Buffer.from(input.signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError('mail_link_invalid');
  return db.transaction(async (tx) => {
    const [guardian] = await tx.select({ id: guardians.id, name: guardians.name }).from(guardians).where(eq(guardians.id, input.guardian));
    if (!guardian) throw new AppError('mail_link_invalid');
    await setWeeklySummary(tx, guardian.id, false);
    await recordAudit(tx, {
      actor: { kind: 'guardian', id: guardian.id, label: guardian.name },
      action: 'mail.weekly_summary',
      ip: context.ip,
      details: { on: false, by },
    });
    return { message: MAIL_TEXTS.unsubscribed };
  });
}

export async function familyMailPreferences(db: DbOrTx, guardian: GuardianActor, enabled: boolean): Promise<FamilyMailPreferences> {
  const [off] = await db.select({ id: mailOptOuts.guardianId }).from(mailOptOuts).where(eq(mailOptOuts.guardianId, guardian.id));
  return { enabled, weeklySummary: !off };
}

/** The family area's switch; refused when this server sends no email (nothing to turn on). */
export async function setFamilyMailPreferences(
  db: Db,
  guardian: GuardianActor,
  weeklySummary: boolean,
  enabled: boolean,
  context: RequestContext,
): Promise<FamilyMailPreferences> {
  if (!enabled) throw new AppError('mail_disabled');
  return db.transaction(async (tx) => {
    await setWeeklySummary(tx, guardian.id, weeklySummary);
    await recordAudit(tx, { actor: auditActor(guardian), action: 'mail.weekly_summary', ip: context.ip, details: { on: weeklySummary } });
    return familyMailPreferences(tx, guardian, enabled);
  });
}
