import { formatEstelecas } from '../../lib/format.ts';
import { useTransferForm } from '../../lib/transfer.ts';
import { FormModal } from '../../ui/form-modal.tsx';
import { RecipientPicker } from '../../ui/recipient-picker.tsx';
import { AmountField } from '../../ui/text-field.tsx';
import { TransferConfirmSheet } from '../../ui/transfer-confirm-sheet.tsx';

const FORM_ID = 'estelecas-transfer-form';

/**
 * The Estelecas transfer dialog: a classmate and a whole quantity up to the balance, then the confirmation in its place
 * ('Voltar' brings the form back as it was). Mounted only while open, so every opening starts with an empty form.
 */
export function EstelecasTransferDialog({ onClose, balance }: { onClose: () => void; balance: number }) {
  const transfer = useTransferForm('estelecas', balance);

  if (transfer.confirming) {
    return (
      <TransferConfirmSheet
        transfer={transfer.confirming}
        pending={transfer.isPending}
        onConfirm={transfer.confirm}
        onBack={transfer.back}
      />
    );
  }
  return (
    <FormModal
      onClose={onClose}
      title="Transferir Estelecas"
      description={`Saldo disponível: ${formatEstelecas(balance)}`}
      formId={FORM_ID}
      pending={false}
      submitLabel="Transferir"
    >
      <form id={FORM_ID} noValidate onSubmit={(event) => transfer.send(event)} className="flex flex-col gap-4">
        <div>
          <p className="mb-2 text-sm font-medium text-slate-800">Destinatário</p>
          <RecipientPicker {...transfer.picker} listClassName="max-h-60" />
        </div>
        <AmountField
          label="Quantidade"
          max={balance}
          value={transfer.amount}
          onValueChange={transfer.setAmount}
          placeholder="0"
          hint={transfer.recipient ? `Para ${transfer.recipient.name}` : undefined}
        />
      </form>
    </FormModal>
  );
}
