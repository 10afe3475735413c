import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import Papa from 'papaparse';
import { z } from 'zod';

const BOM = '\uFEFF';

/**
 * A CSV as Excel in Brazil expects it: UTF-8 with a BOM (so accents open correctly),
 * `;` between fields (`,` is the decimal separator there), CRLF line ends. Text that
 * starts like a formula (=, +, -, @) is neutralised so a name cannot run in a spreadsheet.
 */
export function toCsv(headers: readonly string[], rows: readonly (readonly (string | number | null)[])[], options: { bom?: boolean } = {}): string {
  const data = rows.map((row) => row.map((cell) => cell ?? ''));
  const config = { delimiter: ';', newline: '\r\n', escapeFormulae: true };
  const body = headers.length > 0 ? Papa.unparse({ fields: [...headers], data }, config) : Papa.unparse(data, config);
  return `${options.bom === false ? '' : BOM}${body}${body.endsWith('\r\n') ? '' : '\r\n'}`;
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
 */
export function parseCsv(text: string): { rows: string[][]; delimiter: string } {
  const result = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    skipEmptyLines: false,
    delimitersToGuess: [';', ',', '\t', '|'],
  });
  return { rows: result.data, delimiter: result.meta.delimiter };
}

/** The response schema of a CSV download (UTF-8 with BOM, `;`), sent whole or streamed. */
export const csvResponse = z
  .custom<string | Readable>((value) => typeof value === 'string' || value instanceof Readable)
  .describe('CSV (UTF-8 com BOM, separado por ";")');

/** Sends a CSV as a download that no cache keeps. */
export function sendCsv(reply: FastifyReply, fileName: string, body: string | AsyncIterable<string>) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${fileName}"`)
    .header('Cache-Control', 'no-store')
    .send(typeof body === 'string' ? body : Readable.from(body));
}
