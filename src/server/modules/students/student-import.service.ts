import { fileTypeFromBuffer } from 'file-type';
import { activeTurmas } from '../settings/settings.service.ts';
import { and, inArray, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client.ts';
import { students } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { hashPasswords } from '../auth/password.ts';
import { auditActor, turmaScopeOf, type AdminActor } from '../auth/actor.ts';
import { inScope } from '../../views/turma-scope.ts';
import type { ActionContext, AdminStudentsDeps } from './admin-students.service.ts';
import { decodeCsvBytes, hasUtf16Bom, parseCsv, toCsv } from '../../csv.ts';
import { readXlsxRows, type SheetRecord } from '../../xlsx-read.ts';
import { importTemplate, type TemplateFile } from './import-template.ts';
import {
  ADMIN_STUDENT_TEXTS,
  CREDENTIALS_CSV_HEADERS,
  generateReadablePassword,
  IMPORT_EXAMPLE_MARK,
  IMPORT_MAX_ROWS,
  IMPORT_PROBLEM_HEADER,
  IMPORT_PROBLEMS,
  IMPORT_XLSX_MAX_UNZIPPED,
  importTurmaChoices,
  parseBirthDate,
  type ImportPreview,
  type ImportResult,
  type ImportRow,
  type ImportTurmaChoice,
} from '../../../shared/admin-students.ts';
import { matchTurma } from '../../../shared/turma-match.ts';
import { isStorableText, MATRICULA_FORM, recordableText } from '../../../shared/validation.ts';
import { foldText } from '../../../shared/student-match.ts';
import { importMalformedMessage } from '../../../shared/errors.ts';

type Column = 'studentId' | 'name' | 'email' | 'grade' | 'turma' | 'birthDate';

function headerKey(text: string): string {
  return foldText(text).replace(/[^a-z0-9]/g, '');
}

/** What a header cell names, as secretaries' spreadsheets spell it ("Matrícula", "RA", "Nome do aluno", "Série/Turma"…). */
function columnOf(header: string): Column | null {
  const key = headerKey(header);
  if (!key) return null;
  // "Nome da mãe", "E-mail do responsável", "Data de nascimento do pai" are someone else's.
  const someoneElses = /mae|pai|respons/.test(key);
  if (key.includes('nasc') || key.includes('birth') || key === 'aniversario') return someoneElses ? null : 'birthDate';
  if (key.includes('mail')) return someoneElses ? null : 'email';
  // "Data de matrícula" is a date, not the matrícula.
  if (
    (key.includes('matricula') && !key.startsWith('data')) ||
    ['ra', 'registroacademico', 'studentid', 'codigo', 'codigodoaluno'].includes(key)
  )
    return 'studentId';
  if (key === 'turma') return 'turma';
  if (key.includes('serie') || key.includes('turma') || ['ano', 'grade', 'classe', 'anoescolar'].includes(key)) return 'grade';
  if ((key.startsWith('nome') && !someoneElses) || ['aluno', 'aluna', 'estudante', 'name'].includes(key)) return 'name';
  return null;
}

type HeaderMap = Partial<Record<Column, number>>;

function mapHeader(cells: string[]): HeaderMap {
  const map: HeaderMap = {};
  cells.forEach((cell, index) => {
    const column = columnOf(cell);
    if (column && map[column] === undefined) map[column] = index;
  });
  // A lone "Turma" column is the grade itself.
  if (map.grade === undefined && map.turma !== undefined) {
    map.grade = map.turma;
    delete map.turma;
  }
  return map;
}

const emailSchema = z.email();
const EXCEL_SCIENTIFIC = /^\d+([.,]\d+)?E[+-]?\d+$/i;

/** A row of the file: what the preview shows, and the file's own cells (for the rows with problems, to fix and send again). */
type Candidate = ImportRow & { cells: string[] };

/** A turma of the file that only resembles one of the school's (matchTurma), and whether the coordinator confirmed it. */
type TurmaSuggestion = ImportTurmaChoice & { rows: number; confirmed: boolean };

type ReadFile = { header: string[]; rows: Candidate[]; delimiter: string | null; turmaSuggestions: TurmaSuggestion[] };

/** Control characters no spreadsheet's text holds (tab, CR and LF aside), and U+FFFD, what bytes that were not UTF-16 decode to. */
const NOT_TEXT = /[^\P{Cc}\t\n\r]|\uFFFD/u;

/**
 * The file's records: the first sheet of an .xlsx, or the rows of a CSV (any delimiter, UTF-8, UTF-16 or Windows-1252).
 * Another binary file (an old .xls, a PDF, audio) is refused rather than read as text, where its header would only look
 * unknown. The byte-order mark of UTF-16 (Excel's "Texto Unicode") also begins an MPEG audio frame, which is how
 * file-type reads it: such a file is judged by what it decodes to.
 */
async function readRecords(bytes: Buffer): Promise<{ records: SheetRecord[]; delimiter: string | null }> {
  const utf16 = hasUtf16Bom(bytes);
  if (!utf16) {
    const type = await fileTypeFromBuffer(bytes);
    // One header and one row past the limit are enough to refuse the file.
    if (type?.ext === 'xlsx')
      return {
        records: await readXlsxRows(bytes, { maxUnzipped: IMPORT_XLSX_MAX_UNZIPPED, maxRows: IMPORT_MAX_ROWS + 2 }),
        delimiter: null,
      };
    if (type) throw new AppError('import_not_csv');
  }
  const text = decodeCsvBytes(bytes);
  if (utf16 && NOT_TEXT.test(text)) throw new AppError('import_not_csv');
  const { rows, delimiter, unpairedQuoteAt } = parseCsv(text);
  // The records after an unpaired quote are one long cell: a preview of them would silently leave students out.
  if (unpairedQuoteAt !== null) throw new AppError('import_malformed', { message: importMalformedMessage(unpairedQuoteAt) });
  return { records: rows.map((cells, index) => ({ cells, line: index + 1 })), delimiter };
}

/** The template's example row, marked in its matrícula cell: never a student. */
const isExample = (studentIdCell: string) => foldText(studentIdCell.trim()).startsWith(foldText(IMPORT_EXAMPLE_MARK));

/**
 * Parses and checks a file without touching the database. `turmas`: the school's turmas a new student may join;
 * a turma that only resembles one of them counts as it when the coordinator confirmed it (`choices`), and is a
 * problem otherwise, with the suggestion.
 */
async function readRows(bytes: Buffer, turmas: readonly string[], choices: readonly ImportTurmaChoice[]): Promise<ReadFile> {
  const { records, delimiter } = await readRecords(bytes);
  const isBlank = (cells: string[]) => cells.every((cell) => cell.trim() === '');
  const headerIndex = records.findIndex(({ cells }) => !isBlank(cells));
  const headerCells = headerIndex >= 0 ? records[headerIndex]!.cells : [];
  const header = mapHeader(headerCells);
  if (header.studentId === undefined || header.name === undefined) throw new AppError('import_no_header');
  const body = records.slice(headerIndex + 1).filter(({ cells }) => !isBlank(cells) && !isExample(cells[header.studentId!] ?? ''));
  if (body.length === 0) throw new AppError('import_empty');
  if (body.length > IMPORT_MAX_ROWS) throw new AppError('import_too_many_rows');

  // Text PostgreSQL cannot store (a NUL in a cell) flags its row and is shown, and looked up, as U+FFFD.
  const cell = (cells: string[], column: Column) => {
    const index = header[column];
    return index === undefined ? '' : recordableText((cells[index] ?? '').trim());
  };
  const columns = Object.values(header);
  const confirmed = new Map(choices.map((choice) => [choice.from, choice.to]));
  const suggestions = new Map<string, TurmaSuggestion>();
  const firstLineOf = new Map<string, number>();
  const firstEmailLineOf = new Map<string, number>();
  const rows: Candidate[] = [];
  for (const { cells, line } of body) {
    const problems: string[] = [];
    if (columns.some((index) => !isStorableText(cells[index] ?? ''))) problems.push(IMPORT_PROBLEMS.invalidText);
    const studentId = cell(cells, 'studentId').normalize(MATRICULA_FORM);
    const name = cell(cells, 'name').replace(/\s+/g, ' ');
    const rawGrade = [cell(cells, 'grade'), cell(cells, 'turma')].filter(Boolean).join(' ');
    const rawEmail = cell(cells, 'email').toLowerCase();
    const rawBirth = cell(cells, 'birthDate');

    if (!studentId) problems.push(IMPORT_PROBLEMS.missingStudentId);
    // Excel shows a long matrícula in a column of numbers as 1,23457E+11: its last digits are lost.
    else if (EXCEL_SCIENTIFIC.test(studentId)) problems.push(IMPORT_PROBLEMS.studentIdAsNumber(studentId));
    if (!name) problems.push(IMPORT_PROBLEMS.missingName);
    if (studentId.length > 50 || name.length > 120) problems.push(IMPORT_PROBLEMS.tooLong);
    const match = matchTurma(rawGrade, turmas);
    let grade = match.kind === 'exact' ? match.turma : null;
    if (match.kind === 'suggested') {
      const accepted = confirmed.get(rawGrade) === match.turma;
      const suggestion = suggestions.get(rawGrade) ?? { from: rawGrade, to: match.turma, rows: 0, confirmed: accepted };
      suggestion.rows += 1;
      suggestions.set(rawGrade, suggestion);
      if (accepted) grade = match.turma;
      else problems.push(IMPORT_PROBLEMS.suggestedGrade(rawGrade, match.turma));
    } else if (!rawGrade) problems.push(IMPORT_PROBLEMS.missingGrade);
    else if (!grade) problems.push(IMPORT_PROBLEMS.invalidGrade(rawGrade));
    const emailValid = !rawEmail || (rawEmail.length <= 254 && emailSchema.safeParse(rawEmail).success);
    if (!emailValid) problems.push(IMPORT_PROBLEMS.invalidEmail);
    const birthDate = rawBirth ? parseBirthDate(rawBirth) : null;
    if (rawBirth && !birthDate) problems.push(IMPORT_PROBLEMS.invalidBirthDate);

    if (studentId) {
      const first = firstLineOf.get(studentId);
      if (first !== undefined) problems.push(IMPORT_PROBLEMS.duplicateInFile(first));
      else firstLineOf.set(studentId, line);
    }
    if (rawEmail && emailValid) {
      const first = firstEmailLineOf.get(rawEmail);
      if (first !== undefined) problems.push(IMPORT_PROBLEMS.emailInFile(first));
      else firstEmailLineOf.set(rawEmail, line);
    }
    rows.push({
      cells,
      line,
      studentId,
      name,
      email: rawEmail || null,
      grade: grade ?? rawGrade,
      birthDate: birthDate ?? (rawBirth || null),
      valid: problems.length === 0,
      problems,
    });
  }
  return { header: headerCells, rows, delimiter, turmaSuggestions: [...suggestions.values()] };
}

/** The rows with problems as the file had them, plus a 'Problema' column in pt-BR: a CSV to fix and import again. Null when none. */
function problemsCsv(header: readonly string[], rows: readonly Candidate[]): string | null {
  if (rows.length === 0) return null;
  const width = Math.max(header.length, ...rows.map((row) => row.cells.length));
  const padded = (cells: readonly string[]) => Array.from({ length: width }, (_, index) => cells[index] ?? '');
  return toCsv(
    [...padded(header), IMPORT_PROBLEM_HEADER],
    rows.map((row) => [...padded(row.cells), row.problems.join('; ')]),
  );
}

/** Marks rows whose matrícula or email a current student already has. */
async function checkAgainstDatabase(db: DbOrTx, rows: Candidate[]): Promise<void> {
  const ids = [...new Set(rows.map((row) => row.studentId).filter(Boolean))];
  const emails = [...new Set(rows.map((row) => row.email).filter((email): email is string => Boolean(email)))];
  const [takenIds, takenEmails] = await Promise.all([
    ids.length
      ? db
          .select({ value: students.studentId })
          .from(students)
          .where(and(inArray(students.studentId, ids), isNull(students.deletedAt)))
      : Promise.resolve([]),
    emails.length
      ? db
          .select({ value: sql<string>`lower(${students.email})` })
          .from(students)
          .where(and(inArray(sql`lower(${students.email})`, emails), isNull(students.deletedAt)))
      : Promise.resolve([]),
  ]);
  const idSet = new Set(takenIds.map((row) => row.value));
  const emailSet = new Set(takenEmails.map((row) => row.value));
  for (const row of rows) {
    if (idSet.has(row.studentId)) row.problems.push(IMPORT_PROBLEMS.duplicateInDatabase);
    if (row.email && emailSet.has(row.email)) row.problems.push(IMPORT_PROBLEMS.emailInDatabase);
    row.valid = row.problems.length === 0;
  }
}

function toPreview({ header, rows, delimiter, turmaSuggestions }: ReadFile): ImportPreview {
  const validCount = rows.filter((row) => row.valid).length;
  return {
    rows: rows.map(({ cells: _cells, ...row }) => row),
    validCount,
    invalidCount: rows.length - validCount,
    delimiter,
    turmaSuggestions,
    problemsCsv: problemsCsv(
      header,
      rows.filter((row) => !row.valid),
    ),
  };
}

/** The turmas the file's students may join: the active ones, of a teacher's turmas only (a row naming another is invalid). */
async function joinableTurmas(db: DbOrTx, admin: AdminActor) {
  const scope = turmaScopeOf(admin);
  return (await activeTurmas(db)).filter((turma) => inScope(scope, turma.id));
}

async function activeTurmaNames(db: DbOrTx, admin: AdminActor): Promise<string[]> {
  return (await joinableTurmas(db, admin)).map((turma) => turma.name);
}

/** Each row of the file, marked valid or with what is wrong with it (pt-BR), the turmas to confirm and the rows to fix. Writes nothing. */
export async function previewImport(
  db: Db,
  admin: AdminActor,
  bytes: Buffer,
  choices: readonly ImportTurmaChoice[] = [],
): Promise<ImportPreview> {
  const file = await readRows(bytes, await activeTurmaNames(db, admin), choices);
  await checkAgainstDatabase(db, file.rows);
  return toPreview(file);
}

/** The import's template (CSV or .xlsx), its example and list of turmas from those the staff member may import into. */
export async function importTemplateFile(db: DbOrTx, admin: AdminActor, format: 'csv' | 'xlsx'): Promise<TemplateFile> {
  return importTemplate(await activeTurmaNames(db, admin), format);
}

/**
 * Creates every valid row of the file in one transaction, each with a generated initial
 * password. The passwords are returned once (also as a CSV to hand out) and never stored in clear.
 */
export async function importStudents(
  deps: AdminStudentsDeps,
  admin: AdminActor,
  bytes: Buffer,
  choices: readonly ImportTurmaChoice[] = [],
  context: ActionContext = {},
): Promise<ImportResult> {
  const { header, rows } = await readRows(bytes, await activeTurmaNames(deps.db, admin), choices);
  await checkAgainstDatabase(deps.db, rows);
  const candidates = rows.filter((row) => row.valid);
  if (candidates.length === 0) throw new AppError('import_nothing_valid');
  const passwords = candidates.map(() => generateReadablePassword());
  const hashes = await hashPasswords(passwords);

  const created = await deps.db
    .transaction(async (tx) => {
      // Checked again inside the transaction: someone may have added a student since the preview,
      // or renamed or retired a turma since the file was read (its rows are then skipped).
      const turmaIds = new Map((await joinableTurmas(tx, admin)).map((turma) => [turma.name, turma.id]));
      const recheck = candidates.map((row) => ({ ...row, problems: [] as string[] }));
      await checkAgainstDatabase(tx, recheck);
      for (const row of recheck) {
        if (!turmaIds.has(row.grade)) row.problems.push(IMPORT_PROBLEMS.turmaGone);
        row.valid = row.problems.length === 0;
      }
      const accepted = recheck.map((row, index) => ({ row, index })).filter(({ row }) => row.valid);
      // The new rows' ids by matrícula: the result names each student for their access cards.
      const ids = new Map<string, string>();
      for (let i = 0; i < accepted.length; i += 500) {
        const inserted = await tx
          .insert(students)
          .values(
            accepted.slice(i, i + 500).map(({ row, index }) => ({
              studentId: row.studentId,
              name: row.name,
              turmaId: turmaIds.get(row.grade)!,
              email: row.email,
              birthDate: row.birthDate,
              passwordHash: hashes[index]!,
            })),
          )
          .returning({ id: students.id, studentId: students.studentId });
        for (const row of inserted) ids.set(row.studentId, row.id);
      }
      if (accepted.length === 0) throw new AppError('import_nothing_valid');
      await recordAudit(tx, {
        actor: auditActor(admin),
        action: 'students.import',
        ip: context.ip,
        details: { created: accepted.length, skipped: rows.length - accepted.length, matriculas: accepted.map(({ row }) => row.studentId) },
      });
      await deps.events.publish(tx, { type: 'students' });
      return {
        accepted: accepted.map((entry) => ({ ...entry, id: ids.get(entry.row.studentId)! })),
        refused: recheck.filter((row) => !row.valid),
      };
    })
    .catch((error: unknown) => {
      if (
        (error as { code?: string; cause?: { code?: string } }).code === '23505' ||
        (error as { cause?: { code?: string } }).cause?.code === '23505'
      ) {
        throw new AppError('student_id_taken');
      }
      throw error;
    });

  const credentials = created.accepted.map(({ row, index, id }) => ({
    id,
    studentId: row.studentId,
    name: row.name,
    grade: row.grade,
    password: passwords[index]!,
  }));
  return {
    message: ADMIN_STUDENT_TEXTS.imported(credentials.length),
    created: credentials.length,
    skipped: rows.length - credentials.length,
    credentials,
    credentialsCsv: toCsv(
      CREDENTIALS_CSV_HEADERS,
      credentials.map((c) => [c.studentId, c.name, c.grade, c.password]),
    ),
    problemsCsv: problemsCsv(
      header,
      [...rows.filter((row) => !row.valid), ...created.refused].sort((a, b) => a.line - b.line),
    ),
  };
}

/** The confirmed turma suggestions a request sends with its file (the form field "turmas", JSON); none without it. */
export function turmaChoicesOf(field: string | undefined): ImportTurmaChoice[] {
  if (field === undefined || field === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(field);
  } catch {
    throw new AppError('bad_request');
  }
  const choices = importTurmaChoices.safeParse(parsed);
  if (!choices.success) throw new AppError('bad_request');
  return choices.data;
}
