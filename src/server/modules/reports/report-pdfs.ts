import type { Db } from '../../db/client.ts';
import { AppError } from '../../app-error.ts';
import { fileNamePart, fileSlug, FONT, formatterIn, pdfTable, render } from '../../pdf.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, turmaScopeOf, type AdminActor } from '../auth/actor.ts';
import { assertStudentInScope } from '../../views/turma-scope.ts';
import { TAG_NAMES } from '../../../shared/constants.ts';
import { directionOf, OPERATION_TYPE_LABELS, type Currency } from '../../../shared/ledger-types.ts';
import { CURRENCY_LABELS, reversedNote } from '../../../shared/ledger-texts.ts';
import { formatDate, formatEstelecas, formatMeritus, formatSignedAmount } from '../../../shared/format.ts';
import { periodWords, type StatementQuery, type TopCertificatesQuery, type TurmaDocumentQuery } from '../../../shared/reports.ts';
import {
  CERTIFICATE_TEXTS,
  STATEMENT_TEXTS,
  TOP_CERTIFICATE_TEXTS,
  TURMA_REPORT_TEXTS,
  TURMA_STATEMENTS_TEXTS,
} from '../../../shared/report-texts.ts';
import { reportSchool, schoolLogoPng, type ReportSchool, type ReportScope } from './report-school.ts';
import { currentTag, statementEntries, statementStudent, type StatementRow, type StatementStudent } from './reports.queries.ts';
import { studentLines, type StudentLine } from './report-overview.ts';
import { turmaDocumentScope } from './report-turma.ts';
import { reportScope, type ReportDeps } from './reports.service.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import type { ExportFile } from './report-exports.ts';

/**
 * A student's statement (extrato) for a period: balances at its start and end summed from the
 * ledger, and every operation in between with its signed amount. Audited.
 */
export async function statementPdf(
  { db, settings }: ReportDeps,
  admin: AdminActor,
  query: StatementQuery,
  context: { ip?: string | undefined } = {},
): Promise<ExportFile> {
  const { student: studentUuid, ...days } = query;
  const scope = await reportScope({ db, settings }, { ...days, turma: [] });
  const { period, school } = scope;
  const student = await statementStudent(db, studentUuid);
  if (!student) throw new AppError('student_not_found');
  assertStudentInScope(turmaScopeOf(admin), { turmaId: student.turma_id });
  const { opening, rows } = await statementEntries(db, scope, studentUuid);
  const issued = { at: formatterIn(school.timeZone).dateTime(new Date()), by: admin.name };
  const body = await render(
    { size: 'A4', margin: 50, info: { Title: STATEMENT_TEXTS.documentTitle(student.name), Author: school.name } },
    (doc) => drawStatement(doc, { school, period, student, opening, rows, issued }),
  );

  await recordAudit(db, {
    actor: auditActor(admin),
    action: 'report.statement',
    ip: context.ip,
    details: { student: student.id, studentId: student.student_id, from: period.from, to: period.to },
  });
  return { fileName: STATEMENT_TEXTS.fileName(student.student_id, period.from, period.to), contentType: 'application/pdf', body };
}

/** What a statement shows: whose, which period, the balances before it and its operations. */
type StatementData = {
  school: ReportScope['school'];
  period: ReportScope['period'];
  student: StatementStudent;
  opening: Record<Currency, number>;
  rows: StatementRow[];
  issued: { at: string; by: string };
};

/** Draws a student's statement from the document's current page on (the turma's statements draw one after another). */
function drawStatement(doc: PDFKit.PDFDocument, { school, period, student, opening, rows, issued }: StatementData): void {
  const start = opening;
  const balance = { ...opening };
  const format = formatterIn(school.timeZone);
  const texts = STATEMENT_TEXTS;
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  doc.font(FONT.bold).fontSize(10).fillColor('#4338ca').text(school.name.toUpperCase(), { characterSpacing: 1 });
  doc.moveDown(0.3).font(FONT.bold).fontSize(20).fillColor('#0f172a').text(texts.heading);
  doc.moveDown(0.5).font(FONT.regular).fontSize(11).fillColor('#334155');
  doc
    .text(texts.student(student.name))
    .text(texts.studentIdAndTurma(student.student_id, student.grade))
    .text(texts.period(periodWords(period)));
  doc
    .moveDown(0.5)
    .font(FONT.bold)
    .text(texts.openingBalance(formatMeritus(start.meritus), formatEstelecas(start.estelecas)));
  doc.moveDown(0.8);

  // The date and time on one line ('24/11/2026, 06:35'); the description takes what the others leave.
  const [date, currency, operation, amount] = [96, 58, 78, 95];
  const columns = [
    { header: texts.columns.date, width: date },
    { header: texts.columns.currency, width: currency },
    { header: texts.columns.operation, width: operation },
    { header: texts.columns.description, width: width - date - currency - operation - amount },
    { header: texts.columns.amount, width: amount, align: 'right' as const },
  ];
  const table = pdfTable(doc, { left, width, columns, fontSize: 9, gap: 5, footRoom: 30 });
  table.drawHeader();
  if (rows.length === 0) {
    doc
      .font(FONT.regular)
      .fontSize(10)
      .fillColor('#475569')
      .text(texts.noOperations, left, doc.y + 4);
  }
  for (const row of rows) {
    const signed = row.incoming ? row.amount : -row.amount;
    balance[row.currency] += signed;
    const party = directionOf(row.type) === 'moves' && row.other_name ? texts.party(row.incoming, row.other_name) : '';
    const reversed =
      row.reversed_at && row.reversed_by && row.reversed_reason
        ? ` (${reversedNote({ at: new Date(row.reversed_at).toISOString(), by: row.reversed_by, reason: row.reversed_reason }, school.timeZone)})`
        : '';
    table.drawRow([
      format.dateTime(new Date(row.at)),
      CURRENCY_LABELS[row.currency],
      OPERATION_TYPE_LABELS[row.type],
      `${row.description}${party}${reversed}`,
      formatSignedAmount(row.currency, signed),
    ]);
  }
  doc.moveDown(0.8).font(FONT.bold).fontSize(11).fillColor('#0f172a');
  doc.text(texts.closingBalance(formatMeritus(balance.meritus), formatEstelecas(balance.estelecas)), left);
  doc.moveDown(0.3).font(FONT.regular).fontSize(9).fillColor('#475569');
  doc.text(texts.issued(issued.at, issued.by), left);
}

/**
 * A turma's statements in one PDF, one student after another, each from a new page: the students of the turma report
 * (studentLines), drawn as the single statement is, each student's rows read when their turn comes. Audited once.
 */
export async function turmaStatementsPdf(
  deps: ReportDeps,
  admin: AdminActor,
  query: TurmaDocumentQuery,
  context: { ip?: string | undefined } = {},
): Promise<ExportFile> {
  const scope = await turmaDocumentScope(deps, admin, query);
  const turma = scope.turmas![0]!;
  const { period, school } = scope;
  const { lines } = await studentLines(deps.db, scope);
  const issued = { at: formatterIn(school.timeZone).dateTime(new Date()), by: admin.name };
  const texts = TURMA_STATEMENTS_TEXTS;
  const body = await render(
    { size: 'A4', margin: 50, info: { Title: texts.documentTitle(turma.name), Author: school.name } },
    async (doc) => {
      for (const [index, line] of lines.entries()) {
        if (index > 0) doc.addPage();
        const student = { id: line.id, student_id: line.studentId, name: line.name, grade: line.turma, turma_id: turma.id };
        const { opening, rows } = await statementEntries(deps.db, scope, line.id);
        drawStatement(doc, { school, period, student, opening, rows, issued });
      }
      if (lines.length === 0) doc.font(FONT.regular).fontSize(11).text(TURMA_REPORT_TEXTS.noStudents);
    },
  );
  await recordAudit(deps.db, {
    actor: auditActor(admin),
    action: 'report.statements',
    ip: context.ip,
    details: { turma: turma.name, from: period.from, to: period.to, students: lines.length },
  });
  return { fileName: texts.fileName(fileNamePart(turma.name), period.from, period.to), contentType: 'application/pdf', body };
}

/** What a certificate says: to whom, which title, and the line of the period it was earned in. */
type CertificateData = { name: string; turma: string; studentId: string; title: string; period: string };

/**
 * Draws a certificate on the current page (A4, landscape, no margin), with the school's logo and name: the weekly tags'
 * and the period's top students' alike.
 */
export function drawCertificate(
  doc: PDFKit.PDFDocument,
  { school, logo, issued }: { school: ReportSchool; logo: Buffer | null; issued: string },
  certificate: CertificateData,
): void {
  const texts = CERTIFICATE_TEXTS;
  const { width, height } = doc.page;
  doc
    .rect(24, 24, width - 48, height - 48)
    .lineWidth(3)
    .strokeColor('#4338ca')
    .stroke();
  doc
    .rect(34, 34, width - 68, height - 68)
    .lineWidth(0.8)
    .strokeColor('#a5b4fc')
    .stroke();
  // With a logo, the text moves down to leave it the top of the frame.
  const top = logo ? 34 : 0;
  const centred = (text: string, y: number, font: string, size: number, color: string) =>
    doc
      .font(font)
      .fontSize(size)
      .fillColor(color)
      .text(text, 60, y, { width: width - 120, align: 'center' });
  const line = (text: string, y: number, font: string, size: number, color: string) => centred(text, y + top, font, size, color);
  if (logo) doc.image(logo, width / 2 - 100, 50, { fit: [200, 56], align: 'center', valign: 'center' });
  line(school.name.toUpperCase(), 80, FONT.bold, 14, '#4338ca');
  line(texts.heading, 130, FONT.bold, 40, '#0f172a');
  line(texts.opening, 205, FONT.regular, 16, '#334155');
  // A long name (or title) is set smaller rather than wrapped over the line below it.
  const fitted = (text: string, size: number) =>
    Math.max(14, Math.min(size, (size * (width - 120)) / doc.font(FONT.bold).fontSize(size).widthOfString(text)));
  const named = texts.name(certificate.name);
  const nameSize = fitted(named, 30);
  line(named, 235 + (30 - nameSize) / 2, FONT.bold, nameSize, '#0f172a');
  line(texts.turma(certificate.turma, certificate.studentId), 285, FONT.regular, 16, '#334155');
  const titleSize = fitted(certificate.title, 26);
  line(certificate.title, 318 + (26 - titleSize) / 2, FONT.bold, titleSize, '#b45309');
  line(certificate.period, 362, FONT.regular, 14, '#334155');
  doc
    .moveTo(width / 2 - 130, height - 120)
    .lineTo(width / 2 + 130, height - 120)
    .lineWidth(0.8)
    .strokeColor('#0f172a')
    .stroke();
  centred(texts.signature, height - 112, FONT.regular, 12, '#334155');
  centred(texts.issued(issued), height - 80, FONT.regular, 10, '#64748b');
}

export const CERTIFICATE_PAGE = { size: 'A4', layout: 'landscape', margin: 0 } as const;

/**
 * A printable certificate (A4, landscape) for the holder of a current weekly tag, with the
 * school's logo and name. An expired or removed tag is refused. Audited.
 */
export async function certificatePdf(
  { db, settings, storage }: { db: Db; settings: SettingsStore; storage: FileStorage },
  admin: AdminActor,
  tagId: string,
  context: { ip?: string | undefined; now?: Date } = {},
): Promise<ExportFile> {
  const now = context.now ?? new Date();
  const tag = await currentTag(db, tagId, now);
  if (!tag) throw new AppError('tag_not_found', { status: 404 });
  assertStudentInScope(turmaScopeOf(admin), { turmaId: tag.turma_id });
  const school = await reportSchool(settings);
  const logo = await schoolLogoPng(storage, school.logoUrl);
  const format = formatterIn(school.timeZone);
  const title = TAG_NAMES[tag.kind];
  const texts = CERTIFICATE_TEXTS;

  const body = await render({ ...CERTIFICATE_PAGE, info: { Title: texts.documentTitle(title, tag.name), Author: school.name } }, (doc) =>
    drawCertificate(
      doc,
      { school, logo, issued: format.date(now) },
      {
        name: tag.name,
        turma: tag.grade,
        studentId: tag.student_id,
        title,
        period: texts.period(format.date(new Date(tag.assigned_at)), format.date(new Date(tag.expires_at))),
      },
    ),
  );

  await recordAudit(db, {
    actor: auditActor(admin),
    action: 'report.certificate',
    ip: context.ip,
    details: { tag: tagId, kind: tag.kind, student: tag.student_uuid, studentId: tag.student_id },
  });
  return { fileName: texts.fileName(fileSlug(title), fileSlug(tag.name)), contentType: 'application/pdf', body };
}

/**
 * The period's top students by Méritus earned (awards, less what was reversed of them), enrolled at its end: the first
 * `count` places, every student tied with the last one included, places shared by ties (1º, 1º, 3º).
 */
export function topStudents(lines: StudentLine[], count: number): (StudentLine & { place: number })[] {
  const ranked = lines.filter((line) => !line.left && line.awarded > 0).sort((a, b) => b.awarded - a.awarded);
  const last = ranked[count - 1]?.awarded ?? 0;
  return ranked
    .filter((line) => line.awarded >= last)
    .map((line) => ({ ...line, place: 1 + ranked.findIndex((other) => other.awarded === line.awarded) }));
}

/**
 * Certificates of the period's top students (topStudents), one a page, of one turma or of every turma the member sees
 * (the school, for the coordination). Refused when nobody earned Méritus in the period. Audited.
 */
export async function topCertificatesPdf(
  { db, settings, storage }: { db: Db; settings: SettingsStore; storage: FileStorage },
  admin: AdminActor,
  query: TopCertificatesQuery,
  context: { ip?: string | undefined } = {},
): Promise<ExportFile> {
  const { turma, count, ...days } = query;
  const scope = await reportScope({ db, settings }, { ...days, turma: turma === undefined ? [] : [turma] }, turmaScopeOf(admin));
  const { period, school } = scope;
  const top = topStudents((await studentLines(db, scope)).lines, count);
  if (top.length === 0) throw new AppError('report_no_top_students');
  const logo = await schoolLogoPng(storage, school.logoUrl);
  const format = formatterIn(school.timeZone);
  const texts = TOP_CERTIFICATE_TEXTS;
  const of = turma ?? null;
  const body = await render({ ...CERTIFICATE_PAGE, info: { Title: texts.documentTitle(of), Author: school.name } }, (doc) => {
    for (const [index, student] of top.entries()) {
      if (index > 0) doc.addPage(CERTIFICATE_PAGE);
      drawCertificate(
        doc,
        { school, logo, issued: format.date(new Date()) },
        {
          name: student.name,
          turma: student.turma,
          studentId: student.studentId,
          title: texts.title(student.place, of),
          period: texts.period(period, formatDate(period.from), formatDate(period.to), formatMeritus(student.awarded)),
        },
      );
    }
  });
  await recordAudit(db, {
    actor: auditActor(admin),
    action: 'report.top_certificates',
    ip: context.ip,
    details: { turma: of, count, from: period.from, to: period.to, students: top.map((student) => student.id) },
  });
  const where = of === null ? texts.schoolFilePart : fileNamePart(of);
  return { fileName: texts.fileName(where, period.from, period.to), contentType: 'application/pdf', body };
}
