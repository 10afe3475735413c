import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import Papa from 'papaparse';
import { contentDisposition } from './storage/serve-object.ts';

const BOM = '\uFEFF';

/**
 * Text a spreadsheet would run as a formula: it starts with =, +, -, @, a tab or a carriage return, whatever follows,
 * line breaks included (papaparse's own pattern stops at the first line, so a multi-line description kept its
 * formula). A number written as text ('-105', '-7,4', as the reports format them) is left alone: it is no formula.
 */
const FORMULA_START = /^(?!-?\d+(?:[.,]\d+)*$)[=+\-@\t\r]/;

/**
 * A CSV as Excel in Brazil expects it: UTF-8 with a BOM (so accents open correctly),
 * `;` between fields (`,` is the decimal separator there), CRLF line ends. Text that
 * starts like a formula (FORMULA_START) is prefixed with ' so a name cannot run in a spreadsheet.
 */
export function toCsv(
  headers: readonly string[],
  rows: readonly (readonly (string | number | null)[])[],
  options: { bom?: boolean } = {},
): string {
  const data = rows.map((row) => row.map((cell) => cell ?? ''));
  const config = { delimiter: ';', newline: '\r\n', escapeFormulae: FORMULA_START };
  const body = headers.length > 0 ? Papa.unparse({ fields: [...headers], data }, config) : Papa.unparse(data, config);
  return `${options.bom === false ? '' : BOM}${body}${body.endsWith('\r\n') ? '' : '\r\n'}`;
}

/** Whether the bytes begin with a UTF-16 byte-order mark (FF FE little-endian, FE FF big-endian), as Excel's "Texto Unicode" writes. */
export function hasUtf16Bom(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

/**
 * Reads an uploaded CSV's bytes as text: UTF-8 (with or without a BOM), UTF-16 as
 * Excel's "Texto Unicode" writes it, or Windows-1252 as older Excel versions in Brazil
 * save "CSV (separado por vírgulas)".
 */
export function decodeCsvBytes(bytes: Buffer): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/**
 * Records of a CSV with its separator guessed among `;`, `,`, tab and `|`. Blank records
 * are kept (as empty arrays' worth of blank cells) so record numbers match the file's lines.
 * `unpairedQuoteAt`: the record (1-based) where a quote opens or closes out of place. From
 * there the parser reads the rest of the file as one cell, so the records after it are not the file's.
 */
export function parseCsv(text: string): { rows: string[][]; delimiter: string; unpairedQuoteAt: number | null } {
  const result = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    skipEmptyLines: false,
    delimitersToGuess: [';', ',', '\t', '|'],
  });
  const quoteError = result.errors.find((error) => error.type === 'Quotes');
  return { rows: result.data, delimiter: result.meta.delimiter, unpairedQuoteAt: quoteError ? (quoteError.row ?? 0) + 1 : null };
}

/** Sends a CSV as a download that no cache keeps. */
export function sendCsv(reply: FastifyReply, fileName: string, body: string | AsyncIterable<string>) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('Content-Disposition', contentDisposition('attachment', fileName))
    .header('Cache-Control', 'no-store')
    .send(typeof body === 'string' ? body : Readable.from(body));
}
