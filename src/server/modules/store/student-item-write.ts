import type { z } from 'zod';
import type { PreparedStatement } from '../../db/client.ts';
import { AppError } from '../../app-error.ts';
import type { StudentActor } from '../auth/actor.ts';
import { idempotencyRecord, type Stored } from '../ledger/idempotency.ts';
import { attemptRecord, recordRefusal, type LooseInput } from '../ledger/ledger-attempts.ts';
import { callLedger } from '../ledger/ledger-call.ts';
import type { LedgerDeps, WriteContext } from '../ledger/ledger.service.ts';
import type { ErrorCode } from '../../../shared/errors.ts';
import { itemForRecord } from './store-records.ts';

/** What store.sql's and store-goals.sql's functions answer a student's write: done or replayed, refused, or a key reused. */
type WriteAnswer = { outcome: 'completed' | 'replayed'; status: number; body: unknown } | { outcome: 'refused' } | { outcome: 'conflict' };
type Done<A> = Extract<A, { outcome: 'completed' | 'replayed'; status: number; body: unknown }>;
type Refused<A> = Extract<A, { outcome: 'refused' }>;

/**
 * A student's write on one item of the Loja (a purchase, a contribution to a turma goal), as both services run it: a
 * refusal is recorded in the audit like the ledger's (history written in the past records none), a malformed
 * Idempotency-Key is one, and the SQL function is called with the student, the key, the status 201 and the time.
 * `recorded` says what a refused attempt's record keeps, from the item when it exists.
 */
export function studentItemWrite(
  deps: LedgerDeps,
  student: StudentActor,
  context: WriteContext,
  attempt: {
    itemId: string | undefined;
    type: 'purchase' | 'contribution';
    recorded: (item: Awaited<ReturnType<typeof itemForRecord>>) => LooseInput;
  },
) {
  /** Records the refusal and gives its error back, to throw. */
  const refuse = async (code: ErrorCode, error: AppError = new AppError(code)): Promise<AppError> => {
    const item = await itemForRecord(deps.db, attempt.itemId);
    const record = attemptRecord(
      student,
      item?.currency ?? 'meritus',
      attempt.recorded(item),
      { type: attempt.type, fromStudentId: student.id, toStudentId: null },
      context.ip,
    );
    if (!context.at) await recordRefusal(deps, record, code, error.message);
    return error;
  };

  /**
   * Calls `statement` with `payload` and answers what it stored: `completed` tells who must know of a new write (a
   * replay told them already); a refusal is recorded and thrown as the error `refused` makes of it.
   */
  const call = async <A extends WriteAnswer>(
    statement: PreparedStatement,
    answer: z.ZodType<A>,
    request: { op: string; itemId: string } & Record<string, unknown>,
    payload: Record<string, unknown>,
    outcome: { completed: (body: Done<A>['body']) => void; refused: (answer: Refused<A>) => AppError },
  ): Promise<Stored<Done<A>['body']>> => {
    let idempotency;
    try {
      idempotency = idempotencyRecord({ actorKey: `student:${student.id}`, key: context.idempotencyKey, request });
    } catch (error) {
      if (error instanceof AppError) throw await refuse(error.code, error);
      throw error;
    }
    const said = await callLedger(
      deps.db,
      statement,
      answer,
      { ...payload, studentId: student.id, idempotency: idempotency ?? null, status: 201, createdAt: context.at?.toISOString() ?? null },
      false,
    );
    if (said.outcome === 'conflict') throw new AppError('idempotency_conflict');
    if (said.outcome === 'refused') {
      const error = outcome.refused(said as Refused<A>);
      throw await refuse(error.code, error);
    }
    const done = said as Done<A>;
    if (done.outcome === 'completed') outcome.completed(done.body);
    return { status: done.status, body: done.body, replayed: done.outcome === 'replayed' };
  };

  return { refuse, call };
}
