import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { contentDisposition } from './storage/serve-object.ts';

/** The PDFs' common parts (the reports' statement and certificate, the store's pick list): typeface, rendering, names. */

/** Dates and times in the school's time zone, as the documents write them. */
export function formatterIn(timeZone: string) {
  const dateTime = new Intl.DateTimeFormat('pt-BR', { timeZone, dateStyle: 'short', timeStyle: 'short' });
  const date = new Intl.DateTimeFormat('pt-BR', { timeZone, dateStyle: 'short' });
  return { dateTime: (value: Date) => dateTime.format(value), date: (value: Date) => date.format(value) };
}

/**
 * The documents' typeface, embedded (a subset of the glyphs used): PDF's built-in Helvetica only knows Windows-1252, and
 * pdfkit wrote a name like 'Đặng Thị Ngọc' as garbage that also shifted the rest of its line. DejaVu Sans covers
 * Latin with every accent, Greek and Cyrillic; a character it lacks (an emoji) shows as an empty box, alone.
 */
export const FONT = { regular: 'DejaVuSans', bold: 'DejaVuSans-Bold' } as const;
let fontFiles: Record<keyof typeof FONT, Buffer> | undefined;
function fonts(): Record<keyof typeof FONT, Buffer> {
  if (!fontFiles) {
    const folder = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    fontFiles = {
      regular: fs.readFileSync(path.join(folder, `${FONT.regular}.ttf`)),
      bold: fs.readFileSync(path.join(folder, `${FONT.bold}.ttf`)),
    };
  }
  return fontFiles;
}

/**
 * Renders a document in FONT and collects its bytes. `draw` may read as it goes (a turma's statements read one student's
 * rows at a time), so what is held is the document and the rows of the page being drawn.
 */
export function render(options: PDFKit.PDFDocumentOptions, draw: (doc: PDFKit.PDFDocument) => void | Promise<void>): Promise<Buffer> {
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
    Promise.resolve()
      .then(() => draw(doc))
      .then(() => doc.end(), reject);
  });
}

export function fileSlug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
}

/**
 * A name (a turma's, '1º EM - Turma A') as part of a file name, readable and with its accents ('1º-EM-Turma-A'): without
 * the characters a file system refuses, blanks and dashes as one '-'. The download's ASCII fallback is contentDisposition's.
 */
export function fileNamePart(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ')
    .trim()
    .replace(/[\s-]+/g, '-')
    .slice(0, 60);
}

/** Sends a PDF as a download that no cache keeps. */
export function sendPdf(reply: FastifyReply, fileName: string, body: Buffer) {
  return reply
    .type('application/pdf')
    .header('Content-Disposition', contentDisposition('attachment', fileName))
    .header('Cache-Control', 'no-store')
    .send(body);
}

/** Draws a QR code of `text` as squares (vector, sharp at any print size), `size` points wide, top-left at (x, y). */
export function drawQrCode(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const cell = size / modules.size;
  for (let row = 0; row < modules.size; row++) {
    for (let column = 0; column < modules.size; column++) {
      if (modules.get(row, column)) doc.rect(x + column * cell, y + row * cell, cell + 0.05, cell + 0.05);
    }
  }
  doc.fillColor('#000000').fill();
}

/** A table's column: its header, its width in points, and how its cells align (left unless said). */
export type PdfColumn = { header: string; width: number; align?: 'left' | 'center' | 'right' };

/** How a row looks: bold text, a band of colour behind it, a heavier rule under it (between groups of rows). */
export type PdfRowStyle = { bold?: boolean; fill?: string; heavyRule?: boolean };

/**
 * A table drawn a row at a time from `doc.y`, each row as high as its tallest cell (at least `minHeight`) with a rule
 * under it, `gap` points below it and the rule in the middle of the gap. A cell's text is 6 points narrower than its
 * column, starting `indent` points in. A row that would reach into the last `footRoom` points above the bottom margin
 * (kept for the page's number) goes to a new page, where the header row is drawn again when `repeatHeader` says so.
 * The statement, the turma report and the pick list draw theirs with it.
 */
export function pdfTable(
  doc: PDFKit.PDFDocument,
  table: {
    left: number;
    width: number;
    columns: PdfColumn[];
    fontSize: number;
    gap: number;
    footRoom: number;
    indent?: number;
    minHeight?: number;
    /** The header row's look (its text is bold). */
    header?: PdfRowStyle;
    repeatHeader?: boolean;
  },
) {
  const { left, width, columns, gap } = table;
  const ink = (style: PdfRowStyle) =>
    doc
      .font(style.bold ? FONT.bold : FONT.regular)
      .fontSize(table.fontSize)
      .fillColor('#0f172a');
  /** Draws one row; answers its top, on the page it landed on. */
  const drawRow = (cells: string[], style: PdfRowStyle = {}): number => {
    ink(style);
    const height = Math.max(table.minHeight ?? 0, ...cells.map((cell, i) => doc.heightOfString(cell, { width: columns[i]!.width - 6 })));
    if (doc.y + height > doc.page.height - doc.page.margins.bottom - table.footRoom) {
      doc.addPage();
      if (table.repeatHeader) drawHeader();
      ink(style);
    }
    const y = doc.y;
    if (style.fill)
      doc
        .rect(left, y - gap / 2, width, height + gap)
        .fill(style.fill)
        .fillColor('#0f172a');
    let x = left;
    cells.forEach((cell, i) => {
      doc.text(cell, x + (table.indent ?? 0), y, { width: columns[i]!.width - 6, align: columns[i]!.align ?? 'left' });
      x += columns[i]!.width;
    });
    doc.x = left;
    doc.y = y + height + gap;
    doc
      .moveTo(left, doc.y - gap / 2)
      .lineTo(left + width, doc.y - gap / 2)
      .lineWidth(style.heavyRule ? 0.9 : 0.5)
      .strokeColor(style.heavyRule ? '#94a3b8' : '#e2e8f0')
      .stroke();
    return y;
  };
  const drawHeader = () =>
    drawRow(
      columns.map((column) => column.header),
      { ...table.header, bold: true },
    );
  return { drawHeader, drawRow };
}
