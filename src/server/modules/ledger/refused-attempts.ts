import { z } from 'zod';
import { CURRENCIES, LEDGER_TYPES } from '../../../shared/ledger.ts';
import { ERROR_MESSAGES, type ErrorCode } from '../../../shared/errors.ts';

/**
 * The details of a refused ledger attempt in the audit log ('ledger.refused'): written by
 * ledger.service.ts (and, with the same fields, by ledger.sql's ledger_refuse()) and read
 * back by the live feed, always through this schema. `type` is null when the request named
 * no real operation type: such an attempt is kept for the audit, never shown as an award.
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

