import type { z } from 'zod';
import { sql } from 'drizzle-orm';
import { runPrepared, rowsOf, type Db, type DbOrTx, type PreparedStatement } from '../../db/client.ts';
import { sqlState } from '../../db/sql-state.ts';
import { AppError } from '../../app-error.ts';
import { dailyCapMessage, tooSoonMessage, type ErrorCode } from '../../../shared/errors.ts';
import { budgetExceededMessage } from '../../../shared/ledger-texts.ts';
import type { Currency } from '../../../shared/ledger-types.ts';
import { DEFAULT_RULES, type SchoolRules } from '../../../shared/settings.ts';
import type { BulkOperationResult, OperationResult } from '../../../shared/ledger.ts';
import type { FeedLines } from '../../realtime/event-bus.ts';
import type { IdempotencyRecord, Stored } from './idempotency.ts';
import type { LedgerAnswer, Refusal } from './ledger-answer.ts';
import { recordRefusal, type AttemptDeps, type AttemptRecord } from './ledger-attempts.ts';

/**
 * Calling ledger.sql's functions (decision 007) and reading what they answer: the stored
 * response, or the refusal they found under their locks as an error with its code.
 */

export const LEDGER_TRANSFER: PreparedStatement = { name: 'ledger_transfer', text: 'SELECT ledger_transfer($1::jsonb) AS answer' };
export const LEDGER_ADMIN_OPERATION: PreparedStatement = {
  name: 'ledger_admin_operation',
  text: 'SELECT ledger_admin_operation($1::jsonb) AS answer',
};

export const LEDGER_REVERSAL: PreparedStatement = { name: 'ledger_reversal', text: 'SELECT ledger_reversal($1::jsonb) AS answer' };

export const REFUSAL_CODES: Record<'transfer' | 'admin', Record<Currency, Partial<Record<Refusal, ErrorCode>>>> = {
  transfer: {
    meritus: {
      sender_missing: 'unauthenticated',
      recipient_missing: 'student_not_found',
      insufficient: 'insufficient_balance',
      daily_cap: 'transfer_daily_cap',
      too_soon: 'transfer_too_soon',
    },
    estelecas: {
      sender_missing: 'unauthenticated',
      recipient_missing: 'student_not_found',
      insufficient: 'estelecas_invalid_amount',
      too_soon: 'transfer_too_soon',
    },
  },
  admin: {
    meritus: { student_missing: 'student_not_found', insufficient: 'remove_exceeds_balance', budget_exceeded: 'award_budget_exceeded' },
    estelecas: { student_missing: 'student_not_found', insufficient: 'remove_exceeds_estelecas', budget_exceeded: 'award_budget_exceeded' },
  },
};

/** Only the balance constraints mean the money was not there; any other violation is a defect, not the user's. */
const BALANCE_CONSTRAINTS = new Set([
  'students_meritus_nonnegative',
  'students_estelecas_nonnegative',
  'students_total_earned_nonnegative',
]);
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;

/**
 * Calls one of ledger.sql's functions: alone as a named prepared statement, or inside the
 * caller's transaction. A deadlock or serialization failure is retried; a concurrent
 * repeat of an Idempotency-Key fails on the key's primary key, rolled back whole, and
 * asking again replays the first response.
 */
export async function callLedger<A>(
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
export function formatTemplate(render: (first: string, second: string) => string): string {
  return render('\uE000', '\uE001').replaceAll('%', '%%').replaceAll('\uE000', '%1$s').replaceAll('\uE001', '%2$s');
}

/**
 * Turns the database's answer into the stored response, or records and throws the refusal it
 * found. History written in the past (the demo school) records no refusal: nobody tried it.
 */
/** The live feed's lines a completed operation added: its row, or a whole turma's rows by their batch. */
function feedLinesOf(body: OperationResult | BulkOperationResult): FeedLines {
  return 'batchId' in body
    ? { entryIds: [], batchIds: [body.batchId], refusedIds: [] }
    : { entryIds: [body.entry.id], batchIds: [], refusedIds: [] };
}

export async function settle<T extends OperationResult | BulkOperationResult>(
  deps: AttemptDeps,
  answer: LedgerAnswer<T>,
  refused: { attempt: AttemptRecord; codes: Partial<Record<Refusal, ErrorCode>>; context: { at?: Date | undefined } },
  studentUuids: string[],
  rules: SchoolRules = DEFAULT_RULES,
): Promise<Stored<T>> {
  switch (answer.outcome) {
    case 'completed':
      deps.events.publishAfterCommit({ type: 'ledger', studentUuids, status: 'completed', lines: feedLinesOf(answer.body) });
      return { status: answer.status, body: answer.body, replayed: false };
    case 'replayed':
      return { status: answer.status, body: answer.body, replayed: true };
    case 'refused': {
      const { error, reason } = refusalError(answer, refused.codes[answer.reason] ?? 'internal', rules, refused.attempt.details.currency);
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
  currency: Currency,
): { error: AppError; reason?: string } {
  if (answer.reason === 'budget_exceeded') {
    const { limit = 0, spent = 0, remaining = 0 } = answer.details ?? {};
    return {
      error: new AppError(code, { message: budgetExceededMessage(currency, remaining), details: { currency, limit, spent, remaining } }),
    };
  }
  if (answer.reason === 'daily_cap' && rules.transferDailyCap !== null) {
    return {
      error: new AppError(code, {
        message: dailyCapMessage(rules.transferDailyCap, answer.details?.remaining),
        details: { remaining: answer.details?.remaining ?? 0 },
      }),
      reason: dailyCapMessage(rules.transferDailyCap),
    };
  }
  if (answer.reason === 'too_soon' && rules.transferMinIntervalSeconds !== null) {
    const waitSeconds = Math.max(1, answer.details?.waitSeconds ?? rules.transferMinIntervalSeconds);
    const message = tooSoonMessage(rules.transferMinIntervalSeconds);
    return {
      error: new AppError(code, { status: 429, message, retryAfterSeconds: waitSeconds, details: { waitSeconds } }),
      reason: message,
    };
  }
  return { error: new AppError(code, answer.details?.short ? { details: { short: answer.details.short } } : {}) };
}
