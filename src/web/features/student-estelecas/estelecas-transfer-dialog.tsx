import { useState, type FormEvent } from 'react';
import { toast } from 'react-hot-toast';
import type { PublicStudent } from '../../../shared/auth.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { operationResult, type EstelecasTransferInput } from '../../../shared/ledger.ts';
import { api } from '../../lib/api.ts';
import { formatEstelecas } from '../../lib/format.ts';
import { useIdempotentMutation } from '../../lib/idempotency.ts';
import { useApplyOperationResult } from '../../lib/student-queries.ts';
import { errorMessage } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { Modal } from '../../ui/modal.tsx';
import { RecipientPicker } from '../../ui/recipient-picker.tsx';
import { AmountField } from '../../ui/text-field.tsx';
import { validateEstelecasTransfer } from './estelecas-form.ts';

const FORM_ID = 'estelecas-transfer-form';

/**
 * The Estelecas transfer dialog: a classmate and a whole quantity up to the balance.
 * Mounted only while open, so every opening starts with an empty form.
 */
export function EstelecasTransferDialog({ onClose, balance }: { onClose: () => void; balance: number }) {
  const applyResult = useApplyOperationResult();
  const [search, setSearch] = useState('');
  const [recipient, setRecipient] = useState<PublicStudent | null>(null);
  const [amount, setAmount] = useState('');

  const transfer = useIdempotentMutation({
    mutationFn: (input: EstelecasTransferInput, idempotencyKey: string) =>
      api.post('/estelecas/transfers', input, { idempotencyKey, schema: operationResult }),
    onSuccess: (result) => {
      toast.success(result.message);
      applyResult(result);
      onClose();
    },
    onError: (error) => {
      toast.error(errorMessage(error, ERROR_MESSAGES.transfer_failed));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validateEstelecasTransfer({ recipientId: recipient?.id ?? null, amount }, balance);
    if (!checked.ok) {
      toast.error(checked.message);
      return;
    }
    transfer.submit(checked.input);
  };

  return (
    <Modal
      open
      onClose={onClose}
      dismissible={!transfer.isPending}
      title="Transferir Estelecas"
      description={`Saldo disponível: ${formatEstelecas(balance)}`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={transfer.isPending}>
            Cancelar
          </Button>
          <Button type="submit" form={FORM_ID} loading={transfer.isPending}>
            {transfer.isPending ? 'Transferindo...' : 'Transferir'}
          </Button>
        </>
      }
    >
      <form id={FORM_ID} noValidate onSubmit={submit} className="flex flex-col gap-4">
        <div>
          <p className="mb-2 text-sm font-medium text-slate-800">Destinatário</p>
          <RecipientPicker
            legend="Destinatário"
            selectedId={recipient?.id ?? null}
            onSelect={setRecipient}
            search={search}
            onSearchChange={setSearch}
            listClassName="max-h-60"
          />
        </div>
        <AmountField
          label="Quantidade"
          max={balance}
          value={amount}
          onValueChange={setAmount}
          placeholder="0"
          hint={recipient ? `Para ${recipient.name}` : undefined}
        />
      </form>
    </Modal>
  );
}
