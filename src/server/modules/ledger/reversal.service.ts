import { eq, sql } from 'drizzle-orm';
import { ledgerEntries } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import type { AdminActor } from '../auth/actor.ts';
import { reversalShortMessage } from '../../../shared/errors.ts';
import { reversalInput, reversalRefusal, reversalResult, type ReversalResult } from '../../../shared/ledger.ts';
import { REVERSAL_DONE, reversalDescription } from '../../../shared/ledger-texts.ts';
import { issueCode, issueFields, rowId } from '../../../shared/validation.ts';
import type { Stored } from './idempotency.ts';
import { idempotencyRecord } from './idempotency.ts';
import { ledgerAnswer } from './ledger-answer.ts';
import { callLedger, formatTemplate, LEDGER_REVERSAL } from './ledger-call.ts';
import type { LedgerDeps, WriteContext } from './ledger.service.ts';

const reversalAnswer = ledgerAnswer(reversalResult);
const entryId = rowId({ error: 'entry_not_found' });

/**
 * Takes back a ledger row (estorno, decision 025): a new row of type 'reversal' with the same
 * amount and the parties swapped, naming the row it reverses and why. Who may reverse which row
 * is reversalRefusal() (src/shared/ledger.ts), read here on the row, which never changes;
 * ledger_reversal() in ledger.sql checks the rest under the students' locks (reversed once, the
 * recipient still holds the amount). A refusal changes nothing.
 */
export async function reverseOperation(
  deps: LedgerDeps,
  admin: AdminActor,
  id: unknown,
  input: unknown,
  context: WriteContext = {},
): Promise<Stored<ReversalResult>> {
  const target = entryId.safeParse(id);
  if (!target.success) throw new AppError('entry_not_found');
  const parsed = reversalInput.safeParse(input);
  if (!parsed.success) {
    const { issues } = parsed.error;
    throw new AppError(issueCode(issues[0]!), { status: 400, fields: issueFields(issues) });
  }
  const { reason } = parsed.data;

  const [entry] = await deps.db
    .select({
      type: ledgerEntries.type,
      currency: ledgerEntries.currency,
      amount: ledgerEntries.amount,
      actorAdminId: ledgerEntries.actorAdminId,
      createdAt: ledgerEntries.createdAt,
      reversed: sql<boolean>`EXISTS (SELECT 1 FROM ledger_entries r WHERE r.reverses_entry_id = ${ledgerEntries.id})`,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.id, target.data));
  if (!entry) throw new AppError('entry_not_found');
  const idempotency = idempotencyRecord({
    actorKey: `admin:${admin.id}`,
    key: context.idempotencyKey,
    request: { op: 'reversal', entryId: target.data, reason },
  });
  // A repeat of a completed reversal replays it (ledger.sql) before any rule: the row is reversed by then.
  const refusal = reversalRefusal({ id: admin.id, coordinator: admin.staffRole === 'coordinator' }, entry, context.at ?? new Date());
  if (refusal && !(refusal === 'already_reversed' && idempotency)) throw new AppError(refusal);

  const answer = await callLedger(
    deps.db,
    LEDGER_REVERSAL,
    reversalAnswer,
    {
      entryId: target.data,
      reason,
      adminId: admin.id,
      adminName: admin.name,
      descriptionTemplate: formatTemplate((description) => reversalDescription(description)),
      message: REVERSAL_DONE,
      audit: { action: 'ledger.reversal', ip: context.ip ?? null, details: { reason } },
      idempotency: idempotency ?? null,
      status: 201,
      createdAt: context.at?.toISOString() ?? null,
    },
    false,
  );
  switch (answer.outcome) {
    case 'completed': {
      const studentUuids = await partiesOf(deps, answer.body.entry.id);
      deps.events.publishAfterCommit({
        type: 'ledger',
        studentUuids,
        status: 'completed',
        lines: { entryIds: [answer.body.entry.id, answer.body.reversedEntryId], batchIds: [], refusedIds: [] },
      });
      return { status: answer.status, body: answer.body, replayed: false };
    }
    case 'replayed':
      return { status: answer.status, body: answer.body, replayed: true };
    case 'conflict':
      throw new AppError('idempotency_conflict');
    case 'refused':
      switch (answer.reason) {
        case 'insufficient': {
          const short = answer.details?.short?.[0];
          const message = short ? reversalShortMessage(entry.currency, short.name, short.balance, entry.amount) : undefined;
          throw new AppError('insufficient_balance', {
            ...(message ? { message } : {}),
            details: { short: answer.details?.short ?? [], missing: short ? entry.amount - short.balance : entry.amount },
          });
        }
        case 'already_reversed':
          throw new AppError('already_reversed');
        case 'student_missing':
          throw new AppError('student_not_found');
        default:
          throw new AppError('entry_not_found');
      }
  }
}

/** The students a reversal's row names, whose screens it changes. */
async function partiesOf(deps: LedgerDeps, id: string): Promise<string[]> {
  const [row] = await deps.db
    .select({ from: ledgerEntries.fromStudentId, to: ledgerEntries.toStudentId })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.id, id));
  return [row?.from, row?.to].filter((party): party is string => typeof party === 'string');
}
