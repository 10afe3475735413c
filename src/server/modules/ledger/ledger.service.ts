import { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../app-error.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import { and, inArray, isNull, sql } from 'drizzle-orm';
import { students } from '../../db/schema.ts';
import { turmaScopeOf, type AdminActor, type StudentActor } from '../auth/actor.ts';
import { turmaInScope } from '../../views/turma-scope.ts';
import { MESSAGES } from '../../../shared/errors.ts';
import {
  adminOperationInputs,
  bulkOperationInput,
  estelecasTransferInput,
  meritusTransferInput,
  type BulkOperationResult,
  type OperationResult,
} from '../../../shared/ledger.ts';
import type { AdminOperationType, Currency } from '../../../shared/ledger-types.ts';
import { budgetCheck, type BudgetCheck } from './award-budget.service.ts';
import { adminOperationMessage, bulkOperationMessage } from '../../../shared/ledger-texts.ts';
import { rowId } from '../../../shared/validation.ts';
import type { IdempotencyRecord, Stored } from './idempotency.ts';
import { bulkOperationAnswer, operationAnswer } from './ledger-answer.ts';
import {
  adminAttempt,
  attemptRecord,
  keyOf,
  loose,
  recordRefusal,
  validated,
  type AttemptRecord,
  type LooseInput,
} from './ledger-attempts.ts';
import { callLedger, formatTemplate, LEDGER_ADMIN_OPERATION, LEDGER_TRANSFER, REFUSAL_CODES, settle } from './ledger-call.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import { DEFAULT_RULES, type SchoolRules } from '../../../shared/settings.ts';
import { DEFAULT_TIME_ZONE, startOfDayIn } from '../../../shared/format.ts';

/**
 * The ledger's writes (decision 007), one function per operation: each is validated with the
 * shared schema the forms use, its refusals recorded (ledger-attempts.ts), then runs in one of
 * ledger.sql's functions, which lock, check, move the balances, write the rows and keep the
 * Idempotency-Key in one round trip; its answer is read in ledger-call.ts.
 */
export type LedgerDeps = {
  db: Db;
  events: EventBus;
  /** The school's rules (maximum per operation, transfer guardrails); without it, as in direct calls from tests, the defaults apply. */
  settings?: SettingsStore;
};

/** What a write knows besides its body. `at` backdates it: only the demo history does that. */
export type WriteContext = { idempotencyKey?: unknown; ip?: string | undefined; at?: Date | undefined };

const TRANSFER_DESCRIPTIONS: Record<Currency, string> = {
  meritus: formatTemplate((sender, recipient) => MESSAGES.defaultTransferDescription(sender, recipient)),
  estelecas: formatTemplate((_sender, recipient) => MESSAGES.defaultEstelecasTransferDescription(recipient)),
};

async function settingsOf(deps: LedgerDeps): Promise<{ rules: SchoolRules; timeZone: string }> {
  if (!deps.settings) return { rules: DEFAULT_RULES, timeZone: DEFAULT_TIME_ZONE };
  const { rules, school } = await deps.settings.get();
  return { rules, timeZone: school.timeZone };
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
  const attempt = attemptRecord(
    sender,
    currency,
    said,
    { type: 'transfer', fromStudentId: sender.id, toStudentId: said.recipientId },
    context.ip,
  );
  const { rules, timeZone } = await settingsOf(deps);
  const transfer = await validated(deps, TRANSFER_SCHEMAS[currency], input, attempt, rules);
  if (transfer.recipientId === sender.id) {
    await recordRefusal(deps, attempt, 'self_transfer');
    throw new AppError('self_transfer');
  }
  const idempotency = await keyOf(deps, attempt, {
    actorKey: `student:${sender.id}`,
    key: context.idempotencyKey,
    request: { op: 'transfer', currency, ...transfer },
  });
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

/** The database payload of an administrator's operation; the audit action names it. */
function adminPayload(
  admin: AdminActor,
  currency: Currency,
  operation: { type: AdminOperationType; amount: number; description: string },
  studentUuids: string[],
  extra: {
    bulk: boolean;
    messageTemplate: string;
    audit: object;
    budget: BudgetCheck | null;
    idempotency?: IdempotencyRecord | undefined;
    at?: Date | undefined;
  },
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
    budget: extra.budget,
  };
}

/**
 * A teacher acts only on students of their turmas: one current student outside them refuses the whole request, recorded
 * as a refused attempt. A student who does not exist is left for ledger.sql to refuse as always ('student_not_found').
 * Checked before the operation's transaction: a coordinator moving the student at that very moment is a race the
 * teacher cannot choose, and the student was theirs a moment before.
 */
async function assertStudentsInScope(deps: LedgerDeps, admin: AdminActor, attempt: AttemptRecord, studentUuids: string[]): Promise<void> {
  const scope = turmaScopeOf(admin);
  if (scope === null) return;
  const [outside] = await deps.db
    .select({ id: students.id })
    .from(students)
    .where(and(inArray(students.id, studentUuids), isNull(students.deletedAt), sql`NOT ${turmaInScope(students.turmaId, scope)}`))
    .limit(1);
  if (!outside) return;
  await recordRefusal(deps, attempt, 'student_outside_turmas');
  throw new AppError('student_outside_turmas');
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
  const { rules, timeZone } = await settingsOf(deps);
  const operation = await validated(deps, ADMIN_TARGET_INPUTS[currency], input, attempt, rules);
  const { id, ...request } = operation;
  await assertStudentsInScope(deps, admin, attempt, [id]);
  const codes = REFUSAL_CODES.admin[currency];
  const payload = adminPayload(admin, currency, request, [id], {
    bulk: false,
    budget: budgetCheck(admin, request.type, timeZone, context.at),
    messageTemplate: formatTemplate((name) => adminOperationMessage(currency, request.type, request.amount, name)),
    audit: { action: `ledger.${request.type}`, ip: context.ip ?? null, details: { currency, studentUuid: id, amount: request.amount } },
    idempotency: await keyOf(deps, attempt, {
      actorKey: `admin:${admin.id}`,
      key: context.idempotencyKey,
      request: { op: 'admin', studentUuid: id, currency, ...request },
    }),
    at: context.at,
  });
  return settle(deps, await callLedger(deps.db, LEDGER_ADMIN_OPERATION, operationAnswer, payload, false), { attempt, codes, context }, [
    id,
  ]);
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
  const { rules, timeZone } = await settingsOf(deps);
  const operation = await validated(deps, bulkOperationInput, input, attempt, rules);
  const studentUuids = [...new Set(operation.studentUuids)];
  await assertStudentsInScope(deps, admin, attempt, studentUuids);
  const request = { type: operation.type, amount: operation.amount, description: operation.description };
  const codes = REFUSAL_CODES.admin[operation.currency];
  const payload = adminPayload(admin, operation.currency, request, studentUuids, {
    bulk: true,
    budget: budgetCheck(admin, request.type, timeZone, context.at),
    messageTemplate: bulkOperationMessage(operation.currency, request.type, request.amount, studentUuids.length),
    audit: {
      action: `ledger.bulk.${request.type}`,
      ip: context.ip ?? null,
      details: { currency: operation.currency, amount: request.amount, count: studentUuids.length },
    },
    idempotency: await keyOf(deps, attempt, {
      actorKey: `admin:${admin.id}`,
      key: context.idempotencyKey,
      request: { op: 'bulk', ...operation, studentUuids },
    }),
    at: context.at,
  });
  return settle(
    deps,
    await callLedger(deps.db, LEDGER_ADMIN_OPERATION, bulkOperationAnswer, payload, false),
    { attempt, codes, context },
    studentUuids,
  );
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
    // Whoever may create students sets their first balance; it is not an award of the week.
    budget: null,
    messageTemplate: formatTemplate((name) => adminOperationMessage('meritus', 'admin_add', amount, name)),
    audit: { action: 'ledger.admin_add', ip: ip ?? null, details: { currency: 'meritus', studentUuid, amount } },
  });
  const answer = await callLedger(tx, LEDGER_ADMIN_OPERATION, operationAnswer, payload, true);
  if (answer.outcome !== 'completed') throw new AppError('student_not_found');
  return answer.body;
}
