import { z } from 'zod';
import { CURRENCIES, LEDGER_TYPES } from '../../../shared/ledger.ts';
import { ERROR_MESSAGES, type ErrorCode } from '../../../shared/errors.ts';

/**
 * The details of a refused ledger attempt in the audit log ('ledger.refused'), written and
 * read only through this schema: ledger.service.ts builds every record with refusedAttempt(s)()
 * (for a refusal found by the database, one per possible refusal, and ledger.sql's
 * ledger_refuse() stores the one that applies as it is) and the live feed parses them back.
 * `type` is null when the request named no real operation type: such an attempt is kept for
 * the audit, never shown as an award.
 */
export const refusedAttemptRecord = z.object({
  currency: z.enum(CURRENCIES),
  type: z.enum(LEDGER_TYPES).nullable(),
  amount: z.number().int().nullable(),
  /** What was sent as the amount, as text (cut, and made storable). */
  rawAmount: z.string().nullable(),
  description: z.string().nullable(),
  fromStudentId: z.uuid().nullable(),
  toStudentId: z.uuid().nullable(),
  code: z.enum(Object.keys(ERROR_MESSAGES) as [ErrorCode, ...ErrorCode[]]),
  /** The pt-BR text the user was shown. */
  reason: z.string(),
});
export type RefusedAttemptRecord = z.infer<typeof refusedAttemptRecord>;


type AttemptDetails = Omit<RefusedAttemptRecord, 'code' | 'reason'>;
const attemptDetails = refusedAttemptRecord.omit({ code: true, reason: true });

/**
 * The record of an attempt refused with `code`, checked against the schema before anything
 * stores it; `reason` when the text shown carried the school's particulars (its maximum).
 */
export function refusedAttempt(attempt: AttemptDetails, code: ErrorCode, reason: string = ERROR_MESSAGES[code]): RefusedAttemptRecord {
  return refusedAttemptRecord.parse({ ...attempt, code, reason });
}

/**
 * The records of one attempt for each code it may be refused with (a transfer carries one per
 * refusal the database may find), checked as refusedAttempt() checks one, but what the request
 * said is parsed once and each code and reason come from the catalogue: built one by one, the
 * records cost ~20 µs of every transfer. Object.assign, because an object spread here cost
 * five times as much.
 */
export function refusedAttempts<K extends string>(
  attempt: AttemptDetails,
  codes: Partial<Record<K, ErrorCode>>,
  reasons: Partial<Record<K, string>> = {},
): Partial<Record<K, RefusedAttemptRecord>> {
  const checked = attemptDetails.parse(attempt);
  const entries = Object.entries(codes) as [K, ErrorCode][];
  return Object.fromEntries(
    entries.map(([key, code]): [K, RefusedAttemptRecord] => [key, Object.assign({}, checked, { code, reason: reasons[key] ?? ERROR_MESSAGES[code] })]),
  ) as Partial<Record<K, RefusedAttemptRecord>>;
}
