import { Check } from 'lucide-react';
import type { TransferToConfirm } from '../lib/transfer.ts';
import { formatAmount } from '../lib/format.ts';
import { Avatar } from './avatar.tsx';
import { Button } from './button.tsx';
import { Modal } from './modal.tsx';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-2.5">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="text-right text-sm font-semibold wrap-anywhere text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * What a student checks before a transfer leaves, as a bank's Pix does: who receives it (photo, name, turma), how much,
 * the note and the balance after. Nothing is sent until 'Confirmar transferência'; 'Voltar' returns to the form as it was.
 */
export function TransferConfirmSheet({
  transfer,
  pending,
  onConfirm,
  onBack,
}: {
  transfer: TransferToConfirm;
  pending: boolean;
  onConfirm: () => void;
  onBack: () => void;
}) {
  const { currency, recipient, amount, description, balanceAfter } = transfer;
  return (
    <Modal
      open
      onClose={onBack}
      dismissible={!pending}
      size="sm"
      title="Confirme a transferência"
      footer={
        <>
          <Button variant="secondary" onClick={onBack} disabled={pending}>
            Voltar
          </Button>
          <Button onClick={onConfirm} loading={pending} icon={<Check aria-hidden="true" className="size-4" />}>
            {pending ? 'Transferindo...' : 'Confirmar transferência'}
          </Button>
        </>
      }
    >
      <div className="flex flex-col items-center gap-2 pb-3 text-center" data-testid="confirm-recipient">
        <Avatar name={recipient.name} src={recipient.photo} size="lg" />
        <p className="text-base font-semibold wrap-anywhere text-slate-900">{recipient.name}</p>
        <p className="text-sm text-slate-600">
          {recipient.grade} · Matrícula {recipient.studentId}
        </p>
      </div>
      <p className="rounded-2xl bg-indigo-50 py-3 text-center text-3xl font-bold text-indigo-900 tabular-nums">
        <span className="sr-only">Valor: </span>
        {formatAmount(currency, amount)}
      </p>
      <dl className="mt-2 divide-y divide-slate-100">
        {/* An Estelecas transfer carries no note. */}
        {currency === 'meritus' && (
          <Fact label="Descrição">{description ?? <span className="font-normal text-slate-600">Sem descrição</span>}</Fact>
        )}
        <Fact label="Saldo depois">{formatAmount(currency, balanceAfter)}</Fact>
      </dl>
    </Modal>
  );
}
