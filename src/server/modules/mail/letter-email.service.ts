import type { Db } from '../../db/client.ts';
import { AppError } from '../../app-error.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, type AdminActor } from '../auth/actor.ts';
import type { RequestContext } from '../auth/auth.service.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import { issueCode, managedStudent } from '../families/families.service.ts';
import { formatterIn } from '../../pdf.ts';
import { GUARDIAN_SIGNUP_PATH } from '../../../shared/constants.ts';
import { GUARDIAN_LETTER_TEXTS } from '../../../shared/families.ts';
import type { GuardianLetterEmailInput } from '../../../shared/mail.ts';
import { MAIL_TEXTS } from '../../../shared/mail-texts.ts';
import { queueMail } from './outbox.service.ts';
import { renderHtml, renderText } from './mail-render.ts';

/**
 * 'Carta para responsáveis' by email (decision 038): a new code for the student (their unused codes stop working, as a
 * printed letter does), the letter's texts, and the message queued in the same transaction, so a code exists only if
 * its message will go. Audited with the address, never the code. Refused, with nothing made, when email is off.
 */
export async function emailGuardianLetter(
  deps: { db: Db; settings: SettingsStore; mailEnabled: boolean; publicUrl: string | undefined },
  admin: AdminActor,
  studentUuid: string,
  input: GuardianLetterEmailInput,
  context: RequestContext,
): Promise<{ message: string }> {
  if (!deps.mailEnabled || !deps.publicUrl) throw new AppError('mail_disabled');
  const school = await deps.settings.get();
  const signupUrl = new URL(GUARDIAN_SIGNUP_PATH, deps.publicUrl).toString();
  const texts = GUARDIAN_LETTER_TEXTS;
  return deps.db.transaction(async (tx) => {
    const student = await managedStudent(tx, admin, studentUuid);
    const issued = await issueCode(tx, admin, student.id, new Date());
    const doc = {
      school: school.school.name,
      title: MAIL_TEXTS.letterSubject(student.name),
      blocks: [
        { kind: 'paragraph' as const, text: texts.intro(student.name) },
        {
          kind: 'code' as const,
          label: texts.code,
          code: issued.code,
          note: texts.validUntil(formatterIn(school.school.timeZone).date(issued.expiresAt)),
        },
        ...[MAIL_TEXTS.letterFirstStep(signupUrl), ...texts.steps.slice(1).map((step) => step(signupUrl))].map((step, at) => ({
          kind: 'paragraph' as const,
          text: `${at + 1}. ${step}`,
        })),
        { kind: 'link' as const, label: MAIL_TEXTS.letterButton, url: signupUrl },
        { kind: 'small' as const, text: texts.keep },
      ],
    };
    await queueMail(tx, {
      kind: 'guardian_letter',
      to: input.email,
      subject: doc.title,
      text: renderText(doc),
      html: renderHtml(doc),
      studentUuid: student.id,
    });
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'guardian.letter_email',
      ip: context.ip,
      details: { studentUuid: student.id, email: input.email, revoked: issued.revoked },
    });
    return { message: MAIL_TEXTS.letterQueued(student.name, input.email) };
  });
}
