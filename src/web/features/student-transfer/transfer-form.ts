import { meritusTransferInput, type MeritusTransferInput } from '../../../shared/ledger.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { issueMessage, parseAmountText } from '../../../shared/validation.ts';

export type TransferDraft = { recipientId: string | null; amount: string; description: string };

/** True when the typed amount is a number above the balance: the inline 'Saldo insuficiente'. */
export function exceedsBalance(text: string, balance: number): boolean {
  const amount = parseAmountText(text);
  return amount !== undefined && Number.isFinite(amount) && amount > balance;
}

/**
 * Checks the form with the same schema the server uses, then the balance, in the spec's
 * order: missing fields, amount not above zero, insufficient balance.
 */
export function validateTransfer(draft: TransferDraft, balance: number): { ok: true; input: MeritusTransferInput } | { ok: false; message: string } {
  const parsed = meritusTransferInput.safeParse({
    recipientId: draft.recipientId ?? undefined,
    amount: parseAmountText(draft.amount),
    description: draft.description,
  });
  if (!parsed.success) return { ok: false, message: issueMessage(parsed.error.issues[0] ?? {}) };
  if (parsed.data.amount > balance) return { ok: false, message: ERROR_MESSAGES.insufficient_balance };
  return { ok: true, input: parsed.data };
}
