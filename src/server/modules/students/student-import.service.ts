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
import {
  ADMIN_STUDENT_TEXTS,
  CREDENTIALS_CSV_HEADERS,
  generateReadablePassword,
  IMPORT_MAX_ROWS,
  IMPORT_PROBLEMS,
  normalizeGrade,
  parseBirthDate,
  type ImportPreview,
  type ImportResult,
  type ImportRow,
} from '../../../shared/admin-students.ts';
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

type Candidate = ImportRow & { key: string };

/** Control characters no spreadsheet's text holds (tab, CR and LF aside), and U+FFFD, what bytes that were not UTF-16 decode to. */
const NOT_TEXT = /[^\P{Cc}\t\n\r]|\uFFFD/u;

/**
 * Whether the bytes are a binary file (a workbook saved as .xlsx or .xls, a PDF, audio) rather than text. The byte-order
 * mark of UTF-16 (Excel's "Texto Unicode") also begins an MPEG audio frame, which is how file-type reads it: such a
 * file is judged by `text`, what it decodes to.
 */
async function isBinary(bytes: Buffer, text: string): Promise<boolean> {
  if (hasUtf16Bom(bytes)) return NOT_TEXT.test(text);
  return (await fileTypeFromBuffer(bytes)) !== undefined;
}

/**
 * Parses and checks a file without touching the database. `turmas`: the school's active
 * turmas, the only ones a new student may join. A binary file (isBinary) is not read as
 * text: its header would only look unknown.
 */
async function readRows(bytes: Buffer, turmas: readonly string[]): Promise<{ rows: Candidate[]; delimiter: string }> {
  const text = decodeCsvBytes(bytes);
  if (await isBinary(bytes, text)) throw new AppError('import_not_csv');
  const { rows: records, delimiter, unpairedQuoteAt } = parseCsv(text);
  // The records after an unpaired quote are one long cell: a preview of them would silently leave students out.
  if (unpairedQuoteAt !== null) throw new AppError('import_malformed', { message: importMalformedMessage(unpairedQuoteAt) });
  const headerIndex = records.findIndex((cells) => cells.some((cell) => cell.trim() !== ''));
  const header = headerIndex >= 0 ? mapHeader(records[headerIndex]!) : {};
  if (header.studentId === undefined || header.name === undefined) throw new AppError('import_no_header');
  const isBlank = (cells: string[]) => cells.every((cell) => cell.trim() === '');
  const body = records
    .map((cells, index) => ({ cells, line: index + 1 }))
    .slice(headerIndex + 1)
    .filter(({ cells }) => !isBlank(cells));
  if (body.length === 0) throw new AppError('import_empty');
  if (body.length > IMPORT_MAX_ROWS) throw new AppError('import_too_many_rows');

  // Text PostgreSQL cannot store (a NUL in a cell) flags its row and is shown, and looked up, as U+FFFD.
  const cell = (cells: string[], column: Column) => {
    const index = header[column];
    return index === undefined ? '' : recordableText((cells[index] ?? '').trim());
  };
  const columns = Object.values(header);
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
    const grade = rawGrade ? normalizeGrade(rawGrade, turmas) : null;
    if (!rawGrade) problems.push(IMPORT_PROBLEMS.missingGrade);
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
      key: studentId,
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
  return { rows, delimiter };
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

function toPreview(rows: Candidate[], delimiter: string): ImportPreview {
  const validCount = rows.filter((row) => row.valid).length;
  return {
    rows: rows.map(({ key: _key, ...row }) => row),
    validCount,
    invalidCount: rows.length - validCount,
    delimiter,
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

/** Each row of the file, marked valid or with what is wrong with it (pt-BR). Writes nothing. */
export async function previewImport(db: Db, admin: AdminActor, bytes: Buffer): Promise<ImportPreview> {
  const { rows, delimiter } = await readRows(bytes, await activeTurmaNames(db, admin));
  await checkAgainstDatabase(db, rows);
  return toPreview(rows, delimiter);
}

/**
 * Creates every valid row of the file in one transaction, each with a generated initial
 * password. The passwords are returned once (also as a CSV to hand out) and never stored in clear.
 */
export async function importStudents(
  deps: AdminStudentsDeps,
  admin: AdminActor,
  bytes: Buffer,
  context: ActionContext = {},
): Promise<ImportResult> {
  const { rows } = await readRows(bytes, await activeTurmaNames(deps.db, admin));
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
      const accepted = recheck.map((row, index) => ({ row, index })).filter(({ row }) => row.valid && turmaIds.has(row.grade));
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
      return accepted.map((entry) => ({ ...entry, id: ids.get(entry.row.studentId)! }));
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

  const credentials = created.map(({ row, index, id }) => ({
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
  };
}
