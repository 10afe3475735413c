import { useState, type FormEvent } from 'react';
import { toast } from 'react-hot-toast';
import type { Recipient } from '../../shared/students.ts';
import { ERROR_MESSAGES, type ErrorCode } from '../../shared/errors.ts';
import {
  estelecasTransferInput,
  meritusTransferInput,
  type EstelecasTransferInput,
  type MeritusTransferInput,
} from '../../shared/ledger.ts';
import type { Currency } from '../../shared/ledger-types.ts';
import { issueMessage, parseAmountText } from '../../shared/validation.ts';
import { CURRENCY_ROUTES } from '../../shared/contract/ledger.ts';
import { call } from './api.ts';
import { useIdempotentMutation } from './idempotency.ts';
import { useApplyOperationResult } from './student-queries.ts';
import { toastError } from './toast.ts';

export type TransferInput = MeritusTransferInput | EstelecasTransferInput;

/** What differs between the two transfers: the server's schema (with the spec's texts) and the text for an amount above the balance. */
const RULES: Record<Currency, { schema: typeof meritusTransferInput | typeof estelecasTransferInput; overBalance: ErrorCode }> = {
  meritus: { schema: meritusTransferInput, overBalance: 'insufficient_balance' },
  estelecas: { schema: estelecasTransferInput, overBalance: 'estelecas_invalid_amount' },
};

export type TransferDraft = { recipientId: string | null; amount: string; description?: string };

/** True when the typed amount is a number above the balance: the Méritus form's inline 'Saldo insuficiente'. */
export function exceedsBalance(text: string, balance: number): boolean {
  const amount = parseAmountText(text);
  return amount !== undefined && Number.isFinite(amount) && amount > balance;
}

/**
 * Checks a transfer form with the schema the server uses, then the balance, in the spec's
 * order: missing fields, an amount that is not a whole number above zero, more than the balance.
 */
export function validateTransfer(
  currency: Currency,
  draft: TransferDraft,
  balance: number,
): { ok: true; input: TransferInput } | { ok: false; message: string } {
  const rules = RULES[currency];
  const parsed = rules.schema.safeParse({
    recipientId: draft.recipientId ?? undefined,
    amount: parseAmountText(draft.amount),
    description: draft.description,
  });
  if (!parsed.success) return { ok: false, message: issueMessage(parsed.error.issues[0] ?? {}) };
  if (parsed.data.amount > balance) return { ok: false, message: ERROR_MESSAGES[rules.overBalance] };
  return { ok: true, input: parsed.data };
}

/**
 * A student's transfer form for either currency: the recipient list's state (spread
 * `picker` on a RecipientPicker), the amount, and `send`, which checks the form (a refusal
 * is an error toast and sends nothing), sends it once per submission with its
 * Idempotency-Key, shows the server's message, puts the new balances on screen, empties the
 * form and calls `onSent`.
 */
export function useTransferForm(currency: Currency, balance: number, onSent: () => void) {
  const applyResult = useApplyOperationResult();
  const [search, setSearch] = useState('');
  const [recipient, setRecipient] = useState<Recipient | null>(null);
  const [amount, setAmount] = useState('');
  const mutation = useIdempotentMutation({
    mutationFn: (input: TransferInput, idempotencyKey: string) => call(CURRENCY_ROUTES[currency].transfer, { body: input, idempotencyKey }),
    onSuccess: (result) => {
      toast.success(result.message);
      applyResult(result);
      setSearch('');
      setRecipient(null);
      setAmount('');
      onSent();
    },
    onError: (error) => {
      toastError(error, ERROR_MESSAGES.transfer_failed);
    },
  });
  const send = (event: FormEvent, description?: string) => {
    event.preventDefault();
    const checked = validateTransfer(currency, { recipientId: recipient?.id ?? null, amount, description }, balance);
    if (checked.ok) mutation.submit(checked.input);
    else toast.error(checked.message);
  };
  return {
    recipient,
    amount,
    setAmount,
    picker: { legend: 'Destinatário', selectedId: recipient?.id ?? null, onSelect: setRecipient, search, onSearchChange: setSearch },
    send,
    isPending: mutation.isPending,
  };
}
