import { z } from 'zod';
import { bulkOperationResult, operationResult, shortStudent } from '../../../shared/ledger.ts';

/** Why ledger.sql refused a write it found unable to go ahead under its locks. */
const refusal = z.enum([
  'sender_missing',
  'recipient_missing',
  'student_missing',
  'insufficient',
  'daily_cap',
  'too_soon',
  'entry_missing',
  'already_reversed',
  'budget_exceeded',
]);
export type Refusal = z.infer<typeof refusal>;

/**
 * What ledger.sql's functions answer (its header says when each comes), read with `body` the
 * shared schema of a completed write's response: the service never takes the database's word for a shape.
 */
export function ledgerAnswer<B extends z.ZodType>(body: B) {
  return z.discriminatedUnion('outcome', [
    z.object({ outcome: z.enum(['completed', 'replayed']), status: z.number().int(), body }),
    z.object({
      outcome: z.literal('refused'),
      reason: refusal,
      details: z
        .object({
          short: z.array(shortStudent).optional(),
          remaining: z.number().optional(),
          waitSeconds: z.number().optional(),
          limit: z.number().optional(),
          spent: z.number().optional(),
        })
        .nullable(),
    }),
    z.object({ outcome: z.literal('conflict') }),
  ]);
}

/** ledger_transfer()'s and ledger_admin_operation()'s answer for one student. */
export const operationAnswer = ledgerAnswer(operationResult);
/** ledger_admin_operation()'s answer for many students at once. */
export const bulkOperationAnswer = ledgerAnswer(bulkOperationResult);

/** An answer whose completed body is a T. */
export type LedgerAnswer<T> = z.infer<ReturnType<typeof ledgerAnswer<z.ZodType<T>>>>;
