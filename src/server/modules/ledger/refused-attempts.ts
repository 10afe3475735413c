import { z } from 'zod';
import { CURRENCIES, LEDGER_TYPES } from '../../../shared/ledger-types.ts';
import { ERROR_MESSAGES, type ErrorCode } from '../../../shared/errors.ts';

/**
 * The details of a refused ledger attempt in the audit log ('ledger.refused'), written and
 * read only through this schema: ledger.service.ts builds every record with refusedAttempt(),
 * whether it refused the request itself or ledger.sql found the refusal under the lock, and
 * the live feed parses them back.
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

/**
 * The record of an attempt refused with `code`, checked against the schema before anything
 * stores it; `reason` when the text shown carried the school's particulars (its maximum).
 */
export function refusedAttempt(attempt: AttemptDetails, code: ErrorCode, reason: string = ERROR_MESSAGES[code]): RefusedAttemptRecord {
  return refusedAttemptRecord.parse({ ...attempt, code, reason });
}
