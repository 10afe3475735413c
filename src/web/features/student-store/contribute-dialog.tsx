import { useState, type FormEvent } from 'react';
import type { StudentStoreItem } from '../../../shared/store.ts';
import { CURRENCY_LABELS } from '../../../shared/ledger-texts.ts';
import { formatAmount } from '../../lib/format.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { FormModal } from '../../ui/form-modal.tsx';
import { AmountField } from '../../ui/text-field.tsx';
import { checkContribution, goalProgress, overLimit } from './store-figures.ts';
import { useContribute } from './store-queries.ts';

const FORM_ID = 'store-contribution-form';

/**
 * Contributing to a turma goal, like a transfer to it: an amount up to the balance and to what the goal still needs,
 * checked as it is typed and on sending, then one confirmation (amount, goal, balance after). Mounted only while open.
 */
export function ContributeDialog({ item, balance, onClose }: { item: StudentStoreItem; balance: number; onClose: () => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [confirming, setConfirming] = useState<number | null>(null);
  const contribute = useContribute(onClose);
  const { left } = goalProgress(item);
  const unit = item.currency === 'meritus' ? 'M$' : CURRENCY_LABELS.estelecas;

  const review = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkContribution(text, balance, left);
    if (checked.ok) setConfirming(checked.amount);
    else setError(checked.message);
  };

  if (confirming !== null) {
    return (
      <ConfirmDialog
        open
        title="Confirmar contribuição"
        tone="primary"
        confirmLabel="Contribuir"
        cancelLabel="Voltar"
        pending={contribute.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => contribute.submit({ itemId: item.id, amount: confirming })}
        message={
          <dl className="flex flex-col gap-2">
            <div className="flex justify-between gap-3">
              <dt>Meta</dt>
              <dd className="text-right font-semibold wrap-anywhere text-slate-900">{item.name}</dd>
            </div>
            <div className="flex justify-between gap-3">
              <dt>Contribuição</dt>
              <dd className="font-semibold text-slate-900 tabular-nums">{formatAmount(item.currency, confirming)}</dd>
            </div>
            <div className="flex justify-between gap-3">
              <dt>Saldo após</dt>
              <dd className="font-semibold text-slate-900 tabular-nums">{formatAmount(item.currency, balance - confirming)}</dd>
            </div>
          </dl>
        }
      />
    );
  }

  return (
    <FormModal
      onClose={onClose}
      title={`Contribuir para ${item.name}`}
      description={`Faltam ${formatAmount(item.currency, left)} para a meta`}
      formId={FORM_ID}
      pending={false}
      submitLabel="Continuar"
    >
      <form id={FORM_ID} noValidate onSubmit={review} className="flex flex-col gap-4">
        <AmountField
          label={`Valor (${unit})`}
          value={text}
          onValueChange={(value) => {
            setText(value);
            setError(undefined);
          }}
          max={Math.min(balance, left)}
          error={error ?? overLimit(text, balance, left)}
          hint={`Saldo disponível: ${formatAmount(item.currency, balance)}`}
          placeholder="0"
        />
      </form>
    </FormModal>
  );
}
