import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.ts';
import { AppError } from '../../app-error.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { TAG_NAMES, type TagKind } from '../../../shared/constants.ts';
import { OPERATION_TYPE_LABELS, type LedgerType } from '../../../shared/ledger.ts';
import { formatEstelecas, formatMeritus, formatSignedAmount } from '../../../shared/format.ts';
import { addDays, formatDayRange, type statementQuery } from '../../../shared/reports.ts';
import { reportScope } from './reports.service.ts';
import type { z } from 'zod';
import { reportSchool, schoolLogoPng } from './report-school.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { ExportFile } from './report-exports.ts';

type Admin = { id: string; name: string };

function formatterIn(timeZone: string) {
  const dateTime = new Intl.DateTimeFormat('pt-BR', { timeZone, dateStyle: 'short', timeStyle: 'short' });
  const date = new Intl.DateTimeFormat('pt-BR', { timeZone, dateStyle: 'short' });
  return { dateTime: (value: Date) => dateTime.format(value), date: (value: Date) => date.format(value) };
}

/**
 * The documents' typeface, embedded (a subset of the glyphs used): PDF's built-in Helvetica only knows Windows-1252, and
 * pdfkit wrote a name like 'Đặng Thị Ngọc' as garbage that also shifted the rest of its line. DejaVu Sans covers
 * Latin with every accent, Greek and Cyrillic; a character it lacks (an emoji) shows as an empty box, alone.
 */
const FONT = { regular: 'DejaVuSans', bold: 'DejaVuSans-Bold' } as const;
let fontFiles: Record<keyof typeof FONT, Buffer> | undefined;
function fonts(): Record<keyof typeof FONT, Buffer> {
  if (!fontFiles) {
    const folder = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    fontFiles = { regular: fs.readFileSync(path.join(folder, `${FONT.regular}.ttf`)), bold: fs.readFileSync(path.join(folder, `${FONT.bold}.ttf`)) };
  }
  return fontFiles;
}

/** Renders a document in FONT and collects its bytes. */
function render(options: PDFKit.PDFDocumentOptions, draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  const doc = new PDFDocument({ ...options, bufferPages: true });
  const files = fonts();
  doc.registerFont(FONT.regular, files.regular);
  doc.registerFont(FONT.bold, files.bold);
  doc.font(FONT.regular);
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    draw(doc);
    doc.end();
  });
}

function fileSlug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
}

type StatementRow = {
  at: Date | string;
  currency: 'meritus' | 'estelecas';
  type: LedgerType;
  amount: number;
  description: string;
  incoming: boolean;
  other_name: string | null;
};

/**
 * A student's statement (extrato) for a period: balances at its start and end summed from the
 * ledger, and every operation in between with its signed amount. Audited.
 */
export async function statementPdf(db: Db, admin: Admin, query: z.output<typeof statementQuery>, context: { ip?: string | undefined } = {}): Promise<ExportFile> {
  const { student: studentUuid, ...days } = query;
  const { period, school } = await reportScope(db, { ...days, turma: [] });
  const tz = school.timeZone;
  const p1 = sql`(${period.from}::date::timestamp AT TIME ZONE ${tz})`;
  const p2 = sql`(${addDays(period.to, 1)}::date::timestamp AT TIME ZONE ${tz})`;
  const [student] = rowsOf<{ id: string; student_id: string; name: string; grade: string }>(
    await db.execute(sql`SELECT id, student_id, name, grade FROM students WHERE id = ${studentUuid}`),
  );
  if (!student) throw new AppError('student_not_found');
  const [opening] = rowsOf<{ meritus: string | number; estelecas: string | number }>(
    await db.execute(sql`
      SELECT coalesce(sum(CASE WHEN to_student_id = ${studentUuid} THEN amount ELSE -amount END) FILTER (WHERE currency = 'meritus'), 0) AS meritus,
             coalesce(sum(CASE WHEN to_student_id = ${studentUuid} THEN amount ELSE -amount END) FILTER (WHERE currency = 'estelecas'), 0) AS estelecas
        FROM ledger_entries
       WHERE (to_student_id = ${studentUuid} OR from_student_id = ${studentUuid}) AND created_at < ${p1}`),
  );
  const rows = rowsOf<StatementRow>(
    await db.execute(sql`
      SELECT e.created_at AS at, e.currency, e.type, e.amount, e.description,
             e.to_student_id = ${studentUuid} AS incoming,
             other.name AS other_name
        FROM ledger_entries e
        LEFT JOIN students other ON other.id = CASE WHEN e.to_student_id = ${studentUuid} THEN e.from_student_id ELSE e.to_student_id END
       WHERE (e.to_student_id = ${studentUuid} OR e.from_student_id = ${studentUuid})
         AND e.created_at >= ${p1} AND e.created_at < ${p2}
       ORDER BY e.created_at, e.id`),
  );
  const balance = { meritus: Number(opening?.meritus ?? 0), estelecas: Number(opening?.estelecas ?? 0) };
  const start = { ...balance };
  const format = formatterIn(tz);
  const issuedAt = new Date();

  const body = await render({ size: 'A4', margin: 50, info: { Title: `Extrato de ${student.name}`, Author: school.name } }, (doc) => {
    const left = doc.page.margins.left;
    const width = doc.page.width - left - doc.page.margins.right;
    doc.font(FONT.bold).fontSize(10).fillColor('#4338ca').text(school.name.toUpperCase(), { characterSpacing: 1 });
    doc.moveDown(0.3).font(FONT.bold).fontSize(20).fillColor('#0f172a').text('Extrato de Méritus e Estelecas');
    doc.moveDown(0.5).font(FONT.regular).fontSize(11).fillColor('#334155');
    doc.text(`Aluno: ${student.name}`).text(`Matrícula: ${student.student_id} · Turma: ${student.grade}`).text(`Período: ${formatDayRange(period.from, period.to)}`);
    doc.moveDown(0.5).font(FONT.bold).text(`Saldo no início do período: ${formatMeritus(start.meritus)} · ${formatEstelecas(start.estelecas)}`);
    doc.moveDown(0.8);

    // The date and time on one line ('24/11/2026, 06:35'); the description takes what the others leave.
    const [date, currency, operation, amount] = [96, 58, 78, 95];
    const columns = [
      { header: 'Data', width: date },
      { header: 'Moeda', width: currency },
      { header: 'Operação', width: operation },
      { header: 'Descrição', width: width - date - currency - operation - amount },
      { header: 'Valor', width: amount, align: 'right' as const },
    ];
    const drawRow = (cells: string[], bold: boolean) => {
      doc.font(bold ? FONT.bold : FONT.regular).fontSize(9).fillColor('#0f172a');
      const height = Math.max(...cells.map((cell, i) => doc.heightOfString(cell, { width: columns[i]!.width - 6 })));
      if (doc.y + height > doc.page.height - doc.page.margins.bottom - 30) doc.addPage();
      const y = doc.y;
      let x = left;
      cells.forEach((cell, i) => {
        doc.text(cell, x, y, { width: columns[i]!.width - 6, align: columns[i]!.align ?? 'left' });
        x += columns[i]!.width;
      });
      doc.x = left;
      doc.y = y + height + 5;
      doc.moveTo(left, doc.y - 2.5).lineTo(left + width, doc.y - 2.5).lineWidth(0.5).strokeColor('#e2e8f0').stroke();
    };
    drawRow(columns.map((column) => column.header), true);
    if (rows.length === 0) {
      doc.font(FONT.regular).fontSize(10).fillColor('#475569').text('Nenhuma operação no período.', left, doc.y + 4);
    }
    for (const row of rows) {
      const signed = row.incoming ? row.amount : -row.amount;
      balance[row.currency] += signed;
      const party = row.type === 'transfer' && row.other_name ? ` (${row.incoming ? 'de' : 'para'} ${row.other_name})` : '';
      drawRow(
        [format.dateTime(new Date(row.at)), row.currency === 'meritus' ? 'Méritus' : 'Estelecas', OPERATION_TYPE_LABELS[row.type], `${row.description}${party}`, formatSignedAmount(row.currency, signed)],
        false,
      );
    }
    doc.moveDown(0.8).font(FONT.bold).fontSize(11).fillColor('#0f172a');
    doc.text(`Saldo no fim do período: ${formatMeritus(balance.meritus)} · ${formatEstelecas(balance.estelecas)}`, left);
    doc.moveDown(0.3).font(FONT.regular).fontSize(9).fillColor('#475569');
    doc.text(`Emitido em ${format.dateTime(issuedAt)} por ${admin.name}. Valores somados do registro de operações.`, left);
  });

  await recordAudit(db, {
    actor: { kind: 'admin', id: admin.id, label: admin.name },
    action: 'report.statement',
    ip: context.ip,
    details: { student: student.id, studentId: student.student_id, from: period.from, to: period.to },
  });
  return { fileName: `extrato-${student.student_id}-${period.from}-a-${period.to}.pdf`, contentType: 'application/pdf', body };
}

/**
 * A printable certificate (A4, landscape) for the holder of a current weekly tag, with the
 * school's logo and name. An expired or removed tag is refused. Audited.
 */
export async function certificatePdf(
  { db, storage }: { db: Db; storage: FileStorage },
  admin: Admin,
  tagId: string,
  context: { ip?: string | undefined; now?: Date } = {},
): Promise<ExportFile> {
  const now = context.now ?? new Date();
  const [tag] = rowsOf<{ kind: TagKind; assigned_at: Date | string; expires_at: Date | string; student_uuid: string; student_id: string; name: string; grade: string }>(
    await db.execute(sql`
      SELECT t.kind, t.assigned_at, t.expires_at, s.id AS student_uuid, s.student_id, s.name, s.grade
        FROM student_tags t JOIN students s ON s.id = t.student_id
       WHERE t.id = ${tagId} AND t.expires_at > ${now.toISOString()}::timestamptz AND s.deleted_at IS NULL`),
  );
  if (!tag) throw new AppError('tag_not_found', { status: 404 });
  const school = await reportSchool(db);
  const logo = await schoolLogoPng(storage, school.logoUrl);
  const format = formatterIn(school.timeZone);
  const title = TAG_NAMES[tag.kind];

  const body = await render({ size: 'A4', layout: 'landscape', margin: 0, info: { Title: `${title}: ${tag.name}`, Author: school.name } }, (doc) => {
    const { width, height } = doc.page;
    doc.rect(24, 24, width - 48, height - 48).lineWidth(3).strokeColor('#4338ca').stroke();
    doc.rect(34, 34, width - 68, height - 68).lineWidth(0.8).strokeColor('#a5b4fc').stroke();
    // With a logo, the text moves down to leave it the top of the frame.
    const top = logo ? 34 : 0;
    const centred = (text: string, y: number, font: string, size: number, color: string) =>
      doc.font(font).fontSize(size).fillColor(color).text(text, 60, y, { width: width - 120, align: 'center' });
    const line = (text: string, y: number, font: string, size: number, color: string) => centred(text, y + top, font, size, color);
    if (logo) doc.image(logo, width / 2 - 100, 50, { fit: [200, 56], align: 'center', valign: 'center' });
    line(school.name.toUpperCase(), 80, FONT.bold, 14, '#4338ca');
    line('CERTIFICADO', 130, FONT.bold, 40, '#0f172a');
    line('Certificamos que', 205, FONT.regular, 16, '#334155');
    // A long name is set smaller rather than wrapped over the line below it.
    // The comma closes the name's clause: 'Certificamos que Ana Souza, da turma …, recebeu'.
    const named = `${tag.name},`;
    const nameSize = Math.max(14, Math.min(30, (30 * (width - 120)) / doc.font(FONT.bold).fontSize(30).widthOfString(named)));
    line(named, 235 + (30 - nameSize) / 2, FONT.bold, nameSize, '#0f172a');
    line(`da turma ${tag.grade} (matrícula ${tag.student_id}), recebeu o título de`, 285, FONT.regular, 16, '#334155');
    line(title, 318, FONT.bold, 26, '#b45309');
    line(`pelo período de ${format.date(new Date(tag.assigned_at))} a ${format.date(new Date(tag.expires_at))}.`, 362, FONT.regular, 14, '#334155');
    doc.moveTo(width / 2 - 130, height - 120).lineTo(width / 2 + 130, height - 120).lineWidth(0.8).strokeColor('#0f172a').stroke();
    centred('Coordenação pedagógica', height - 112, FONT.regular, 12, '#334155');
    centred(`Emitido em ${format.date(now)}`, height - 80, FONT.regular, 10, '#64748b');
  });

  await recordAudit(db, {
    actor: { kind: 'admin', id: admin.id, label: admin.name },
    action: 'report.certificate',
    ip: context.ip,
    details: { tag: tagId, kind: tag.kind, student: tag.student_uuid, studentId: tag.student_id },
  });
  return { fileName: `certificado-${fileSlug(title)}-${fileSlug(tag.name)}.pdf`, contentType: 'application/pdf', body };
}
