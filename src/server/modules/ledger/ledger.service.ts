import { z } from 'zod';
import { sql } from 'drizzle-orm';
import { runPrepared, rowsOf, type Db, type DbOrTx, type PreparedStatement, type Tx } from '../../db/client.ts';
import { AppError } from '../../app-error.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { AdminActor, StudentActor } from '../auth/actor.ts';
import { amountTooLargeMessage, dailyCapMessage, ERROR_MESSAGES, MESSAGES, tooSoonMessage, type ErrorCode } from '../../../shared/errors.ts';
import { adminOperationInputs, bulkOperationInput, estelecasTransferInput, meritusTransferInput, type BulkOperationResult, type OperationResult } from '../../../shared/ledger.ts';
import { ADMIN_OPERATION_TYPES, type AdminOperationType, type Currency, isCredit } from '../../../shared/ledger-types.ts';
import { formatAmount, plural } from '../../../shared/format.ts';
import { issueCode, issueFields, recordableText, rowId, sentText } from '../../../shared/validation.ts';
import { idempotencyRecord, type IdempotencyRecord, type IdempotencyScope, type Stored } from './idempotency.ts';
import { refusedAttempt, type RefusedAttemptRecord } from './refused-attempts.ts';
import { bulkOperationAnswer, operationAnswer, type LedgerAnswer, type Refusal } from './ledger-answer.ts';
import { sqlState } from '../../db/sql-state.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import { DEFAULT_RULES, type SchoolRules } from '../../../shared/settings.ts';
import { DEFAULT_TIME_ZONE, startOfDayIn } from '../../../shared/format.ts';

/**
 * The ledger's writes (decision 007): every operation is validated here with the shared
 * schema the forms use, then runs in one of ledger.sql's functions, which lock, check,
 * move the balances, write the rows and keep the Idempotency-Key in one round trip.
 */
export type LedgerDeps = {
  db: Db;
  events: EventBus;
  /** The school's rules (maximum per operation, transfer guardrails); without it, as in direct calls from tests, the defaults apply. */
  settings?: SettingsStore;
};

/** What a write knows besides its body. `at` backdates it: only the demo history does that. */
export type WriteContext = { idempotencyKey?: unknown; ip?: string | undefined; at?: Date | undefined };

const LEDGER_TRANSFER: PreparedStatement = { name: 'ledger_transfer', text: 'SELECT ledger_transfer($1::jsonb) AS answer' };
const LEDGER_ADMIN_OPERATION: PreparedStatement = {
  name: 'ledger_admin_operation',
  text: 'SELECT ledger_admin_operation($1::jsonb) AS answer',
};

const REFUSAL_CODES: Record<'transfer' | 'admin', Record<Currency, Partial<Record<Refusal, ErrorCode>>>> = {
  transfer: {
    meritus: {
      sender_missing: 'unauthenticated',
      recipient_missing: 'student_not_found',
      insufficient: 'insufficient_balance',
      daily_cap: 'transfer_daily_cap',
      too_soon: 'transfer_too_soon',
    },
    estelecas: { sender_missing: 'unauthenticated', recipient_missing: 'student_not_found', insufficient: 'estelecas_invalid_amount', too_soon: 'transfer_too_soon' },
  },
  admin: {
    meritus: { student_missing: 'student_not_found', insufficient: 'remove_exceeds_balance' },
    estelecas: { student_missing: 'student_not_found', insufficient: 'remove_exceeds_estelecas' },
  },
};

/** Only the balance constraints mean the money was not there; any other violation is a defect, not the user's. */
const BALANCE_CONSTRAINTS = new Set(['students_meritus_nonnegative', 'students_estelecas_nonnegative', 'students_total_earned_nonnegative']);
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;

/**
 * Calls one of ledger.sql's functions: alone as a named prepared statement, or inside the
 * caller's transaction. A deadlock or serialization failure is retried; a concurrent
 * repeat of an Idempotency-Key fails on the key's primary key, rolled back whole, and
 * asking again replays the first response.
 */
async function callLedger<A>(
  db: DbOrTx,
  statement: PreparedStatement,
  answer: z.ZodType<A>,
  payload: { idempotency: IdempotencyRecord | null } & Record<string, unknown>,
  inTransaction: boolean,
): Promise<A> {
  const json = JSON.stringify(payload);
  const once = async () => {
    const rows = inTransaction
      ? rowsOf<{ answer: unknown }>(await db.execute(sql`SELECT ${sql.raw(statement.name)}(${json}::jsonb) AS answer`))
      : await runPrepared<{ answer: unknown }>(db as Db, statement, [json]);
    return answer.parse(rows[0]!.answer);
  };
  for (let attempt = 1; ; attempt++) {
    try {
      return await once();
    } catch (error) {
      const state = sqlState(error);
      if (state === '23514' && BALANCE_CONSTRAINTS.has((error as { constraint?: string }).constraint ?? '')) {
        throw new AppError('insufficient_balance');
      }
      const retryable = !inTransaction && (RETRYABLE_SQLSTATES.has(state ?? '') || (state === '23505' && payload.idempotency !== null));
      if (!retryable || attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 10));
    }
  }
}

/**
 * A text whose names only the database knows (it reads them under the lock), as a
 * format() template: rendered with markers, which become %1$s and %2$s.
 */
function formatTemplate(render: (first: string, second: string) => string): string {
  return render('\uE000', '\uE001').replaceAll('%', '%%').replaceAll('\uE000', '%1$s').replaceAll('\uE001', '%2$s');
}

const TRANSFER_DESCRIPTIONS: Record<Currency, string> = {
  meritus: formatTemplate((sender, recipient) => MESSAGES.defaultTransferDescription(sender, recipient)),
  estelecas: formatTemplate((_sender, recipient) => MESSAGES.defaultEstelecasTransferDescription(recipient)),
};

function adminSuccessMessage(currency: Currency, type: AdminOperationType, amount: number, name: string): string {
  // Méritus (M$) agree in the masculine, Estelecas in the feminine: "1 M$ adicionado a", "3 Estelecas removidas de".
  const [added, removed] = currency === 'meritus' ? ['adicionado', 'removido'] : ['adicionada', 'removida'];
  const verb = isCredit(type) ? `${plural(amount, added, `${added}s`)} a` : `${plural(amount, removed, `${removed}s`)} de`;
  return `${formatAmount(currency, amount)} ${verb} ${name}`;
}

function bulkSuccessMessage(currency: Currency, type: AdminOperationType, amount: number, count: number): string {
  // M$ (Méritus) is masculine, Esteleca feminine: "concedidos" / "concedida(s)".
  const ending = currency === 'meritus' ? 'os' : amount === 1 ? 'a' : 'as';
  const verb = isCredit(type) ? `concedid${ending} a` : `descontad${ending} de`;
  return `${formatAmount(currency, amount)} ${verb} ${count} ${count === 1 ? 'estudante' : 'estudantes'}`;
}

/** Whatever a refused request said, as far as it can be kept in its record. */
type LooseInput = { amount?: unknown; description?: unknown; recipientId?: unknown; type?: unknown; id?: unknown };

function loose(input: unknown): LooseInput {
  return typeof input === 'object' && input !== null ? (input as LooseInput) : {};
}

/** Built once: building a zod schema costs more than the rest of the record (two per request). */
const uuid = z.uuid();
const uuidOrNull = (value: unknown) => uuid.safeParse(value).data ?? null;

/** The record of a refused attempt, all but its code and reason, from what the request said. */
function attemptRecord(
  actor: StudentActor | AdminActor,
  currency: Currency,
  input: LooseInput,
  parties: { type: RefusedAttemptRecord['type']; fromStudentId: unknown; toStudentId: unknown },
  ip: string | undefined,
) {
  const amount = input.amount;
  return {
    actorKind: actor.role,
    actorId: actor.id,
    actorLabel: actor.name,
    ip: ip ?? null,
    details: {
      currency,
      type: parties.type,
      amount: typeof amount === 'number' && Number.isSafeInteger(amount) ? amount : null,
      rawAmount: amount === undefined ? null : recordableText(sentText(amount), 40),
      description: typeof input.description === 'string' ? recordableText(input.description, 200) : null,
      fromStudentId: uuidOrNull(parties.fromStudentId),
      toStudentId: uuidOrNull(parties.toStudentId),
    },
  };
}
type AttemptRecord = ReturnType<typeof attemptRecord>;

/** Writes the audit record of an attempt refused before reaching the database, and tells the live feed. */
async function recordRefusal(deps: LedgerDeps, attempt: AttemptRecord, code: ErrorCode, reason?: string): Promise<void> {
  await recordAudit(deps.db, {
    actor: { kind: attempt.actorKind, id: attempt.actorId, label: attempt.actorLabel },
    action: 'ledger.refused',
    ip: attempt.ip ?? undefined,
    details: refusedAttempt(attempt.details, code, reason),
  });
  deps.events.publishAfterCommit({ type: 'ledger', studentUuids: [], status: 'failed' });
}

/** The request's Idempotency-Key record, or a malformed key's refusal recorded and thrown. */
async function keyOf(deps: LedgerDeps, attempt: AttemptRecord, scope: IdempotencyScope): Promise<IdempotencyRecord | undefined> {
  try {
    return idempotencyRecord(scope);
  } catch (error) {
    if (error instanceof AppError) await recordRefusal(deps, attempt, error.code);
    throw error;
  }
}

async function rulesOf(deps: LedgerDeps): Promise<SchoolRules> {
  return (await settingsOf(deps)).rules;
}

async function settingsOf(deps: LedgerDeps): Promise<{ rules: SchoolRules; timeZone: string }> {
  if (!deps.settings) return { rules: DEFAULT_RULES, timeZone: DEFAULT_TIME_ZONE };
  const { rules, school } = await deps.settings.get();
  return { rules, timeZone: school.timeZone };
}

/**
 * The input as the shared schema reads it and within the school's maximum per operation (the
 * schema's bound is the highest a school may set), or a refusal recorded and thrown with each
 * field's message.
 */
async function validated<S extends z.ZodType<{ amount: number }>>(
  deps: LedgerDeps,
  schema: S,
  input: unknown,
  attempt: AttemptRecord,
  rules: SchoolRules,
): Promise<z.output<S>> {
  const parsed = schema.safeParse(input);
  const overMax = parsed.success && parsed.data.amount > rules.maxOperationAmount;
  if (parsed.success && !overMax) return parsed.data;
  const issues = parsed.success ? [{ path: ['amount'], message: 'amount_too_large' }] : parsed.error.issues;
  const code = issueCode(issues[0]!);
  const message = code === 'amount_too_large' ? amountTooLargeMessage(rules.maxOperationAmount) : undefined;
  await recordRefusal(deps, attempt, code, message);
  const fields = issueFields(issues);
  if (message && fields.amount === ERROR_MESSAGES.amount_too_large) fields.amount = message;
  throw new AppError(code, { status: 400, fields, ...(message ? { message } : {}) });
}

/**
 * Turns the database's answer into the stored response, or records and throws the refusal it
 * found. History written in the past (the demo school) records no refusal: nobody tried it.
 */
async function settle<T>(
  deps: LedgerDeps,
  answer: LedgerAnswer<T>,
  refused: { attempt: AttemptRecord; codes: Partial<Record<Refusal, ErrorCode>>; context: WriteContext },
  studentUuids: string[],
  rules: SchoolRules = DEFAULT_RULES,
): Promise<Stored<T>> {
  switch (answer.outcome) {
    case 'completed':
      deps.events.publishAfterCommit({ type: 'ledger', studentUuids, status: 'completed' });
      return { status: answer.status, body: answer.body, replayed: false };
    case 'replayed':
      return { status: answer.status, body: answer.body, replayed: true };
    case 'refused': {
      const { error, reason } = refusalError(answer, refused.codes[answer.reason] ?? 'internal', rules);
      if (!refused.context.at) await recordRefusal(deps, refused.attempt, error.code, reason);
      throw error;
    }
    case 'conflict':
      throw new AppError('idempotency_conflict');
  }
}

/** The error a refusal found by the database is answered with, and the reason its record keeps (without the particulars of the moment). */
function refusalError(
  answer: Extract<LedgerAnswer<unknown>, { outcome: 'refused' }>,
  code: ErrorCode,
  rules: SchoolRules,
): { error: AppError; reason?: string } {
  if (answer.reason === 'daily_cap' && rules.transferDailyCap !== null) {
    return {
      error: new AppError(code, { message: dailyCapMessage(rules.transferDailyCap, answer.details?.remaining), details: { remaining: answer.details?.remaining ?? 0 } }),
      reason: dailyCapMessage(rules.transferDailyCap),
    };
  }
  if (answer.reason === 'too_soon' && rules.transferMinIntervalSeconds !== null) {
    const waitSeconds = Math.max(1, answer.details?.waitSeconds ?? rules.transferMinIntervalSeconds);
    const message = tooSoonMessage(rules.transferMinIntervalSeconds);
    return { error: new AppError(code, { status: 429, message, retryAfterSeconds: waitSeconds, details: { waitSeconds } }), reason: message };
  }
  return { error: new AppError(code, answer.details?.short ? { details: { short: answer.details.short } } : {}) };
}

const TRANSFER_SCHEMAS = { meritus: meritusTransferInput, estelecas: estelecasTransferInput } as const;

/** A student moves points to another student. */
export async function studentTransfer(
  deps: LedgerDeps,
  sender: StudentActor,
  currency: Currency,
  input: unknown,
  context: WriteContext = {},
): Promise<Stored<OperationResult>> {
  const said = loose(input);
  const attempt = attemptRecord(sender, currency, said, { type: 'transfer', fromStudentId: sender.id, toStudentId: said.recipientId }, context.ip);
  const { rules, timeZone } = await settingsOf(deps);
  const transfer = await validated(deps, TRANSFER_SCHEMAS[currency], input, attempt, rules);
  if (transfer.recipientId === sender.id) {
    await recordRefusal(deps, attempt, 'self_transfer');
    throw new AppError('self_transfer');
  }
  const idempotency = await keyOf(deps, attempt, { actorKey: `student:${sender.id}`, key: context.idempotencyKey, request: { op: 'transfer', currency, ...transfer } });
  const announce = currency === 'meritus' ? MESSAGES.meritusTransferred : MESSAGES.estelecasTransferred;
  const codes = REFUSAL_CODES.transfer[currency];
  // The guardrails on students' transfers; history written in the past (the demo school) is not held to them.
  const dailyCap = currency === 'meritus' && !context.at ? rules.transferDailyCap : null;
  const minIntervalSeconds = context.at ? null : rules.transferMinIntervalSeconds;
  const guard =
    dailyCap === null && minIntervalSeconds === null
      ? null
      : { dailyCap, dayStart: startOfDayIn(timeZone, new Date()).toISOString(), minIntervalSeconds };
  const answer = await callLedger(
    deps.db,
    LEDGER_TRANSFER,
    operationAnswer,
    {
      currency,
      senderId: sender.id,
      recipientId: transfer.recipientId,
      amount: transfer.amount,
      description: ('description' in transfer ? transfer.description : undefined) ?? null,
      descriptionTemplate: TRANSFER_DESCRIPTIONS[currency],
      messageTemplate: formatTemplate((recipient) => announce(transfer.amount, recipient)),
      idempotency: idempotency ?? null,
      status: 201,
      createdAt: context.at?.toISOString() ?? null,
      guard,
    },
    false,
  );
  return settle(deps, answer, { attempt, codes, context }, [sender.id, transfer.recipientId], rules);
}

const targetId = rowId({ error: 'student_not_found' });
const ADMIN_TARGET_INPUTS = {
  meritus: adminOperationInputs.meritus.extend({ id: targetId }),
  estelecas: adminOperationInputs.estelecas.extend({ id: targetId }),
} as const;

/** Whether a request named a real operation type: an unknown one is refused and kept without a type, never as an award. */
function typeOf(input: LooseInput): AdminOperationType | null {
  return z.enum(ADMIN_OPERATION_TYPES).safeParse(input.type).data ?? null;
}

function adminAttempt(admin: AdminActor, currency: Currency, said: LooseInput, target: unknown, ip: string | undefined) {
  const type = typeOf(said);
  const credit = type !== null && isCredit(type);
  return attemptRecord(admin, currency, said, { type, fromStudentId: credit ? null : target, toStudentId: credit ? target : null }, ip);
}

/** The database payload of an administrator's operation; the audit action names it. */
function adminPayload(
  admin: AdminActor,
  currency: Currency,
  operation: { type: AdminOperationType; amount: number; description: string },
  studentUuids: string[],
  extra: { bulk: boolean; messageTemplate: string; audit: object; idempotency?: IdempotencyRecord | undefined; at?: Date | undefined },
) {
  return {
    currency,
    type: operation.type,
    amount: operation.amount,
    description: operation.description,
    studentUuids,
    adminId: admin.id,
    adminName: admin.name,
    bulk: extra.bulk,
    messageTemplate: extra.messageTemplate,
    audit: extra.audit,
    idempotency: extra.idempotency ?? null,
    status: 201,
    createdAt: extra.at?.toISOString() ?? null,
  };
}

/** An administrator awards or deducts points for one student. `input` carries the student's row id as `id`. */
export async function adminOperation(
  deps: LedgerDeps,
  admin: AdminActor,
  currency: Currency,
  input: unknown,
  context: WriteContext = {},
): Promise<Stored<OperationResult>> {
  const said = loose(input);
  const attempt = adminAttempt(admin, currency, said, said.id, context.ip);
  const operation = await validated(deps, ADMIN_TARGET_INPUTS[currency], input, attempt, await rulesOf(deps));
  const { id, ...request } = operation;
  const codes = REFUSAL_CODES.admin[currency];
  const payload = adminPayload(admin, currency, request, [id], {
    bulk: false,
    messageTemplate: formatTemplate((name) => adminSuccessMessage(currency, request.type, request.amount, name)),
    audit: { action: `ledger.${request.type}`, ip: context.ip ?? null, details: { currency, studentUuid: id, amount: request.amount } },
    idempotency: await keyOf(deps, attempt, { actorKey: `admin:${admin.id}`, key: context.idempotencyKey, request: { op: 'admin', studentUuid: id, currency, ...request } }),
    at: context.at,
  });
  return settle(deps, await callLedger(deps.db, LEDGER_ADMIN_OPERATION, operationAnswer, payload, false), { attempt, codes, context }, [id]);
}

/**
 * One operation for many students (a whole turma): every leg or none. A deduction beyond
 * any balance is refused whole, naming every student who is short.
 */
export async function bulkAdminOperation(
  deps: LedgerDeps,
  admin: AdminActor,
  input: unknown,
  context: WriteContext = {},
): Promise<Stored<BulkOperationResult>> {
  const said = loose(input) as LooseInput & { currency?: unknown };
  const currency = z.enum(['meritus', 'estelecas']).safeParse(said.currency).data ?? 'meritus';
  const attempt = adminAttempt(admin, currency, said, null, context.ip);
  const operation = await validated(deps, bulkOperationInput, input, attempt, await rulesOf(deps));
  const studentUuids = [...new Set(operation.studentUuids)];
  const request = { type: operation.type, amount: operation.amount, description: operation.description };
  const codes = REFUSAL_CODES.admin[operation.currency];
  const payload = adminPayload(admin, operation.currency, request, studentUuids, {
    bulk: true,
    messageTemplate: bulkSuccessMessage(operation.currency, request.type, request.amount, studentUuids.length),
    audit: {
      action: `ledger.bulk.${request.type}`,
      ip: context.ip ?? null,
      details: { currency: operation.currency, amount: request.amount, count: studentUuids.length },
    },
    idempotency: await keyOf(deps, attempt, { actorKey: `admin:${admin.id}`, key: context.idempotencyKey, request: { op: 'bulk', ...operation, studentUuids } }),
    at: context.at,
  });
  return settle(deps, await callLedger(deps.db, LEDGER_ADMIN_OPERATION, bulkOperationAnswer, payload, false), { attempt, codes, context }, studentUuids);
}

/**
 * A new student's initial balance, inside the transaction that creates them: the same
 * function as every award, so the ledger row and the balance come together.
 */
export async function creditInitialBalance(
  tx: Tx,
  admin: AdminActor,
  studentUuid: string,
  amount: number,
  description: string,
  ip: string | undefined,
): Promise<OperationResult> {
  const request = { type: 'admin_add' as const, amount, description };
  const payload = adminPayload(admin, 'meritus', request, [studentUuid], {
    bulk: false,
    messageTemplate: formatTemplate((name) => adminSuccessMessage('meritus', 'admin_add', amount, name)),
    audit: { action: 'ledger.admin_add', ip: ip ?? null, details: { currency: 'meritus', studentUuid, amount } },
  });
  const answer = await callLedger(tx, LEDGER_ADMIN_OPERATION, operationAnswer, payload, true);
  if (answer.outcome !== 'completed') throw new AppError('student_not_found');
  return answer.body;
}
