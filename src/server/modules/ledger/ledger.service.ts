import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { runPrepared, type Db, type PreparedStatement, type Tx } from '../../db/client.ts';
import { ledgerEntries, students } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { ERROR_MESSAGES, MESSAGES, type ErrorCode } from '../../../shared/errors.ts';
import {
  isCredit,
  type AdminOperationType,
  type BulkOperationResult,
  type Currency,
  type LedgerType,
  type OperationResult,
} from '../../../shared/ledger.ts';
import { formatAmount, formatEstelecas, formatNumber } from '../../../shared/format.ts';
import { recordableText } from '../../../shared/validation.ts';
import { idempotencyRecord, withIdempotency, type IdempotencyRecord, type Stored } from './idempotency.ts';
import { sqlState } from '../../db/sql-state.ts';

export type LedgerDeps = { db: Db; events: EventBus };
export type StudentActor = { id: string; name: string };
export type AdminActor = { id: string; name: string };

type LedgerRow = typeof ledgerEntries.$inferSelect;
type StudentRow = typeof students.$inferSelect;

/** Only for the demo seed, which writes history in the past through these same functions. */
export type Backdate = { at?: Date };

const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;

/**
 * Locks are taken in a fixed order, so deadlocks should not happen; should the
 * database still report one (or a serialization failure), the whole transaction
 * is retried here and the client never sees it.
 */
async function withRetry<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const state = sqlState(error);
      if (state === '23514') throw new AppError('insufficient_balance');
      if (!state || !RETRYABLE_SQLSTATES.has(state) || attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 10));
    }
  }
}

/** Locks the given current students in id order and returns them by id. */
async function lockStudents(tx: Tx, ids: string[]): Promise<Map<string, StudentRow>> {
  const rows = await tx
    .select()
    .from(students)
    .where(and(inArray(students.id, ids), isNull(students.deletedAt)))
    .orderBy(asc(students.id))
    .for('update');
  return new Map(rows.map((row) => [row.id, row]));
}

function balanceColumn(currency: Currency) {
  return currency === 'meritus' ? students.meritus : students.estelecas;
}

function entryView(row: LedgerRow): OperationResult['entry'] {
  return {
    id: row.id,
    currency: row.currency,
    type: row.type,
    amount: row.amount,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
  };
}

function balancesOf(row: Pick<StudentRow, 'meritus' | 'totalEarned' | 'estelecas'>): OperationResult['balances'] {
  return { meritus: row.meritus, totalEarned: row.totalEarned, estelecas: row.estelecas };
}

/**
 * Changes one student's balance by an administrator's operation, inside the caller's
 * transaction: lock, check, update, ledger row. Credits raise `totalEarned` for Méritus.
 */
export async function applyAdminOperation(
  tx: Tx,
  actor: AdminActor,
  studentId: string,
  currency: Currency,
  input: { type: AdminOperationType; amount: number; description: string },
  options: Backdate & { batchId?: string; locked?: StudentRow } = {},
): Promise<{ entry: LedgerRow; student: StudentRow }> {
  const student = options.locked ?? (await lockStudents(tx, [studentId])).get(studentId);
  if (!student) throw new AppError('student_not_found');
  const credit = isCredit(input.type);
  const balance = currency === 'meritus' ? student.meritus : student.estelecas;
  if (!credit && balance < input.amount) {
    throw new AppError(currency === 'meritus' ? 'remove_exceeds_balance' : 'remove_exceeds_estelecas', {
      details: { student: student.name },
    });
  }
  const delta = credit ? input.amount : -input.amount;
  const column = balanceColumn(currency);
  const [updated] = await tx
    .update(students)
    .set({
      [currency === 'meritus' ? 'meritus' : 'estelecas']: sql`${column} + ${delta}`,
      ...(credit && currency === 'meritus' ? { totalEarned: sql`${students.totalEarned} + ${input.amount}` } : {}),
      updatedAt: new Date(),
    })
    .where(eq(students.id, student.id))
    .returning();
  const [entry] = await tx
    .insert(ledgerEntries)
    .values({
      currency,
      type: input.type,
      amount: input.amount,
      description: input.description,
      fromStudentId: credit ? null : student.id,
      toStudentId: credit ? student.id : null,
      actorKind: 'admin',
      actorAdminId: actor.id,
      actorName: actor.name,
      batchId: options.batchId ?? null,
      ...(options.at ? { createdAt: options.at } : {}),
    })
    .returning();
  return { entry: entry!, student: updated! };
}

export type RefusedAttempt = {
  actor: { kind: 'student' | 'admin'; id: string; name: string };
  currency: Currency;
  type: LedgerType;
  amount: unknown;
  description?: string | undefined;
  fromStudentId?: string | null | undefined;
  toStudentId?: string | null | undefined;
  code: ErrorCode;
  ip?: string | undefined;
};

/** The audit record of a refused attempt, all but its code and reason. */
function refusalAudit(attempt: Omit<RefusedAttempt, 'code'>) {
  return {
    actor: { kind: attempt.actor.kind, id: attempt.actor.id, label: attempt.actor.name },
    action: 'ledger.refused',
    ip: attempt.ip,
    details: {
      currency: attempt.currency,
      type: attempt.type,
      amount: typeof attempt.amount === 'number' && Number.isSafeInteger(attempt.amount) ? attempt.amount : null,
      rawAmount: attempt.amount === undefined ? null : recordableText(String(attempt.amount), 40),
      description: attempt.description === undefined ? null : recordableText(attempt.description, 200),
      fromStudentId: attempt.fromStudentId ?? null,
      toStudentId: attempt.toStudentId ?? null,
    },
  } as const;
}

const refusalReason = (code: ErrorCode) => ({ code, reason: ERROR_MESSAGES[code] });

/**
 * A refused operation changes no balance and writes no ledger row, but the attempt
 * is kept in the audit log and shown as failed in the administrators' live feed.
 */
export async function recordRefusedAttempt(deps: LedgerDeps, attempt: RefusedAttempt): Promise<void> {
  const audit = refusalAudit(attempt);
  await recordAudit(deps.db, { ...audit, details: { ...audit.details, ...refusalReason(attempt.code) } });
  deps.events.publishAfterCommit({ type: 'ledger', studentIds: [], status: 'failed' });
}

/** A refusal whose audit record the database already wrote, in the same round trip as the attempt. */
class RecordedRefusal extends AppError {}

/** What the database's ledger_transfer() (migration 0002) answers. */
type TransferAnswer =
  | { outcome: 'completed' | 'replayed'; status: number; body: OperationResult }
  | { outcome: 'refused'; reason: 'sender_missing' | 'recipient_missing' | 'insufficient' }
  | { outcome: 'conflict' };

const TRANSFER_REFUSALS = {
  meritus: { sender_missing: 'unauthenticated', recipient_missing: 'student_not_found', insufficient: 'insufficient_balance' },
  estelecas: { sender_missing: 'unauthenticated', recipient_missing: 'student_not_found', insufficient: 'estelecas_invalid_amount' },
} as const satisfies Record<Currency, Record<Extract<TransferAnswer, { outcome: 'refused' }>['reason'], ErrorCode>>;

/**
 * A text whose names only the database knows (they are read under the transfer's lock),
 * as a format() template: rendered with markers, which become %1$s and %2$s.
 */
function formatTemplate(render: (first: string, second: string) => string): string {
  return render('\uE000', '\uE001').replaceAll('%', '%%').replaceAll('\uE000', '%1$s').replaceAll('\uE001', '%2$s');
}

const DESCRIPTION_TEMPLATES: Record<Currency, string> = {
  meritus: formatTemplate((sender, recipient) => MESSAGES.defaultTransferDescription(sender, recipient)),
  estelecas: formatTemplate((_sender, recipient) => MESSAGES.defaultEstelecasTransferDescription(recipient)),
};

/** What ledger_transfer() writes to the audit log should it refuse: the record, and each refusal's code and reason. */
function refusalRecord(attempt: Omit<RefusedAttempt, 'code'>, currency: Currency) {
  const audit = refusalAudit(attempt);
  const codes = TRANSFER_REFUSALS[currency];
  return {
    actorKind: audit.actor.kind,
    actorId: audit.actor.id,
    actorLabel: audit.actor.label,
    action: audit.action,
    ip: audit.ip ?? null,
    details: audit.details,
    outcomes: {
      sender_missing: refusalReason(codes.sender_missing),
      recipient_missing: refusalReason(codes.recipient_missing),
      insufficient: refusalReason(codes.insufficient),
    },
  };
}

const LEDGER_TRANSFER: PreparedStatement = {
  name: 'ledger_transfer',
  text: `SELECT ledger_transfer($1::text, $2::uuid, $3::uuid, $4::integer, $5::text, $6::text, $7::text,
    $8::text, $9::text, $10::text, $11::integer, $12::timestamptz, $13::jsonb) AS answer`,
};

/**
 * Moves points between two students in one round trip: ledger_transfer() takes the
 * Idempotency-Key, locks both students in id order, checks the balance under the lock,
 * moves both balances, writes the ledger row and stores the response, or refuses and
 * writes nothing. The texts are rendered here and passed in as templates.
 */
async function transfer(
  db: Db,
  sender: StudentActor,
  currency: Currency,
  input: { recipientId: string; amount: number; description?: string | undefined },
  options: Backdate & { idempotency?: IdempotencyRecord | undefined; refusal?: Omit<RefusedAttempt, 'code'> } = {},
): Promise<Stored<OperationResult>> {
  if (input.recipientId === sender.id) throw new AppError('self_transfer');
  const announce = currency === 'meritus' ? MESSAGES.meritusTransferred : MESSAGES.estelecasTransferred;
  const key = options.idempotency;
  const values = [
    currency,
    sender.id,
    input.recipientId,
    input.amount,
    input.description ?? null,
    DESCRIPTION_TEMPLATES[currency],
    formatTemplate((recipient) => announce(input.amount, recipient)),
    key?.actorKey ?? null,
    key?.key ?? null,
    key?.requestHash ?? null,
    201,
    options.at?.toISOString() ?? null,
    options.refusal ? refusalRecord(options.refusal, currency) : null,
  ];
  let rows: { answer: TransferAnswer }[];
  try {
    rows = await runPrepared(db, LEDGER_TRANSFER, values);
  } catch (error) {
    // The same key, sent at the same moment, was stored first: this attempt rolled back
    // whole, and asking again replays that first response.
    if (!key || sqlState(error) !== '23505') throw error;
    rows = await runPrepared(db, LEDGER_TRANSFER, values);
  }
  const answer = rows[0]!.answer;
  switch (answer.outcome) {
    case 'completed':
    case 'replayed':
      return { status: answer.status, body: answer.body, replayed: answer.outcome === 'replayed' };
    case 'refused':
      throw new (options.refusal ? RecordedRefusal : AppError)(TRANSFER_REFUSALS[currency][answer.reason]);
    case 'conflict':
      throw new AppError('idempotency_conflict');
  }
}

/** Runs a write; on an expected refusal, records the attempt before passing the error on. */
async function refusable<T>(deps: LedgerDeps, attempt: Omit<RefusedAttempt, 'code'>, run: () => Promise<T>): Promise<T> {
  try {
    return await withRetry(run);
  } catch (error) {
    if (error instanceof RecordedRefusal) {
      deps.events.publishAfterCommit({ type: 'ledger', studentIds: [], status: 'failed' });
    } else if (error instanceof AppError && error.status < 500 && !error.code.startsWith('idempotency')) {
      await recordRefusedAttempt(deps, { ...attempt, code: error.code });
    }
    throw error;
  }
}

export type WriteContext = { idempotencyKey?: string | undefined; ip?: string | undefined };

export async function studentTransfer(
  deps: LedgerDeps,
  sender: StudentActor,
  currency: Currency,
  input: { recipientId: string; amount: number; description?: string | undefined },
  context: WriteContext = {},
): Promise<Stored<OperationResult>> {
  const attempt: Omit<RefusedAttempt, 'code'> = {
    actor: { kind: 'student', ...sender },
    currency,
    type: 'transfer',
    amount: input.amount,
    description: input.description,
    fromStudentId: sender.id,
    toStudentId: input.recipientId,
    ip: context.ip,
  };
  return refusable(deps, attempt, async () => {
    const idempotency = idempotencyRecord({
      actorKey: `student:${sender.id}`,
      key: context.idempotencyKey,
      request: { op: 'transfer', currency, ...input },
    });
    const stored = await transfer(deps.db, sender, currency, input, { idempotency, refusal: attempt });
    if (!stored.replayed) {
      deps.events.publishAfterCommit({ type: 'ledger', studentIds: [sender.id, input.recipientId], status: 'completed' });
    }
    return stored;
  });
}

function adminSuccessMessage(currency: Currency, type: AdminOperationType, amount: number, name: string): string {
  const credit = isCredit(type);
  if (currency === 'meritus') return `${formatNumber(amount)} M$ ${credit ? 'adicionados a' : 'removidos de'} ${name}`;
  const one = amount === 1;
  const verb = credit ? (one ? 'adicionada a' : 'adicionadas a') : one ? 'removida de' : 'removidas de';
  return `${formatEstelecas(amount)} ${verb} ${name}`;
}

export async function adminOperation(
  deps: LedgerDeps,
  admin: AdminActor,
  studentId: string,
  currency: Currency,
  input: { type: AdminOperationType; amount: number; description: string },
  context: WriteContext = {},
): Promise<Stored<OperationResult>> {
  const credit = isCredit(input.type);
  return refusable(
    deps,
    {
      actor: { kind: 'admin', ...admin },
      currency,
      type: input.type,
      amount: input.amount,
      description: input.description,
      fromStudentId: credit ? null : studentId,
      toStudentId: credit ? studentId : null,
      ip: context.ip,
    },
    () =>
      withIdempotency(
        deps.db,
        { actorKey: `admin:${admin.id}`, key: context.idempotencyKey, request: { op: 'admin', studentId, currency, ...input } },
        201,
        async (tx) => {
          const { entry, student } = await applyAdminOperation(tx, admin, studentId, currency, input);
          await recordAudit(tx, {
            actor: { kind: 'admin', id: admin.id, label: admin.name },
            action: `ledger.${input.type}`,
            ip: context.ip,
            details: { currency, studentId, amount: input.amount, entryId: entry.id },
          });
          return {
            entry: entryView(entry),
            message: adminSuccessMessage(currency, input.type, entry.amount, student.name),
            balances: balancesOf(student),
          };
        },
      ).then((stored) => {
        if (!stored.replayed) deps.events.publishAfterCommit({ type: 'ledger', studentIds: [studentId], status: 'completed' });
        return stored;
      }),
  );
}

/**
 * One operation for many students (a whole turma): every leg or none. The first
 * leg that cannot be applied (a removal beyond a balance, a removed student) aborts all.
 */
export async function bulkAdminOperation(
  deps: LedgerDeps,
  admin: AdminActor,
  input: { currency: Currency; studentIds: string[]; type: AdminOperationType; amount: number; description: string },
  context: WriteContext = {},
): Promise<Stored<BulkOperationResult>> {
  const studentIds = [...new Set(input.studentIds)];
  return refusable(
    deps,
    {
      actor: { kind: 'admin', ...admin },
      currency: input.currency,
      type: input.type,
      amount: input.amount,
      description: input.description,
      ip: context.ip,
    },
    () =>
      withIdempotency(
        deps.db,
        { actorKey: `admin:${admin.id}`, key: context.idempotencyKey, request: { op: 'bulk', ...input, studentIds } },
        201,
        async (tx) => {
          const locked = await lockStudents(tx, studentIds);
          if (locked.size !== studentIds.length) throw new AppError('student_not_found');
          const batchId = crypto.randomUUID();
          for (const id of studentIds) {
            await applyAdminOperation(tx, admin, id, input.currency, input, { batchId, locked: locked.get(id)! });
          }
          await recordAudit(tx, {
            actor: { kind: 'admin', id: admin.id, label: admin.name },
            action: `ledger.bulk.${input.type}`,
            ip: context.ip,
            details: { currency: input.currency, amount: input.amount, count: studentIds.length, batchId },
          });
          // M$ (Méritus) is masculine, Esteleca feminine: "concedidos" / "concedida(s)".
          const ending = input.currency === 'meritus' ? 'os' : input.amount === 1 ? 'a' : 'as';
          const verb = isCredit(input.type) ? `concedid${ending} a` : `descontad${ending} de`;
          return {
            count: studentIds.length,
            batchId,
            message: `${formatAmount(input.currency, input.amount)} ${verb} ${studentIds.length} ${studentIds.length === 1 ? 'estudante' : 'estudantes'}`,
          };
        },
      ).then((stored) => {
        if (!stored.replayed) deps.events.publishAfterCommit({ type: 'ledger', studentIds, status: 'completed' });
        return stored;
      }),
  );
}

/** For the demo seed: the same rules, in the past, without idempotency or events. */
export const seedWriters = {
  async admin(db: Db, admin: AdminActor, studentId: string, currency: Currency, input: Parameters<typeof applyAdminOperation>[4], at: Date) {
    return db.transaction((tx) => applyAdminOperation(tx, admin, studentId, currency, input, { at }));
  },
  async transfer(db: Db, sender: StudentActor, currency: Currency, input: { recipientId: string; amount: number; description?: string }, at: Date) {
    return transfer(db, sender, currency, input, { at });
  },
};
