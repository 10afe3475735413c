import { z } from 'zod';
import { amountSchema, optionalText, requiredText, rowId, textInput } from './validation.ts';
import { BULK_MAX_STUDENTS } from './constants.ts';
import type { ErrorCode } from './errors.ts';
import {
  ADMIN_OPERATION_TYPES,
  CURRENCIES,
  directionOf,
  LEDGER_TYPES,
  OPERATION_KINDS,
  STORE_LEDGER_TYPES,
  type Currency,
  type LedgerType,
} from './ledger-types.ts';

const optionalDescription = optionalText(200);

const recipientId = (code: 'missing_fields' | 'missing_fields_short') => rowId({ error: code });

/** POST /api/meritus/transfers */
export const meritusTransferInput = z.object({
  recipientId: recipientId('missing_fields'),
  amount: amountSchema({ missing: 'missing_fields', notPositive: 'amount_not_positive' }),
  description: optionalDescription,
});
export type MeritusTransferInput = z.input<typeof meritusTransferInput>;

/** POST /api/estelecas/transfers */
export const estelecasTransferInput = z.object({
  recipientId: recipientId('missing_fields_short'),
  amount: amountSchema({
    missing: 'missing_fields_short',
    notPositive: 'estelecas_invalid_amount',
    notInteger: 'estelecas_invalid_amount',
  }),
});
export type EstelecasTransferInput = z.input<typeof estelecasTransferInput>;

/**
 * What an unusable amount of an administrator's operation is answered with, per currency:
 * the spec's Estelecas dialogs answer any quantity below 1 (or not whole) with 'Preencha todos os campos'.
 */
const ADMIN_AMOUNT_CODES = {
  meritus: { missing: 'missing_fields_short', notPositive: 'amount_not_positive' },
  estelecas: { missing: 'missing_fields_short', notPositive: 'missing_fields_short', notInteger: 'missing_fields_short' },
} as const satisfies Record<Currency, Parameters<typeof amountSchema>[0]>;

function adminOperationSchema<C extends Currency>(currency: C) {
  return z.object({
    type: z.enum(ADMIN_OPERATION_TYPES, { error: 'missing_fields_short' }),
    amount: amountSchema(ADMIN_AMOUNT_CODES[currency]),
    description: requiredText('missing_fields_short'),
  });
}

/** POST /api/admin/students/:id/meritus and /estelecas: the form of each currency and the service read the same one. */
export const adminOperationInputs = { meritus: adminOperationSchema('meritus'), estelecas: adminOperationSchema('estelecas') } as const;
export type AdminOperationInput = z.input<(typeof adminOperationInputs)[Currency]>;

const bulkStudents = z
  .array(rowId(), { error: 'missing_fields_short' })
  .min(1, { error: 'missing_fields_short' })
  .max(BULK_MAX_STUDENTS, { error: 'bulk_too_many_students' });

function bulkOperationSchema<C extends Currency>(currency: C) {
  return adminOperationSchema(currency).extend({ currency: z.literal(currency), studentUuids: bulkStudents });
}

/** POST /api/admin/operations/bulk: several students or a whole turma, all or nothing; the amount is read by its currency's rule. */
export const bulkOperationInput = z.discriminatedUnion('currency', [bulkOperationSchema('meritus'), bulkOperationSchema('estelecas')]);
export type BulkOperationInput = z.input<typeof bulkOperationInput>;

/** A student short of the amount of a refused deduction, with their balance in its currency. */
export const shortStudent = z.object({ id: z.uuid(), name: z.string(), balance: z.number() });
export type ShortStudent = z.infer<typeof shortStudent>;
/** The details of a removal refused beyond a balance: every student who is short. */
export const removalRefusalDetails = z.object({ short: z.array(shortStudent) });

export const partyView = z.object({
  id: z.uuid(),
  studentId: z.string(),
  name: z.string(),
  /** The student was removed; their rows stay so every history and total remains correct. */
  removed: z.boolean(),
});
export type PartyView = z.infer<typeof partyView>;

/**
 * The reversal (estorno, decision 025) of a listed row, when it has one: when, by whom and why;
 * every list of rows carries it, and the screens show it as reversedNote() (ledger-texts.ts).
 */
export const reversalNote = z.object({ at: z.string(), by: z.string(), reason: z.string() });
export type ReversalNote = z.infer<typeof reversalNote>;

/** What every listed row says about reversals: the reversal it had, and for a reversal's own row the row it takes back. */
const reversalFields = { reversedBy: reversalNote.nullable(), reversesEntryId: z.uuid().nullable() };

/** The ledger row a reversal names in its path: any text that is no row id is an unknown operation. */
export const entryIdParam = z.object({ id: rowId({ error: 'entry_not_found' }) });

/** POST /api/admin/operations/:id/reversal: why the row is taken back (required). */
export const reversalInput = z.object(
  { reason: requiredText('reversal_reason_required', 200, { maxError: 'reversal_reason_too_long' }) },
  { error: 'reversal_reason_required' },
);
export type ReversalInput = z.input<typeof reversalInput>;

/** How long a teacher may reverse an operation of their own. */
export const REVERSAL_WINDOW_HOURS = 24;

/**
 * Whether a member of the staff may reverse a row, or why not (the error's code): the
 * coordination any row, a teacher only their own within REVERSAL_WINDOW_HOURS (a student's
 * transfer is never a teacher's own); a reversal and a row reversed already, nobody. The server
 * refuses with it and the screens offer 'Estornar' by it.
 */
export function reversalRefusal(
  member: { id: string; coordinator: boolean },
  entry: { type: LedgerType; actorAdminId: string | null; createdAt: string | Date; reversed: boolean },
  now: Date,
): ErrorCode | null {
  if (directionOf(entry.type) === 'reverses') return 'reversal_not_reversible';
  // A purchase, a contribution or a refund has its own way back (the order refused or cancelled, the goal's refunds), which
  // its order's or goal's state records; a reversal beside it would give the points back twice.
  if ((STORE_LEDGER_TYPES as readonly LedgerType[]).includes(entry.type)) return 'reversal_store_entry';
  if (entry.reversed) return 'already_reversed';
  if (member.coordinator) return null;
  if (directionOf(entry.type) === 'moves') return 'reversal_transfer_coordination';
  const age = now.getTime() - new Date(entry.createdAt).getTime();
  return entry.actorAdminId === member.id && age <= REVERSAL_WINDOW_HOURS * 3_600_000 ? null : 'reversal_not_own';
}

/** One ledger row seen from one student's side. */
export const studentOperation = z.object({
  id: z.uuid(),
  currency: z.enum(CURRENCIES),
  type: z.enum(LEDGER_TYPES),
  /** transfer_in / transfer_out for transfers, else the type itself (ledger-types.ts). */
  kind: z.enum(OPERATION_KINDS),
  amount: z.number().int(),
  /** Positive when the student's balance rose. */
  signedAmount: z.number().int(),
  description: z.string(),
  counterpart: partyView.nullable(),
  actorName: z.string(),
  createdAt: z.string(),
  ...reversalFields,
});
export type StudentOperation = z.infer<typeof studentOperation>;

/** GET /api/me/receipts/:code: a transfer's short code (receipt-code.ts); the service answers any other text as a receipt not found. */
export const receiptCodeParam = z.object({ code: z.string() });

/** A side of a transfer as its Comprovante shows it; null for a student since removed (the row stays, decision 004). */
export const receiptParty = z.object({ name: z.string(), studentId: z.string(), grade: z.string(), photo: z.string().nullable() });
export type ReceiptParty = z.infer<typeof receiptParty>;

/** A student's transfer (sent or received) as its Comprovante shows it, reopened from the history by its short code. */
export const transferReceipt = z.object({
  id: z.uuid(),
  code: z.string(),
  currency: z.enum(CURRENCIES),
  amount: z.number().int(),
  description: z.string(),
  createdAt: z.string(),
  /** Whether the viewer sent it or received it. */
  sent: z.boolean(),
  from: receiptParty.nullable(),
  to: receiptParty.nullable(),
  reversedBy: reversalNote.nullable(),
});
export type TransferReceipt = z.infer<typeof transferReceipt>;

export const studentOperationsQuery = z.object({
  currency: z.enum(CURRENCIES).optional(),
  /** `credit` and `debit`: the staff's operations (and reversals) that raised or lowered it; `store`: the Loja's rows. */
  kind: z.enum(['transfer_in', 'transfer_out', 'credit', 'debit', 'store']).optional(),
  q: textInput({ max: 100 }).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** Opaque cursor from the previous page; the service reads it and refuses one it did not write. */
  cursor: textInput({ max: 200, trim: false }).optional(),
});
export const studentOperationsPage = z.object({ items: z.array(studentOperation), nextCursor: z.string().nullable() });
export type StudentOperationsPage = z.infer<typeof studentOperationsPage>;

export const limitQuery = (fallback: number, max = 200) => z.object({ limit: z.coerce.number().int().min(1).max(max).default(fallback) });

/** The result of a write: the row written and the balances after it. */
export const operationResult = z.object({
  entry: z.object({
    id: z.uuid(),
    currency: z.enum(CURRENCIES),
    type: z.enum(LEDGER_TYPES),
    amount: z.number().int(),
    description: z.string(),
    createdAt: z.string(),
  }),
  message: z.string(),
  balances: z.object({ meritus: z.number().int(), totalEarned: z.number().int(), estelecas: z.number().int() }),
});
export type OperationResult = z.infer<typeof operationResult>;

export const bulkOperationResult = z.object({
  count: z.number().int(),
  batchId: z.uuid(),
  message: z.string(),
});
export type BulkOperationResult = z.infer<typeof bulkOperationResult>;

/** The reversal's row, and the row it took back. */
export const reversalResult = z.object({
  entry: operationResult.shape.entry,
  reversedEntryId: z.uuid(),
  message: z.string(),
});
export type ReversalResult = z.infer<typeof reversalResult>;

/**
 * The live feed's classification (spec 2.1): from system/admin = award, to = deduction; the Loja's rows (purchases,
 * contributions, refunds: STORE_LEDGER_TYPES) are `store`, never an award or a deduction of the staff's.
 */
export const OPERATION_CATEGORIES = ['award', 'deduction', 'student_transfer', 'reversal', 'store'] as const;
export type OperationCategory = (typeof OPERATION_CATEGORIES)[number];
export const OPERATORS = ['admin', 'student', 'system'] as const;

/** One row of the administrators' live feed: a ledger row or a refused attempt. */
export const liveOperation = z.object({
  id: z.string(),
  currency: z.enum(CURRENCIES),
  type: z.enum(LEDGER_TYPES),
  category: z.enum(OPERATION_CATEGORIES),
  operator: z.enum(OPERATORS),
  amount: z.number().int().nullable(),
  description: z.string(),
  from: partyView.nullable(),
  to: partyView.nullable(),
  actorName: z.string(),
  status: z.enum(['completed', 'pending', 'failed']),
  /** Why a refused attempt was refused, in pt-BR. */
  reason: z.string().nullable(),
  /** The staff member who made it (null: a student, the system, or a refused attempt). */
  actorAdminId: z.uuid().nullable(),
  createdAt: z.string(),
  ...reversalFields,
});
export type LiveOperation = z.infer<typeof liveOperation>;

/** A member of the staff whose operations a list keeps (the live feed's and the reports' author filter). */
export const authorIdParam = rowId({ error: 'author_not_found' });

export const liveOperationsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  authorId: authorIdParam.optional(),
});
export type LiveOperationsQuery = z.infer<typeof liveOperationsQuery>;

/** A member of the staff as the author filters offer them. */
export const operationAuthor = z.object({ id: z.uuid(), name: z.string() });
export type OperationAuthor = z.infer<typeof operationAuthor>;

/** What a teacher may still award this week in one currency: the week's budget, what their awards took of it, what is left. */
export const budgetLeft = z.object({
  weeklyBudget: z.number().int(),
  spent: z.number().int(),
  remaining: z.number().int(),
});
export type BudgetLeft = z.infer<typeof budgetLeft>;

/**
 * GET /api/me/budget: a staff member's weekly award budget per currency, null where there is no limit (always for
 * the coordination). The week begins on Monday at midnight in the school's time zone (`weekStart`).
 */
export const awardBudget = z.object({
  weekStart: z.string(),
  meritus: budgetLeft.nullable(),
  estelecas: budgetLeft.nullable(),
});
export type AwardBudget = z.infer<typeof awardBudget>;

/** Admin Estelecas screen: history with both parties. */
export const ledgerEntryView = z.object({
  id: z.uuid(),
  currency: z.enum(CURRENCIES),
  type: z.enum(LEDGER_TYPES),
  amount: z.number().int(),
  description: z.string(),
  from: partyView.nullable(),
  to: partyView.nullable(),
  actorKind: z.enum(['student', 'admin', 'system']),
  actorName: z.string(),
  /** The staff member who made it (null for a student's transfer or the system). */
  actorAdminId: z.uuid().nullable(),
  createdAt: z.string(),
  ...reversalFields,
});
export type LedgerEntryView = z.infer<typeof ledgerEntryView>;

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** What a client may use as an Idempotency-Key: the web sends a UUID; longer keys would only bloat the key table. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;
/** The headers of a write that may be retried. */
export const idempotencyHeaders = z.object({
  [IDEMPOTENCY_HEADER]: textInput({ max: 100, trim: false, error: 'idempotency_key_invalid', maxError: 'idempotency_key_invalid' })
    .regex(IDEMPOTENCY_KEY_PATTERN, { error: 'idempotency_key_invalid' })
    .optional(),
});
