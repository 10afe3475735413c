import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { PublicStudent } from '../../shared/auth.ts';
import { ERROR_MESSAGES, type ErrorCode } from '../../shared/errors.ts';
import { formatAmount } from '../../shared/format.ts';
import {
  adminOperationInputs,
  removalRefusalDetails,
  type BulkOperationResult,
  type OperationResult,
  type ShortStudent,
} from '../../shared/ledger.ts';
import { type AdminOperationType, type Currency, isCredit } from '../../shared/ledger-types.ts';
import { issueMessage, parseAmountText } from '../../shared/validation.ts';
import { CURRENCY_ROUTES } from '../../shared/contract/ledger.ts';
import { routes } from '../../shared/contract/routes.ts';
import { call, type ApiError } from './api.ts';
import { useIdempotentMutation } from './idempotency.ts';
import { invalidateReads, readOf } from './query-keys.ts';
import { useSession } from './session.ts';

export type OperationInput = { type: AdminOperationType; amount: number; description: string };
/** One student, or several in one all-or-nothing request. */
export type AdminOperationRequest =
  { kind: 'single'; studentUuid: string; input: OperationInput } | { kind: 'bulk'; studentUuids: string[]; input: OperationInput };
export type AdminOperationResponse = OperationResult | BulkOperationResult;

type Holder = Pick<PublicStudent, 'name' | 'meritus' | 'estelecas'>;

/** The text of a removal beyond a balance, per currency. */
const OVER_BALANCE: Record<Currency, ErrorCode> = { meritus: 'remove_exceeds_balance', estelecas: 'remove_exceeds_estelecas' };

type Short = Pick<ShortStudent, 'name' | 'balance'>;

/** The chosen students whose balance would not cover a removal of `amount`. */
function shortOf(currency: Currency, students: readonly Holder[], amount: number): Short[] {
  return students.filter((student) => student[currency] < amount).map((student) => ({ name: student.name, balance: student[currency] }));
}

/** The spec's message for a removal beyond a balance, naming who is short when several were chosen. */
export function removalRefusal(currency: Currency, short: readonly Short[], total: number): string {
  const text = ERROR_MESSAGES[OVER_BALANCE[currency]];
  if (total <= 1 || short.length === 0) return text;
  const names = short.slice(0, 3).map((student) => `${student.name} (${formatAmount(currency, student.balance)})`);
  const more = short.length > 3 ? ` e mais ${short.length - 3}` : '';
  return `${text}: ${names.join(', ')}${more}. Nenhum saldo foi alterado.`;
}

/**
 * Who the server found short when it refused a removal for several students: its balances
 * are the ones that counted, not this screen's copy. None when the answer names nobody.
 */
export function shortInRefusal(failure: ApiError): ShortStudent[] {
  return removalRefusalDetails.safeParse(failure.details).data?.short ?? [];
}

export type OperationDraft = { type: AdminOperationType; amount: string; description: string };

/**
 * An administrator's add/remove form, checked with its currency's schema (the server's), in the
 * spec's order: every field filled, a whole amount above zero and within the limit, and
 * for a removal every chosen balance covering it.
 */
export function validateAdminOperation(
  currency: Currency,
  draft: OperationDraft,
  chosen: readonly Holder[],
): { ok: true; input: OperationInput } | { ok: false; message: string } {
  const amount = parseAmountText(draft.amount);
  if (chosen.length === 0 || amount === undefined || draft.description.trim() === '')
    return { ok: false, message: ERROR_MESSAGES.missing_fields_short };
  const parsed = adminOperationInputs[currency].safeParse({ type: draft.type, amount, description: draft.description });
  if (!parsed.success) return { ok: false, message: issueMessage(parsed.error.issues[0] ?? {}) };
  const input = parsed.data;
  if (!isCredit(input.type)) {
    const short = shortOf(currency, chosen, input.amount);
    if (short.length > 0) return { ok: false, message: removalRefusal(currency, short, chosen.length) };
  }
  return { ok: true, input };
}

/**
 * What the signed-in teacher may still award this week in `currency` (GET /api/me/budget), or null
 * when there is no limit: the coordination has none, so it never asks.
 */
export function useAwardBudgetLeft(currency: Currency) {
  const teacher = useSession().user?.role === 'teacher';
  const budget = useQuery({ ...readOf(routes.ledger.myBudget), enabled: teacher });
  return teacher ? (budget.data?.[currency] ?? null) : null;
}

/**
 * An administrator's add or remove of either currency, for one student or many, with one
 * Idempotency-Key per submission; a success refreshes the rankings, that currency's panels and
 * what is left of the teacher's weekly budget (so does a refusal by the budget, which knew better).
 */
export function useAdminOperation(
  currency: Currency,
  handlers: { onSuccess: (result: AdminOperationResponse) => void; onError: (error: ApiError, request: AdminOperationRequest) => void },
) {
  const client = useQueryClient();
  return useIdempotentMutation<AdminOperationRequest, AdminOperationResponse>({
    mutationFn: (request, idempotencyKey) =>
      request.kind === 'single'
        ? call(CURRENCY_ROUTES[currency].adminOperation, { params: { id: request.studentUuid }, body: request.input, idempotencyKey })
        : call(routes.ledger.bulkOperation, { body: { currency, studentUuids: request.studentUuids, ...request.input }, idempotencyKey }),
    onSuccess: (result) => {
      const { ranking } = routes.students;
      const { recentAdminMeritus, estelecasRanking, estelecasHistory } = routes.ledger;
      const { myBudget } = routes.ledger;
      invalidateReads(
        client,
        currency === 'meritus' ? [ranking, recentAdminMeritus, myBudget] : [ranking, estelecasRanking, estelecasHistory, myBudget],
      );
      handlers.onSuccess(result);
    },
    onError: (error, request) => {
      if (error.code === 'award_budget_exceeded') invalidateReads(client, [routes.ledger.myBudget]);
      handlers.onError(error, request);
    },
  });
}
