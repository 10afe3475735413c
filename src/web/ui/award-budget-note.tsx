import { Wallet } from 'lucide-react';
import { formatAmount } from '../../shared/format.ts';
import { budgetLeftText } from '../../shared/ledger-texts.ts';
import type { Currency } from '../../shared/ledger-types.ts';
import { useAwardBudgetLeft } from '../lib/admin-operation.ts';

/**
 * Beside an award form, what the signed-in teacher may still award this week ('Você ainda pode
 * conceder 340 M$ esta semana'); nothing without a limit (the coordination, a teacher without a budget).
 */
export function AwardBudgetNote({ currency }: { currency: Currency }) {
  const left = useAwardBudgetLeft(currency);
  if (!left) return null;
  return (
    <p
      aria-live="polite"
      className="flex items-start gap-2 rounded-xl bg-sky-50 px-3 py-2 text-sm text-sky-900 ring-1 ring-sky-200 ring-inset"
    >
      <Wallet aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>
        <span className="font-medium">{budgetLeftText(currency, left.remaining)}</span>
        <span className="block text-xs text-sky-800">Limite semanal: {formatAmount(currency, left.weeklyBudget)}</span>
      </span>
    </p>
  );
}
