import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
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
import { receiptPath } from './paths.ts';
import { receiptCode } from '../../shared/receipt-code.ts';

export type TransferInput = MeritusTransferInput | EstelecasTransferInput;

/** What differs between the two transfers: the server's schema (with the spec's texts) and the text for an amount above the balance. */
const RULES: Record<Currency, { schema: typeof meritusTransferInput | typeof estelecasTransferInput; overBalance: ErrorCode }> = {
  meritus: { schema: meritusTransferInput, overBalance: 'insufficient_balance' },
  estelecas: { schema: estelecasTransferInput, overBalance: 'estelecas_invalid_amount' },
};

/** A checked transfer as the student confirms it (TransferConfirmSheet). */
export type TransferToConfirm = {
  currency: Currency;
  recipient: Pick<Recipient, 'name' | 'photo' | 'studentId' | 'grade'>;
  amount: number;
  description?: string | undefined;
  balanceAfter: number;
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
 * A student's transfer form for either currency: the recipient list's state (spread `picker` on a RecipientPicker), the
 * amount, and `send`, which checks the form (a refusal is an error toast and sends nothing) and asks for confirmation
 * (`confirming`, for a TransferConfirmSheet). `confirm` sends it once with its Idempotency-Key, shows the server's
 * message, puts the new balances on screen and opens the transfer's Comprovante; `back` returns to the form as it was.
 */
export function useTransferForm(currency: Currency, balance: number) {
  const applyResult = useApplyOperationResult();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [recipient, setRecipient] = useState<Recipient | null>(null);
  const [amount, setAmount] = useState('');
  const [checked, setChecked] = useState<{ input: TransferInput; confirming: TransferToConfirm } | null>(null);
  const mutation = useIdempotentMutation({
    mutationFn: (input: TransferInput, idempotencyKey: string) => call(CURRENCY_ROUTES[currency].transfer, { body: input, idempotencyKey }),
    onSuccess: (result) => {
      toast.success(result.message);
      applyResult(result);
      void navigate(receiptPath(receiptCode(result.entry.id)), { state: { justSent: true } });
    },
    onError: (error) => {
      toastError(error, ERROR_MESSAGES.transfer_failed);
    },
  });
  const send = (event: FormEvent, description?: string) => {
    event.preventDefault();
    const result = validateTransfer(currency, { recipientId: recipient?.id ?? null, amount, description }, balance);
    if (!result.ok || !recipient) {
      toast.error(result.ok ? ERROR_MESSAGES.missing_fields : result.message);
      return;
    }
    const input = result.input;
    setChecked({
      input,
      confirming: {
        currency,
        recipient,
        amount: input.amount,
        description: 'description' in input ? input.description : undefined,
        balanceAfter: balance - input.amount,
      },
    });
  };
  return {
    recipient,
    amount,
    setAmount,
    picker: { legend: 'Destinatário', selectedId: recipient?.id ?? null, onSelect: setRecipient, search, onSearchChange: setSearch },
    send,
    confirming: checked?.confirming ?? null,
    confirm: () => {
      if (checked) mutation.submit(checked.input);
    },
    back: () => setChecked(null),
    isPending: mutation.isPending,
  };
}
