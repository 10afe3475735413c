import type { PublicStudent } from '../../../shared/auth.ts';
import { MAX_OPERATION_AMOUNT } from '../../../shared/constants.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { isCredit, type AdminOperationType } from '../../../shared/ledger.ts';
import { parseAmountText } from '../../../shared/validation.ts';
import { formatMeritus } from '../../lib/format.ts';
import type { OperationInput } from './meritus-queries.ts';

type Holder = Pick<PublicStudent, 'name' | 'meritus'>;

/** The chosen students whose Méritus would not cover a removal of `amount`. */
export function shortOf<T extends Holder>(students: readonly T[], amount: number): T[] {
  return students.filter((student) => student.meritus < amount);
}

/** The spec's message for a removal beyond a balance, naming who is short when several were chosen. */
export function removalRefusal(short: readonly Holder[], total: number): string {
  if (total <= 1 || short.length === 0) return ERROR_MESSAGES.remove_exceeds_balance;
  const names = short.slice(0, 3).map((student) => `${student.name} (${formatMeritus(student.meritus)})`);
  const more = short.length > 3 ? ` e mais ${short.length - 3}` : '';
  return `${ERROR_MESSAGES.remove_exceeds_balance}: ${names.join(', ')}${more}. Nenhum saldo foi alterado.`;
}

export type MeritusDraft = { type: AdminOperationType; amount: string; description: string };

/**
 * The Gerenciar M$ form's checks, in the spec's order: every field filled, a whole amount
 * above zero and within the limit, and for a removal every chosen balance covering it.
 */
export function validateMeritusOperation(
  draft: MeritusDraft,
  chosen: readonly Holder[],
): { ok: true; input: OperationInput } | { ok: false; message: string } {
  const description = draft.description.trim();
  const amount = parseAmountText(draft.amount);
  if (chosen.length === 0 || amount === undefined || description === '') return { ok: false, message: ERROR_MESSAGES.missing_fields_short };
  if (!Number.isFinite(amount) || amount <= 0) return { ok: false, message: ERROR_MESSAGES.amount_not_positive };
  if (!Number.isInteger(amount)) return { ok: false, message: ERROR_MESSAGES.amount_not_integer };
  if (amount > MAX_OPERATION_AMOUNT) return { ok: false, message: ERROR_MESSAGES.amount_too_large };
  if (!isCredit(draft.type)) {
    const short = shortOf(chosen, amount);
    if (short.length > 0) return { ok: false, message: removalRefusal(short, chosen.length) };
  }
  return { ok: true, input: { type: draft.type, amount, description } };
}
