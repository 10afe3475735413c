import { aliasedTable, and, asc, desc, eq, exists, gt, gte, ilike, inArray, isNull, lte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { admins, auditLog, ledgerEntries, students } from '../../db/schema.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { AppError } from '../../app-error.ts';
import {
  type ReversalNote,
  type LedgerEntryView,
  type LiveOperation,
  type LiveOperationsQuery,
  type OperationAuthor,
  type OperationCategory,
  type PartyView,
  type StudentOperation,
  type StudentOperationsPage,
  type ReceiptParty,
  type TransferReceipt,
} from '../../../shared/ledger.ts';
import { receiptCode, receiptIdRange } from '../../../shared/receipt-code.ts';
import {
  ADMIN_OPERATION_TYPES,
  type Currency,
  directionOf,
  isStoreType,
  type LedgerDirection,
  type LedgerType,
  operationKind,
  STORE_LEDGER_TYPES,
} from '../../../shared/ledger-types.ts';
import { directionIs } from '../../db/ledger-direction.ts';
import type { PublicStudent } from '../../../shared/auth.ts';
import { ESTELECAS_TOP_LIMIT } from '../../../shared/constants.ts';
import { MAX_PUSHED_OPERATIONS } from '../../../shared/live-events.ts';
import { calendarDate } from '../../../shared/validation.ts';
import { activeTagsByStudent, nameSortKey, photoAddress, selectStudents, toPublicStudent } from '../../views/student-views.ts';
import { refusedAttemptRecord } from './refused-attempts.ts';
import { eitherStudentInScope, turmaInScope, type TurmaScope } from '../../views/turma-scope.ts';
import { nameOrderOf } from '../../views/name-order.ts';

/** Rows that concern a student of the scope's turmas (either side); every row for the coordination. */
function entryInScope(scope: TurmaScope): SQL | undefined {
  return scope === null ? undefined : eitherStudentInScope(ledgerEntries.fromStudentId, ledgerEntries.toStudentId, scope);
}

const fromStudent = aliasedTable(students, 'from_student');
const toStudent = aliasedTable(students, 'to_student');
/** The reversal of a listed row, when it has one (reverses_entry_id is unique: one at most). */
const reversal = aliasedTable(ledgerEntries, 'reversal');

type PartyColumns = { id: string | null; studentId: string | null; name: string | null; deletedAt: Date | null };

function party(row: PartyColumns | null): PartyView | null {
  if (!row || !row.id || !row.studentId || !row.name) return null;
  return { id: row.id, studentId: row.studentId, name: row.name, removed: row.deletedAt !== null };
}

const partyColumns = (table: typeof fromStudent) => ({
  id: table.id,
  studentId: table.studentId,
  name: table.name,
  deletedAt: table.deletedAt,
});

function entriesWithParties() {
  return {
    entry: ledgerEntries,
    from: partyColumns(fromStudent),
    to: partyColumns(toStudent),
    reversal: { at: reversal.createdAt, by: reversal.actorName, reason: reversal.reversalReason },
  };
}

type ReversalColumns = { at: Date | null; by: string | null; reason: string | null };

export type EntryWithParties = {
  entry: typeof ledgerEntries.$inferSelect;
  from: PartyColumns | null;
  to: PartyColumns | null;
  reversal: ReversalColumns | null;
};

export function reversalNoteOf(row: ReversalColumns | null): ReversalNote | null {
  if (!row?.at || row.by === null || row.reason === null) return null;
  return { at: row.at.toISOString(), by: row.by, reason: row.reason };
}

/** What a listed row says about reversals (src/shared/ledger.ts). */
function reversalFieldsOf({ entry, reversal: reversedBy }: EntryWithParties) {
  return { reversedBy: reversalNoteOf(reversedBy), reversesEntryId: entry.reversesEntryId };
}

/**
 * Where a row stands in the ledger's newest-first order: its time as the database's own
 * text (with microseconds: a JavaScript Date would drop them and skip rows written in the
 * same millisecond) and its id, which breaks ties.
 */
type Position = { at: string; id: string };

/**
 * One page of rows with both parties, newest first, matching `where` and after `position`:
 * the keyset every list of the ledger walks (a student's pages, the latest rows, the export).
 */
async function entriesPage(
  db: Db,
  where: SQL | undefined,
  after: Position | undefined,
  limit: number,
): Promise<(EntryWithParties & { position: Position })[]> {
  const older = after ? sql`(${ledgerEntries.createdAt}, ${ledgerEntries.id}) < (${after.at}::timestamptz, ${after.id}::uuid)` : undefined;
  const rows: (EntryWithParties & { at: string })[] = await db
    .select({ ...entriesWithParties(), at: sql<string>`${ledgerEntries.createdAt}::text` })
    .from(ledgerEntries)
    .leftJoin(fromStudent, eq(fromStudent.id, ledgerEntries.fromStudentId))
    .leftJoin(toStudent, eq(toStudent.id, ledgerEntries.toStudentId))
    .leftJoin(reversal, eq(reversal.reversesEntryId, ledgerEntries.id))
    .where(and(where, older))
    .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
    .limit(limit);
  return rows.map(({ at, ...row }) => ({ ...row, position: { at, id: row.entry.id } }));
}

/** The whole ledger (of the scope's students), newest first, a page at a time (a school year of rows need not fit in memory). */
export async function* everyEntryNewestFirst(db: Db, pageSize: number, scope: TurmaScope = null): AsyncGenerator<EntryWithParties[]> {
  let after: Position | undefined;
  for (;;) {
    const page = await entriesPage(db, entryInScope(scope), after, pageSize);
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = page.at(-1)!.position;
  }
}

function toEntryView(row: EntryWithParties): LedgerEntryView {
  const { entry, from, to } = row;
  return {
    id: entry.id,
    currency: entry.currency,
    type: entry.type,
    amount: entry.amount,
    description: entry.description,
    from: party(from),
    to: party(to),
    actorKind: entry.actorKind,
    actorName: entry.actorName,
    actorAdminId: entry.actorAdminId,
    createdAt: entry.createdAt.toISOString(),
    ...reversalFieldsOf(row),
  };
}

function toStudentOperation(viewerId: string, row: EntryWithParties): StudentOperation {
  const { entry } = row;
  const incoming = entry.toStudentId === viewerId;
  return {
    id: entry.id,
    currency: entry.currency,
    type: entry.type,
    kind: operationKind(entry.type, incoming),
    amount: entry.amount,
    signedAmount: incoming ? entry.amount : -entry.amount,
    description: entry.description,
    counterpart: entry.fromStudentId && entry.toStudentId ? party(incoming ? row.from : row.to) : null,
    actorName: entry.actorName,
    createdAt: entry.createdAt.toISOString(),
    ...reversalFieldsOf(row),
  };
}

/** A page's cursor: the position of its last row. */
function encodeCursor({ at, id }: Position): string {
  return Buffer.from(`${at}|${id}`).toString('base64url');
}

const TIMESTAMP_TEXT = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:[+-](\d{2})(?::(\d{2}))?|Z)$/;
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A real time (no 31/02, no year 9999) with an offset PostgreSQL accepts, as the database writes it. */
function isTimestampText(at: string): boolean {
  const time = TIMESTAMP_TEXT.exec(at);
  if (!time) return false;
  const fields = time.slice(1).map((field) => Number(field ?? 0));
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = fields as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return calendarDate(year, month, day, hour, minute, second) !== null && offsetHours <= 15 && offsetMinutes <= 59;
}

/** A cursor this server wrote, or a 400. */
function decodeCursor(cursor: string): Position {
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !id || rest.length > 0 || !isTimestampText(at) || !UUID_TEXT.test(id)) throw new AppError('validation');
  return { at, id };
}

export type StudentOperationsFilter = {
  currency?: Currency | undefined;
  kind?: 'transfer_in' | 'transfer_out' | 'credit' | 'debit' | 'store' | undefined;
  q?: string | undefined;
  /** Types left out (the family area without the staff's removals and penalties, when the school says so). */
  excludeTypes?: readonly LedgerType[] | undefined;
  limit: number;
  cursor?: string | undefined;
};

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A student's own operations (both sides of transfers), newest first, one page at a time. */
export async function studentOperations(db: Db, viewerId: string, filter: StudentOperationsFilter): Promise<StudentOperationsPage> {
  const conditions: SQL[] = [];
  switch (filter.kind) {
    case 'transfer_in':
      conditions.push(eq(ledgerEntries.toStudentId, viewerId), directionIs(ledgerEntries.type, 'moves'));
      break;
    case 'transfer_out':
      conditions.push(eq(ledgerEntries.fromStudentId, viewerId), directionIs(ledgerEntries.type, 'moves'));
      break;
    // The Loja's rows raise and lower balances too, but are not the staff's additions and removals: they have their own filter.
    case 'credit':
      conditions.push(
        eq(ledgerEntries.toStudentId, viewerId),
        directionIs(ledgerEntries.type, 'raises'),
        notInArray(ledgerEntries.type, [...STORE_LEDGER_TYPES]),
      );
      break;
    case 'debit':
      conditions.push(
        eq(ledgerEntries.fromStudentId, viewerId),
        directionIs(ledgerEntries.type, 'lowers'),
        notInArray(ledgerEntries.type, [...STORE_LEDGER_TYPES]),
      );
      break;
    case 'store':
      conditions.push(
        or(eq(ledgerEntries.fromStudentId, viewerId), eq(ledgerEntries.toStudentId, viewerId))!,
        inArray(ledgerEntries.type, [...STORE_LEDGER_TYPES]),
      );
      break;
    default:
      conditions.push(or(eq(ledgerEntries.fromStudentId, viewerId), eq(ledgerEntries.toStudentId, viewerId))!);
  }
  if (filter.currency) conditions.push(eq(ledgerEntries.currency, filter.currency));
  if (filter.excludeTypes?.length) conditions.push(notInArray(ledgerEntries.type, [...filter.excludeTypes]));
  if (filter.q) {
    const pattern = `%${escapeLike(filter.q)}%`;
    conditions.push(
      or(
        ilike(ledgerEntries.description, pattern),
        ilike(fromStudent.name, pattern),
        ilike(toStudent.name, pattern),
        ilike(fromStudent.studentId, pattern),
        ilike(toStudent.studentId, pattern),
      )!,
    );
  }
  const rows = await entriesPage(db, and(...conditions), filter.cursor ? decodeCursor(filter.cursor) : undefined, filter.limit + 1);
  const page = rows.slice(0, filter.limit);
  const last = page.at(-1);
  return {
    items: page.map((row) => toStudentOperation(viewerId, row)),
    nextCursor: rows.length > filter.limit && last ? encodeCursor(last.position) : null,
  };
}

/**
 * The Comprovante of one of the student's own transfers (sent or received, either currency) by its short code; a code
 * of no such transfer, or of another student's, is 'Comprovante não encontrado' alike (a code reveals nothing).
 */
export async function studentReceipt(db: Db, viewerId: string, code: string): Promise<TransferReceipt> {
  const range = receiptIdRange(code);
  if (!range) throw new AppError('receipt_not_found');
  // Typed as entriesPage types its rows: the type drizzle infers for this selection is never[].
  const rows: Pick<EntryWithParties, 'entry' | 'reversal'>[] = await db
    .select({ entry: ledgerEntries, reversal: { at: reversal.createdAt, by: reversal.actorName, reason: reversal.reversalReason } })
    .from(ledgerEntries)
    .leftJoin(reversal, eq(reversal.reversesEntryId, ledgerEntries.id))
    .where(
      and(
        gte(ledgerEntries.id, range.first),
        lte(ledgerEntries.id, range.last),
        or(eq(ledgerEntries.fromStudentId, viewerId), eq(ledgerEntries.toStudentId, viewerId)),
        directionIs(ledgerEntries.type, 'moves'),
      ),
    )
    .orderBy(desc(ledgerEntries.createdAt))
    .limit(1);
  const row = rows[0];
  if (!row) throw new AppError('receipt_not_found');
  const { entry } = row;
  const partyIds = [entry.fromStudentId, entry.toStudentId].filter((id): id is string => id !== null);
  const parties = await selectStudents(db).where(and(inArray(students.id, partyIds), isNull(students.deletedAt)));
  const partyOf = (id: string | null): ReceiptParty | null => {
    const student = parties.find((candidate) => candidate.id === id);
    return student ? { name: student.name, studentId: student.studentId, grade: student.grade, photo: photoAddress(student) } : null;
  };
  return {
    id: entry.id,
    code: receiptCode(entry.id),
    currency: entry.currency,
    amount: entry.amount,
    description: entry.description,
    createdAt: entry.createdAt.toISOString(),
    sent: entry.fromStudentId === viewerId,
    from: partyOf(entry.fromStudentId),
    to: partyOf(entry.toStudentId),
    reversedBy: reversalNoteOf(row.reversal),
  };
}

/** Latest ledger rows matching `where`, with both parties. */
async function latestEntries(db: Db, where: SQL | undefined, limit: number): Promise<LedgerEntryView[]> {
  return (await entriesPage(db, where, undefined, limit)).map(toEntryView);
}

/** The Méritus screen's side panel: the latest operations of the staff (awards, deductions and reversals) on students of the scope. */
export function recentAdminMeritus(db: Db, limit: number, scope: TurmaScope = null): Promise<LedgerEntryView[]> {
  return latestEntries(
    db,
    and(eq(ledgerEntries.currency, 'meritus'), inArray(ledgerEntries.type, [...ADMIN_OPERATION_TYPES, 'reversal']), entryInScope(scope)),
    limit,
  );
}

export function estelecasHistory(db: Db, limit: number, scope: TurmaScope = null): Promise<LedgerEntryView[]> {
  return latestEntries(db, and(eq(ledgerEntries.currency, 'estelecas'), entryInScope(scope)), limit);
}

/** The Estelecas top list (of the scope's students). */
export async function estelecasRanking(db: Db, scope: TurmaScope = null): Promise<PublicStudent[]> {
  const rows = await selectStudents(db)
    .where(and(isNull(students.deletedAt), gt(students.estelecas, 0), turmaInScope(students.turmaId, scope)))
    .orderBy(desc(students.estelecas), asc(nameSortKey), asc(students.id))
    .limit(ESTELECAS_TOP_LIMIT);
  const tags = await activeTagsByStudent(
    db,
    rows.map((row) => row.id),
  );
  // A staff list: the photos whatever the consent.
  return rows.map((row) => toPublicStudent(row, tags.get(row.id) ?? [], { role: 'admin', id: '' }));
}

const CATEGORIES = { moves: 'student_transfer', raises: 'award', lowers: 'deduction', reverses: 'reversal' } as const satisfies Record<
  LedgerDirection,
  OperationCategory
>;

function categoryOf(type: LedgerType): OperationCategory {
  return isStoreType(type) ? 'store' : CATEGORIES[directionOf(type)];
}

/** A completed ledger row as a line of the live feed. */
function entryLine(entry: LedgerEntryView): LiveOperation {
  return {
    id: entry.id,
    currency: entry.currency,
    type: entry.type,
    category: categoryOf(entry.type),
    operator: entry.actorKind,
    amount: entry.amount,
    description: entry.description,
    from: entry.from,
    to: entry.to,
    actorName: entry.actorName,
    status: 'completed',
    reason: null,
    actorAdminId: entry.actorAdminId,
    createdAt: entry.createdAt,
    reversedBy: entry.reversedBy,
    reversesEntryId: entry.reversesEntryId,
  };
}

/** Refused attempts (audit rows 'ledger.refused') as lines of the live feed, with the students they named. */
async function refusedLines(db: Db, rows: (typeof auditLog.$inferSelect)[]): Promise<LiveOperation[]> {
  const attempts = rows.flatMap((row) => {
    const details = refusedAttemptRecord.safeParse(row.details).data;
    return details?.type ? [{ row, details: { ...details, type: details.type } }] : [];
  });
  const ids = new Set<string>();
  for (const { details } of attempts) {
    if (details.fromStudentId) ids.add(details.fromStudentId);
    if (details.toStudentId) ids.add(details.toStudentId);
  }
  const validIds = [...ids];
  const parties = validIds.length
    ? await db
        .select({ id: students.id, studentId: students.studentId, name: students.name, deletedAt: students.deletedAt })
        .from(students)
        .where(inArray(students.id, validIds))
    : [];
  const partyById = new Map(parties.map((p) => [p.id, party(p)]));
  return attempts.map(({ row, details }) => ({
    id: `refused-${row.id}`,
    currency: details.currency,
    type: details.type,
    category: categoryOf(details.type),
    operator: row.actorKind === 'admin' ? 'admin' : row.actorKind === 'student' ? 'student' : 'system',
    amount: details.amount,
    description: details.description ?? '',
    from: (details.fromStudentId && partyById.get(details.fromStudentId)) || null,
    to: (details.toStudentId && partyById.get(details.toStudentId)) || null,
    actorName: row.actorLabel ?? '',
    status: 'failed',
    reason: details.reason,
    actorAdminId: null,
    createdAt: row.at.toISOString(),
    reversedBy: null,
    reversesEntryId: null,
  }));
}

const newestFirst = (a: LiveOperation, b: LiveOperation) => b.createdAt.localeCompare(a.createdAt);
const isRefusal = eq(auditLog.action, 'ledger.refused');

/** Refused attempts that named a student of the scope (either side); every one for the coordination. */
function refusalInScope(scope: TurmaScope): SQL | undefined {
  if (scope === null) return undefined;
  // A record names a student by a valid UUID or not at all (refusedAttemptRecord); anything else names nobody, never an error.
  const named = (side: 'fromStudentId' | 'toStudentId') => {
    const text = sql`(${auditLog.details}->>${sql.raw(`'${side}'`)})`;
    return sql`(CASE WHEN ${text} ~* '^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$' THEN ${text}::uuid END)`;
  };
  return eitherStudentInScope(named('fromStudentId'), named('toStudentId'), scope);
}

/**
 * The staff's live feed: completed ledger rows and refused attempts from the audit log, newest first; a teacher's, the
 * lines that name a student of their turmas. A refused attempt that named no real operation type stays in the audit
 * log only: the feed shows operations.
 */
export async function liveOperations(db: Db, { limit, authorId }: LiveOperationsQuery, scope: TurmaScope = null): Promise<LiveOperation[]> {
  if (authorId !== undefined) await assertStaffMember(db, authorId);
  const byAuthor = authorId === undefined ? undefined : eq(ledgerEntries.actorAdminId, authorId);
  const refusedByAuthor = authorId === undefined ? undefined : and(eq(auditLog.actorKind, 'admin'), eq(auditLog.actorId, authorId));
  const [entries, refused] = await Promise.all([
    latestEntries(db, and(entryInScope(scope), byAuthor), limit),
    db
      .select()
      .from(auditLog)
      .where(and(isRefusal, refusalInScope(scope), refusedByAuthor))
      .orderBy(desc(auditLog.at))
      .limit(limit),
  ]);
  return [...entries.map(entryLine), ...(await refusedLines(db, refused))].sort(newestFirst).slice(0, limit);
}

/** A filter's author must be a member of the staff: an id the school does not have is refused, not matched to nothing. */
export async function assertStaffMember(db: Db, id: string): Promise<void> {
  const [found] = await db.select({ id: admins.id }).from(admins).where(eq(admins.id, id));
  if (!found) throw new AppError('author_not_found', { fields: { authorId: ERROR_MESSAGES.author_not_found } });
}

/** The members of the staff who wrote any operation, by name: the author filter's choices. */
export function operationAuthors(db: Db): Promise<OperationAuthor[]> {
  return db
    .select({ id: admins.id, name: admins.name })
    .from(admins)
    .where(
      exists(
        db
          .select({ one: sql`1` })
          .from(ledgerEntries)
          .where(eq(ledgerEntries.actorAdminId, admins.id)),
      ),
    )
    .orderBy(asc(nameOrderOf(admins.name)), asc(admins.id));
}

/** The live feed's lines some operations added (pushed to staff as they happen, decision 019), newest first. */
export async function liveOperationLines(
  db: Db,
  lines: { entryIds: string[]; batchIds: string[]; refusedIds: number[] },
): Promise<LiveOperation[]> {
  const byEntry = [
    ...(lines.entryIds.length ? [inArray(ledgerEntries.id, lines.entryIds)] : []),
    ...(lines.batchIds.length ? [inArray(ledgerEntries.batchId, lines.batchIds)] : []),
  ];
  const [entries, refused] = await Promise.all([
    byEntry.length ? latestEntries(db, or(...byEntry), MAX_PUSHED_OPERATIONS) : [],
    lines.refusedIds.length
      ? db
          .select()
          .from(auditLog)
          .where(and(isRefusal, inArray(auditLog.id, lines.refusedIds)))
      : [],
  ]);
  return [...entries.map(entryLine), ...(await refusedLines(db, refused))].sort(newestFirst);
}
