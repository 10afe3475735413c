import { inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { AppError } from './app-error.ts';

/** A spreadsheet's rows as text, each with its row number in the sheet (the number Excel shows). */
export type SheetRecord = { cells: string[]; line: number };

/** Parts a workbook may hold; an .xlsx of one sheet has about a dozen. */
const MAX_ZIP_ENTRIES = 500;
/** Columns read of each row: school exports have a few dozen; a cell far to the right (XFD) would otherwise make every row that wide. */
export const XLSX_MAX_COLUMNS = 200;

const malformed = () => new AppError('import_xlsx_malformed');

/**
 * Unzips every part of the workbook with a bounded inflater, before ExcelJS (whose unzipping has no limit) reads it:
 * each part must inflate to exactly the size its directory entry declares, and all together to at most `maxUnzipped`
 * bytes. A zip bomb or a file cut short is refused here, having cost at most `maxUnzipped` bytes of memory.
 */
function checkZip(bytes: Buffer, maxUnzipped: number): void {
  // The end-of-central-directory record: 22 bytes, then a comment of up to 65,535.
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at -= 1) {
    if (bytes.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw malformed();
  const entries = bytes.readUInt16LE(end + 10);
  if (entries === 0 || entries > MAX_ZIP_ENTRIES) throw malformed();
  let at = bytes.readUInt32LE(end + 16);
  let total = 0;
  for (let i = 0; i < entries; i += 1) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) throw malformed();
    const encrypted = (bytes.readUInt16LE(at + 8) & 1) === 1;
    const method = bytes.readUInt16LE(at + 10);
    const compressedSize = bytes.readUInt32LE(at + 20);
    const size = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const local = bytes.readUInt32LE(at + 42);
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    // ZIP64 sizes (0xFFFFFFFF) and encryption have no place in a 2 MB workbook.
    if (encrypted || (method !== 0 && method !== 8)) throw malformed();
    total += size;
    if (total > maxUnzipped) throw new AppError('import_xlsx_too_big');
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== 0x04034b50) throw malformed();
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    if (start + compressedSize > bytes.length) throw malformed();
    const data = bytes.subarray(start, start + compressedSize);
    if (method === 0) {
      if (compressedSize !== size) throw malformed();
      continue;
    }
    let inflated: Buffer;
    try {
      inflated = inflateRawSync(data, { maxOutputLength: Math.max(1, size) });
    } catch {
      // More bytes than declared (ERR_BUFFER_TOO_LARGE), or not deflate data at all.
      throw malformed();
    }
    if (inflated.length !== size) throw malformed();
  }
}

/** dd/mm/aaaa of a date cell: ExcelJS gives the sheet's day at midnight UTC. */
function dayText(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getUTCDate())}/${two(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`;
}

/**
 * A cell as the person sees it, for the import: a date as dd/mm/aaaa, a number in full (a matrícula typed in a
 * number column keeps every digit, and its leading zeros when the column's format shows them, "000123"), a formula
 * by its result, a link or rich text by its text.
 */
function cellText(cell: ExcelJS.Cell): string {
  const raw = cell.value;
  const value = raw !== null && typeof raw === 'object' && 'result' in raw ? raw.result : raw;
  if (value instanceof Date) return dayText(value);
  if (typeof value === 'number') {
    const text = Number.isInteger(value) ? value.toFixed(0) : String(value);
    const zeros = /^0+$/.test(cell.numFmt ?? '') ? cell.numFmt.length : 0;
    return text.padStart(zeros, '0');
  }
  return cell.text;
}

/**
 * The first sheet of an .xlsx, as text rows (rows without text left out), at most `maxRows` of them: the caller refuses
 * a file with more. A file ExcelJS cannot read, or one that unzips to more than `maxUnzipped` bytes, is refused with a
 * pt-BR message.
 */
export async function readXlsxRows(
  bytes: Buffer,
  { maxUnzipped, maxRows }: { maxUnzipped: number; maxRows: number },
): Promise<SheetRecord[]> {
  checkZip(bytes, maxUnzipped);
  const workbook = new ExcelJS.Workbook();
  try {
    // A copy (at most 2 MB) as a plain ArrayBuffer, which ExcelJS's types take.
    await workbook.xlsx.load(new Uint8Array(bytes).buffer, {
      ignoreNodes: [
        'dataValidations',
        'conditionalFormatting',
        'hyperlinks',
        'drawing',
        'picture',
        'legacyDrawing',
        'tableParts',
        'extLst',
      ],
    });
  } catch {
    throw malformed();
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw malformed();
  const records: SheetRecord[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    if (records.length >= maxRows) return;
    const cells: string[] = [];
    row.eachCell({ includeEmpty: false }, (cell, column) => {
      if (column <= XLSX_MAX_COLUMNS) cells[column - 1] = cellText(cell);
    });
    const filled = Array.from(cells, (cell) => cell ?? '');
    if (filled.some((cell) => cell.trim() !== '')) records.push({ cells: filled, line });
  });
  return records;
}
