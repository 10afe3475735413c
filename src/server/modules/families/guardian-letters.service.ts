import type { Db } from '../../db/client.ts';
import { drawQrCode, fileSlug, FONT, formatterIn, render } from '../../pdf.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, type AdminActor } from '../auth/actor.ts';
import type { RequestContext } from '../auth/auth.service.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import { chosenStudents } from '../students/access-cards.service.ts';
import { issueCode } from './families.service.ts';
import { dayIn } from '../../../shared/format.ts';
import { GUARDIAN_SIGNUP_PATH } from '../../../shared/constants.ts';
import { GUARDIAN_LETTER_TEXTS } from '../../../shared/families.ts';
import type { AccessCardsInput } from '../../../shared/student-access.ts';

/** A letter to print: whose, and the code made for it now (it exists nowhere else). */
type Letter = { name: string; grade: string; code: string; expiresAt: Date };

/**
 * 'Carta para responsáveis' for a turma or chosen students (the access cards' choice, decision 034): each student gets
 * a new code (the ones before, not yet used, stop working), printed only here. Audited with who and which students,
 * never the codes. The QR code opens the sign-up page, without the code: an address in a QR code ends up in logs.
 */
export async function guardianLettersPdf(
  deps: { db: Db; settings: SettingsStore },
  admin: AdminActor,
  input: AccessCardsInput,
  context: RequestContext & { portalUrl: string; now?: Date },
): Promise<{ fileName: string; body: Buffer }> {
  const school = await deps.settings.get();
  const { rows, turmaName } = await chosenStudents(deps.db, deps.settings, admin, input);
  const now = context.now ?? new Date();
  const letters = await deps.db.transaction(async (tx) => {
    const made: Letter[] = [];
    for (const row of rows) {
      const issued = await issueCode(tx, admin, row.id, now);
      made.push({ name: row.name, grade: row.grade, code: issued.code, expiresAt: issued.expiresAt });
    }
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'guardian.letters',
      ip: context.ip,
      details: {
        ...(turmaName ? { turma: turmaName } : {}),
        count: rows.length,
        students: rows.map((row) => ({ studentUuid: row.id, studentId: row.studentId })),
      },
    });
    return made;
  });
  const what = turmaName ?? GUARDIAN_LETTER_TEXTS.selected;
  const signupUrl = `${context.portalUrl.replace(/\/$/, '')}${GUARDIAN_SIGNUP_PATH}`;
  const body = await drawLetters(letters, {
    schoolName: school.school.name,
    signupUrl,
    title: what,
    date: (at: Date) => formatterIn(school.school.timeZone).date(at),
  });
  return { fileName: GUARDIAN_LETTER_TEXTS.fileName(fileSlug(what), dayIn(school.school.timeZone, now)), body };
}

/** A4 in points. */
const PAGE = { width: 595.28, height: 841.89, margin: 56 };

function drawLetters(
  letters: Letter[],
  options: { schoolName: string; signupUrl: string; title: string; date: (at: Date) => string },
): Promise<Buffer> {
  const texts = GUARDIAN_LETTER_TEXTS;
  const width = PAGE.width - 2 * PAGE.margin;
  const address = options.signupUrl.replace(/^https?:\/\//, '');
  return render(
    { size: 'A4', margin: PAGE.margin, info: { Title: texts.documentTitle(options.title), Author: options.schoolName } },
    (doc) => {
      letters.forEach((letter, index) => {
        if (index > 0) doc.addPage({ size: 'A4', margin: PAGE.margin });
        let y = PAGE.margin;
        doc
          .font(FONT.bold)
          .fontSize(9)
          .fillColor('#4338ca')
          .text(options.schoolName.toUpperCase(), PAGE.margin, y, { width, characterSpacing: 0.8 });
        y += 24;
        doc.font(FONT.bold).fontSize(22).fillColor('#0f172a').text(texts.title, PAGE.margin, y, { width });
        y += 36;
        doc.font(FONT.bold).fontSize(14).text(letter.name, PAGE.margin, y, { width });
        y = doc.y + 2;
        doc.font(FONT.regular).fontSize(10).fillColor('#475569').text(letter.grade, PAGE.margin, y, { width });
        y = doc.y + 16;
        doc.font(FONT.regular).fontSize(11).fillColor('#1e293b').text(texts.intro(letter.name), PAGE.margin, y, { width, lineGap: 2 });
        y = doc.y + 22;

        // The code in a box, large enough to read and type without mistakes.
        const boxHeight = 86;
        doc.roundedRect(PAGE.margin, y, width, boxHeight, 10).fillAndStroke('#eef2ff', '#c7d2fe');
        doc
          .font(FONT.regular)
          .fontSize(9)
          .fillColor('#4338ca')
          .text(texts.code.toUpperCase(), PAGE.margin + 18, y + 14, { characterSpacing: 0.6 });
        doc
          .font(FONT.bold)
          .fontSize(28)
          .fillColor('#0f172a')
          .text(letter.code, PAGE.margin + 18, y + 28, { characterSpacing: 2 });
        doc
          .font(FONT.regular)
          .fontSize(9)
          .fillColor('#475569')
          .text(texts.validUntil(options.date(letter.expiresAt)), PAGE.margin + 18, y + 64);
        y += boxHeight + 26;

        const qrSize = 110;
        const stepsWidth = width - qrSize - 24;
        const top = y;
        texts.steps.forEach((step, at) => {
          doc
            .font(FONT.bold)
            .fontSize(11)
            .fillColor('#4338ca')
            .text(`${at + 1}.`, PAGE.margin, y, { width: 18 });
          doc
            .font(FONT.regular)
            .fontSize(11)
            .fillColor('#1e293b')
            .text(step(address), PAGE.margin + 20, y, { width: stepsWidth - 20, lineGap: 2 });
          y = doc.y + 10;
        });
        const qrX = PAGE.margin + width - qrSize;
        drawQrCode(doc, options.signupUrl, qrX, top, qrSize);
        doc
          .font(FONT.regular)
          .fontSize(8)
          .fillColor('#64748b')
          .text(texts.scan, qrX - 10, top + qrSize + 4, { width: qrSize + 20, align: 'center' });
        y = Math.max(y, top + qrSize + 24) + 16;
        doc.font(FONT.regular).fontSize(9).fillColor('#64748b').text(texts.keep, PAGE.margin, y, { width });
      });
    },
  );
}
