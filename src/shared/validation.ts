import { z } from 'zod';
import { ERROR_MESSAGES, isErrorCode, type ErrorCode } from './errors.ts';
import { MAX_OPERATION_AMOUNT } from './constants.ts';

/**
 * A row's id as a request sends it: a UUID in any case, read in lower case as the database writes it, so comparing
 * it with a stored id ("yourself", "the same student twice") holds for 'ABC…' as the database's lookup does.
 */
export const rowId = (options?: { error: ErrorCode }) => z.uuid(options).transform((value) => value.toLowerCase());

/**
 * Schemas in src/shared use error codes as their issue messages, so the server
 * answers with a stable code and both sides show the same pt-BR text.
 */
export function issueCode(issue: { message?: string | undefined }): ErrorCode {
  return isErrorCode(issue.message) ? issue.message : 'validation';
}

export function issueMessage(issue: { message?: string | undefined }): string {
  return ERROR_MESSAGES[issueCode(issue)];
}

/**
 * The pt-BR message of each field the issues name (its first issue wins), keyed by the
 * field's path joined with dots, or 'body' when the whole input is at fault: the `fields`
 * of a 400, whether the route's schema or the service refused the input.
 */
export function issueFields(issues: readonly { path: readonly PropertyKey[]; message?: string | undefined }[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) fields[issue.path.map(String).join('.') || 'body'] ??= issueMessage(issue);
  return fields;
}

/** Digits in groups of three after a point, as Brazilians write thousands ('1.000', '12.500'), with an optional decimal comma. */
const GROUPED_NUMBER = /^[+-]?\d{1,3}(?:\.\d{3})+(?:,\d+)?$/;
/** Digits with an optional decimal comma or point. */
const PLAIN_NUMBER = /^[+-]?\d+(?:[.,]\d+)?$/;

/**
 * An amount as typed in a form: blank is missing (undefined). '1.000' is a thousand, as in
 * pt-BR, and '1,5' or '1.5' one and a half; anything else (an exponent like '1e3', letters,
 * two separators) is NaN, for the schema or rule to refuse, never a number nobody typed.
 */
export function parseAmountText(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (GROUPED_NUMBER.test(trimmed)) return Number(trimmed.replaceAll('.', '').replace(',', '.'));
  return PLAIN_NUMBER.test(trimmed) ? Number(trimmed.replace(',', '.')) : Number.NaN;
}

/**
 * What no text of ours holds: control characters other than tab and line breaks (PostgreSQL
 * refuses NUL in text and jsonb; the others, an escape sequence or a backspace in a name,
 * only garble it in messages, CSV and PDFs); characters that show nothing or turn text around
 * (zero-width spaces, soft hyphens, word joiners, direction marks, overrides and isolates, blank
 * braille and Hangul fillers): a name made of them looks blank or like another student's, and
 * an override reverses what follows it in every list that shows it. The joiners that emoji and
 * some scripts need (U+200C, U+200D) are kept. And half of a UTF-16 surrogate pair without its
 * other half (not Unicode at all: stored as U+FFFD by one driver, refused by the other).
 */
const UNSTORABLE = new RegExp(
  // eslint-disable-next-line no-misleading-character-class -- lone marks are what it looks for
  String.raw`[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u061c\u115f\u17b4\u17b5\u180e\u200b\u200e\u200f\u202a-\u202e` +
    String.raw`\u2060-\u2064\u2066-\u206f\u2800\u1160\u3164\ufeff\uffa0\ufff9-\ufffb]` +
    String.raw`|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]`,
);
// eslint-disable-next-line no-misleading-character-class -- the pattern above
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** Input already refused, kept for the record: cut to `max` and what we do not store shown as U+FFFD. */
export function recordableText(value: string, max = value.length): string {
  return value.slice(0, max).replace(UNSTORABLE_ALL, '\uFFFD');
}

/**
 * What a request sent, as text for a record: a number or string as it is, an object or array as
 * its JSON, "…" for one nested too deep to write out. Never throws: String() does on
 * {"toString": 1}, and overflows the stack on an array nested 200,000 deep.
 */
export function sentText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return '…';
  }
}

type TextOptions = {
  /** Code when the value is missing or not a string. */
  error?: ErrorCode;
  /** Longest accepted, after trimming: every text the API takes has a bound. */
  max: number;
  maxError?: ErrorCode;
  /** Surrounding spaces are dropped before the length checks; passwords keep theirs. */
  trim?: boolean;
  /** An identifier typed on any keyboard (a matrícula): see MATRICULA_FORM. */
  identifier?: boolean;
};

/**
 * A matrícula's Unicode form: compatibility characters read as the plain ones (NFKC), so the full-width
 * '２０２４００１' of a phone's keyboard or a spreadsheet is the matrícula 2024001, never a second one beside it.
 */
export const MATRICULA_FORM = 'NFKC';

/**
 * Every text the API takes in (bodies, queries, path parameters, headers) is this schema:
 * what we do not store is refused with 'invalid_text' before any other check.
 * Callers chain `.min()`, `.refine()`… for their own rules.
 */
export function textInput({ error = 'validation', max, maxError = 'validation', trim = true, identifier = false }: TextOptions) {
  const storable = z.string({ error }).refine(isStorableText, { error: 'invalid_text', abort: true });
  // Composed and decomposed accents ('ç' and 'c' + '̧') are one text: stored one way, they sum, search and compare alike.
  // A password (trim: false) is kept byte for byte, as its hash was made.
  return (trim ? storable.trim().normalize(identifier ? MATRICULA_FORM : 'NFC') : storable).max(max, { error: maxError });
}

/** Something to read: a letter, digit, punctuation or symbol, not only joiners and marks. */
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;

/** An optional text: missing, blank or only invisible characters (joiners, lone accents) → undefined. */
export function optionalText(max: number) {
  return textInput({ max })
    .optional()
    .transform((value) => (value !== undefined && VISIBLE.test(value) ? value : undefined));
}

/** A required text with something to read in it; missing, blank or invisible → the given code. */
export function requiredText(code: ErrorCode, max = 200, options: Pick<TextOptions, 'identifier' | 'maxError'> = {}) {
  return textInput({ error: code, max, ...options })
    .min(1, { error: code, abort: true })
    .refine((value) => VISIBLE.test(value), { error: code });
}

/**
 * A person's name (a student, a member of staff, a guardian) as everyone reads it: one line, single spaces. A line break
 * pasted into it would otherwise reach headers and documents that name the person (an email's subject, a PDF's line).
 */
export function personName(code: ErrorCode, max = 120) {
  return textInput({ error: code, max })
    .overwrite((name) => name.replace(/\s+/g, ' '))
    .min(1, { error: code, abort: true })
    .refine((value) => VISIBLE.test(value), { error: code });
}

/**
 * A whole amount of points: strings, fractions, negatives and huge values are refused
 * with their own message instead of being coerced.
 */
export function amountSchema(codes: { missing: ErrorCode; notPositive: ErrorCode; notInteger?: ErrorCode }) {
  return z
    .number({
      error: (issue) => (issue.input === undefined || issue.input === null ? codes.missing : (codes.notInteger ?? 'amount_not_integer')),
    })
    .int({ error: codes.notInteger ?? 'amount_not_integer' })
    .positive({ error: codes.notPositive })
    .max(MAX_OPERATION_AMOUNT, { error: 'amount_too_large' });
}

/** The years every date the school deals with falls in; outside them a date is a typo or a probe (PostgreSQL would keep year 9999). */
const DATE_YEARS = { min: 1900, max: 2100 } as const;

function withinDateYears(date: Date): boolean {
  const year = date.getUTCFullYear();
  return year >= DATE_YEARS.min && year <= DATE_YEARS.max;
}

/** The UTC instant the fields name, or null when they are not a real calendar time within DATE_YEARS (31/02, 25:00, year 9999…). */
export function calendarDate(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): Date | null {
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  const fields = [
    date.getUTCFullYear(),
    date.getUTCMonth() + 1,
    date.getUTCDate(),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
  ];
  const asGiven = fields.every((field, i) => field === [year, month, day, hour, minute, second][i]);
  return asGiven && withinDateYears(date) ? date : null;
}

/** An instant as the API takes it: ISO 8601 with its offset, a real time within DATE_YEARS. */
export function instantText(code: ErrorCode) {
  return z.iso.datetime({ offset: true, error: code, abort: true }).refine((value) => withinDateYears(new Date(value)), { error: code });
}
