import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { students } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { drawQrCode, fileSlug, FONT, render } from '../../pdf.ts';
import { assertStudentInScope, inScope } from '../../views/turma-scope.ts';
import { nameSortKey, selectStudents, type StudentRow } from '../../views/student-views.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, turmaScopeOf, type AdminActor } from '../auth/actor.ts';
import { hashPasswords } from '../auth/password.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import { storeGivenPasswords, type ActionContext, type AdminStudentsDeps } from './admin-students.service.ts';
import { generateReadablePassword } from '../../../shared/admin-students.ts';
import { dayIn } from '../../../shared/format.ts';
import { ACCESS_CARD_TEXTS, ACCESS_CARDS_MAX, type AccessCardsInput } from '../../../shared/student-access.ts';

export type AccessCardsDeps = Pick<AdminStudentsDeps, 'db' | 'events'> & { settings: SettingsStore };

/** A card to print: who, and the password given to them now (it exists nowhere else). */
type Card = { name: string; studentId: string; grade: string; password: string };

/**
 * The students a printout is for (access cards, guardians' letters): a turma's current students, or the ones chosen; a
 * teacher only of their turmas. With the turma's name, or null for students chosen.
 */
export async function chosenStudents(
  db: Db,
  settings: SettingsStore,
  admin: AdminActor,
  input: AccessCardsInput,
): Promise<{ rows: StudentRow[]; turmaName: string | null }> {
  const school = await settings.get();
  let turmaName: string | null = null;
  if (input.turmaId) {
    const turma = school.turmas.find((candidate) => candidate.id === input.turmaId!.toLowerCase());
    if (!turma) throw new AppError('turma_not_found', { status: 404 });
    if (!inScope(turmaScopeOf(admin), turma.id)) throw new AppError('turma_outside_turmas');
    turmaName = turma.name;
  }
  return { rows: await cardStudents(db, admin, input, turmaName), turmaName };
}

async function cardStudents(db: Db, admin: AdminActor, input: AccessCardsInput, turmaName: string | null): Promise<StudentRow[]> {
  const scope = turmaScopeOf(admin);
  const chosen = input.studentIds ? [...new Set(input.studentIds.map((id) => id.toLowerCase()))] : null;
  const rows = await selectStudents(db)
    .where(and(isNull(students.deletedAt), chosen ? inArray(students.id, chosen) : eq(students.turmaId, input.turmaId!)))
    .orderBy(asc(nameSortKey), asc(students.studentId));
  if (chosen) {
    if (rows.length !== chosen.length) throw new AppError('student_not_found');
    for (const row of rows) assertStudentInScope(scope, row);
  }
  if (rows.length === 0) throw new AppError(turmaName ? 'access_cards_none' : 'student_not_found');
  if (rows.length > ACCESS_CARDS_MAX) throw new AppError('access_cards_too_many');
  return rows;
}

/**
 * Access cards for a turma or chosen students: each gets a new generated password (the single reset's path:
 * storeGivenPasswords), and the PDF is the only place those passwords appear. Audited with who and which students,
 * never the passwords.
 */
export async function accessCardsPdf(
  deps: AccessCardsDeps,
  admin: AdminActor,
  input: AccessCardsInput,
  context: ActionContext & { portalUrl: string; now?: Date },
): Promise<{ fileName: string; body: Buffer }> {
  const school = await deps.settings.get();
  const { rows: chosen, turmaName } = await chosenStudents(deps.db, deps.settings, admin, input);
  const passwords = chosen.map(() => generateReadablePassword());
  const hashes = await hashPasswords(passwords);

  const cards = await deps.db.transaction(async (tx) => {
    // Locked again: a student removed (or moved out of a teacher's turmas) since the list was read gets no card.
    const locked = await selectStudents(tx)
      .where(
        and(
          isNull(students.deletedAt),
          inArray(
            students.id,
            chosen.map((row) => row.id),
          ),
        ),
      )
      .for('update', { of: students });
    const current = new Set(locked.filter((row) => inScope(turmaScopeOf(admin), row.turmaId)).map((row) => row.id));
    const given = chosen.flatMap((row, i) => (current.has(row.id) ? [{ row, password: passwords[i]!, passwordHash: hashes[i]! }] : []));
    if (given.length === 0) throw new AppError('student_not_found');
    await storeGivenPasswords(
      tx,
      deps.events,
      given.map(({ row, passwordHash }) => ({ id: row.id, passwordHash })),
    );
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'students.access_cards',
      ip: context.ip,
      details: {
        ...(input.turmaId ? { turmaId: input.turmaId.toLowerCase(), turma: turmaName } : {}),
        count: given.length,
        students: given.map(({ row }) => ({ studentUuid: row.id, studentId: row.studentId })),
      },
    });
    return given.map(({ row, password }): Card => ({ name: row.name, studentId: row.studentId, grade: row.grade, password }));
  });

  const now = context.now ?? new Date();
  const what = turmaName ?? ACCESS_CARD_TEXTS.selected;
  const body = await drawCards(cards, { schoolName: school.school.name, portalUrl: context.portalUrl, title: what });
  return { fileName: ACCESS_CARD_TEXTS.fileName(fileSlug(what), dayIn(school.school.timeZone, now)), body };
}

/** A4 in points, and the grid of cards on it: 2 × 4 cards of about 95 × 68 mm, the size of a student ID to cut out. */
const PAGE = { width: 595.28, height: 841.89, margin: 28 };
const GRID = { columns: 2, rows: 4 };

function drawCards(cards: Card[], options: { schoolName: string; portalUrl: string; title: string }): Promise<Buffer> {
  const texts = ACCESS_CARD_TEXTS;
  const cardWidth = (PAGE.width - 2 * PAGE.margin) / GRID.columns;
  const cardHeight = (PAGE.height - 2 * PAGE.margin - 14) / GRID.rows;
  const perPage = GRID.columns * GRID.rows;
  const address = options.portalUrl.replace(/^https?:\/\//, '').replace(/\/$/, '');

  return render({ size: 'A4', margin: 0, info: { Title: texts.documentTitle(options.title), Author: options.schoolName } }, (doc) => {
    cards.forEach((card, index) => {
      const slot = index % perPage;
      if (index > 0 && slot === 0) doc.addPage({ size: 'A4', margin: 0 });
      if (slot === 0) drawCutMarks(doc, cardWidth, cardHeight, Math.ceil(Math.min(perPage, cards.length - index) / GRID.columns));
      const x = PAGE.margin + (slot % GRID.columns) * cardWidth;
      const y = PAGE.margin + Math.floor(slot / GRID.columns) * cardHeight;
      drawCard(doc, card, { x, y, width: cardWidth, height: cardHeight, schoolName: options.schoolName, address, url: options.portalUrl });
    });
  });
}

/** Dashed lines along the edges of the page's `rows` rows of cards, running to the paper's edge, and the hint under them. */
function drawCutMarks(doc: PDFKit.PDFDocument, cardWidth: number, cardHeight: number, rows: number): void {
  const bottom = PAGE.margin + rows * cardHeight;
  doc.save().lineWidth(0.6).strokeColor('#94a3b8').dash(4, { space: 3 });
  for (let column = 0; column <= GRID.columns; column++) {
    const x = PAGE.margin + column * cardWidth;
    doc
      .moveTo(x, 0)
      .lineTo(x, rows === GRID.rows ? PAGE.height : bottom + PAGE.margin)
      .stroke();
  }
  for (let row = 0; row <= rows; row++) {
    const y = PAGE.margin + row * cardHeight;
    doc.moveTo(0, y).lineTo(PAGE.width, y).stroke();
  }
  doc.undash().restore();
  const hint = `✂ ${ACCESS_CARD_TEXTS.cut}`;
  doc.font(FONT.regular).fontSize(7);
  const hintWidth = doc.widthOfString(hint) + 8;
  const hintY = bottom + 4;
  // On a white patch, so the cut line in the middle of the page does not run through the words.
  doc
    .rect((PAGE.width - hintWidth) / 2, hintY - 1, hintWidth, 10)
    .fill('#ffffff')
    .fillColor('#64748b')
    .text(hint, PAGE.margin, hintY, { width: PAGE.width - 2 * PAGE.margin, align: 'center', lineBreak: false });
}

function drawCard(
  doc: PDFKit.PDFDocument,
  card: Card,
  box: { x: number; y: number; width: number; height: number; schoolName: string; address: string; url: string },
): void {
  const texts = ACCESS_CARD_TEXTS;
  const pad = 14;
  const qrSize = 74;
  const left = box.x + pad;
  const textWidth = box.width - 2 * pad - qrSize - 10;
  const one = { width: textWidth, lineBreak: false, ellipsis: true } as const;
  let y = box.y + pad;

  doc
    .font(FONT.bold)
    .fontSize(7)
    .fillColor('#4338ca')
    .text(box.schoolName.toUpperCase(), left, y, { ...one, characterSpacing: 0.6 });
  y += 11;
  doc.font(FONT.regular).fontSize(7.5).fillColor('#475569').text(texts.heading, left, y, one);
  y += 14;
  // A long name takes a smaller size before it would be cut: the student should find their whole name.
  doc.font(FONT.bold).fontSize(11.5).fillColor('#0f172a');
  if (doc.heightOfString(card.name, { width: textWidth }) > 30) doc.fontSize(9.5);
  const nameHeight = Math.min(doc.heightOfString(card.name, { width: textWidth }), 30);
  doc.text(card.name, left, y, { width: textWidth, height: 30, ellipsis: true });
  y += nameHeight + 2;
  doc.font(FONT.regular).fontSize(8).fillColor('#475569').text(card.grade, left, y, one);
  y += 15;

  const field = (label: string, value: string, size: number) => {
    doc
      .font(FONT.regular)
      .fontSize(7)
      .fillColor('#64748b')
      .text(label.toUpperCase(), left, y, { ...one, characterSpacing: 0.4 });
    y += 9;
    doc.font(FONT.bold).fontSize(size).fillColor('#0f172a').text(value, left, y, one);
    y += size + 6;
  };
  field(texts.studentId, card.studentId, 11);
  field(texts.password, card.password, 13);

  const qrX = box.x + box.width - pad - qrSize;
  drawQrCode(doc, box.url, qrX, box.y + pad, qrSize);
  doc
    .font(FONT.regular)
    .fontSize(6.5)
    .fillColor('#64748b')
    .text(texts.scan, qrX - 4, box.y + pad + qrSize + 3, { width: qrSize + 8, align: 'center' });

  const bottom = box.y + box.height - pad;
  doc
    .font(FONT.regular)
    .fontSize(7.5)
    .fillColor('#334155')
    .text(`${texts.address} `, left, bottom - 30, { continued: true, lineBreak: false })
    .font(FONT.bold)
    .text(box.address, { lineBreak: false, ellipsis: true, width: box.width - 2 * pad });
  doc
    .font(FONT.regular)
    .fontSize(6.5)
    .fillColor('#64748b')
    .text(texts.changeHint, left, bottom - 18, { width: box.width - 2 * pad, lineBreak: false, ellipsis: true })
    .text(texts.keep, left, bottom - 9, { width: box.width - 2 * pad, lineBreak: false, ellipsis: true });
}
