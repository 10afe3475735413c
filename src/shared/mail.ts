import { z } from 'zod';
import { createStaffInput } from './staff.ts';
import { rowId, textInput } from './validation.ts';

/*
 * Email (issue 37, decision 038): the schemas of its routes. The texts and paths are in mail-texts.ts, free of zod for
 * the screens.
 */

/** GET /api/admin/mail and the family area: whether this server sends email at all (SMTP_URL). */
export const mailStatus = z.object({ enabled: z.boolean() });
export type MailStatus = z.infer<typeof mailStatus>;

/** GET|PUT /api/family/mail: the guardian's weekly summary, on or off (and whether email is on at all). */
export const familyMailPreferences = z.object({ enabled: z.boolean(), weeklySummary: z.boolean() });
export type FamilyMailPreferences = z.infer<typeof familyMailPreferences>;
export const familyMailInput = z.object({ weeklySummary: z.boolean() });

/** POST /api/mail/unsubscribe: the guardian and the signature the email's link carries. */
export const unsubscribeInput = z.object({
  guardian: rowId({ error: 'mail_link_invalid' }),
  signature: textInput({ error: 'mail_link_invalid', max: 100 }).min(1, { error: 'mail_link_invalid' }),
});
export type UnsubscribeInput = z.infer<typeof unsubscribeInput>;

/** The signed link's query (?responsavel=…&assinatura=…), as the email's List-Unsubscribe address carries it. */
export const unsubscribeLinkQuery = z
  .object({ responsavel: unsubscribeInput.shape.guardian, assinatura: unsubscribeInput.shape.signature })
  .transform(({ responsavel, assinatura }): UnsubscribeInput => ({ guardian: responsavel, signature: assinatura }));

/** POST /api/admin/students/:id/guardian-letter-email: the address the letter goes to (the staff's email rules). */
export const guardianLetterEmailInput = z.object({ email: createStaffInput.shape.email });
export type GuardianLetterEmailInput = z.infer<typeof guardianLetterEmailInput>;
