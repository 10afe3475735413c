import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../app-error.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { AdminActor, StudentActor } from '../auth/actor.ts';
import { amountTooLargeMessage, ERROR_MESSAGES, type ErrorCode } from '../../../shared/errors.ts';
import { ADMIN_OPERATION_TYPES, type AdminOperationType, type Currency, isCredit } from '../../../shared/ledger-types.ts';
import type { SchoolRules } from '../../../shared/settings.ts';
import { issueCode, issueFields, recordableText, sentText } from '../../../shared/validation.ts';
import { idempotencyRecord, type IdempotencyRecord, type IdempotencyScope } from './idempotency.ts';
import { refusedAttempt, type RefusedAttemptRecord } from './refused-attempts.ts';

/**
 * A ledger request as an attempt (decision 007): what it said, kept as far as it can be, so a
 * refusal is recorded in the audit log and told to the live feed, whether the service refused it
 * (invalid input, a malformed key) or ledger.sql did under its locks.
 */

/** What recording a refusal needs. */
export type AttemptDeps = { db: Db; events: EventBus };

/** Whatever a refused request said, as far as it can be kept in its record. */
export type LooseInput = { amount?: unknown; description?: unknown; recipientId?: unknown; type?: unknown; id?: unknown };

export function loose(input: unknown): LooseInput {
  return typeof input === 'object' && input !== null ? (input as LooseInput) : {};
}

/** Built once: building a zod schema costs more than the rest of the record (two per request). */
const uuid = z.uuid();
const uuidOrNull = (value: unknown) => uuid.safeParse(value).data ?? null;

/** The record of a refused attempt, all but its code and reason, from what the request said. */
export function attemptRecord(
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
export type AttemptRecord = ReturnType<typeof attemptRecord>;

/** Whether a request named a real operation type: an unknown one is refused and kept without a type, never as an award. */
function typeOf(input: LooseInput): AdminOperationType | null {
  return z.enum(ADMIN_OPERATION_TYPES).safeParse(input.type).data ?? null;
}

/** An administrator's attempt on `target` (null for many students): its party is the recipient of an award, the sender of a deduction. */
export function adminAttempt(admin: AdminActor, currency: Currency, said: LooseInput, target: unknown, ip: string | undefined) {
  const type = typeOf(said);
  const credit = type !== null && isCredit(type);
  return attemptRecord(admin, currency, said, { type, fromStudentId: credit ? null : target, toStudentId: credit ? target : null }, ip);
}

/** Writes the audit record of a refused attempt, and tells the live feed. */
export async function recordRefusal(deps: AttemptDeps, attempt: AttemptRecord, code: ErrorCode, reason?: string): Promise<void> {
  const auditId = await recordAudit(deps.db, {
    actor: { kind: attempt.actorKind, id: attempt.actorId, label: attempt.actorLabel },
    action: 'ledger.refused',
    ip: attempt.ip ?? undefined,
    details: refusedAttempt(attempt.details, code, reason),
  });
  deps.events.publishAfterCommit({
    type: 'ledger',
    studentUuids: [],
    status: 'failed',
    lines: { entryIds: [], batchIds: [], refusedIds: [auditId] },
  });
}

/** The request's Idempotency-Key record, or a malformed key's refusal recorded and thrown. */
export async function keyOf(deps: AttemptDeps, attempt: AttemptRecord, scope: IdempotencyScope): Promise<IdempotencyRecord | undefined> {
  try {
    return idempotencyRecord(scope);
  } catch (error) {
    if (error instanceof AppError) await recordRefusal(deps, attempt, error.code);
    throw error;
  }
}

/**
 * The input as the shared schema reads it and within the school's maximum per operation (the
 * schema's bound is the highest a school may set), or a refusal recorded and thrown with each
 * field's message.
 */
export async function validated<S extends z.ZodType<{ amount: number }>>(
  deps: AttemptDeps,
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
