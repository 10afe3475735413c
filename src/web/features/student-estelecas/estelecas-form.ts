import { estelecasTransferInput, type EstelecasTransferInput } from '../../../shared/ledger.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { issueMessage, parseAmountText } from '../../../shared/validation.ts';

/**
 * The Estelecas dialog's checks, with the spec's texts: both fields required ('Preencha
 * todos os campos'), a whole quantity between 1 and the balance ('Quantidade inválida ou
 * insuficiente').
 */
export function validateEstelecasTransfer(
  draft: { recipientId: string | null; amount: string },
  balance: number,
): { ok: true; input: EstelecasTransferInput } | { ok: false; message: string } {
  const parsed = estelecasTransferInput.safeParse({
    recipientId: draft.recipientId ?? undefined,
    amount: parseAmountText(draft.amount),
  });
  if (!parsed.success) return { ok: false, message: issueMessage(parsed.error.issues[0] ?? {}) };
  if (parsed.data.amount > balance) return { ok: false, message: ERROR_MESSAGES.estelecas_invalid_amount };
  return { ok: true, input: parsed.data };
}
