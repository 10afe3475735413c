import { useState } from 'react';
import { ArrowLeftRight, Send, UserRoundSearch } from 'lucide-react';
import type { Recipient } from '../../../shared/students.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { formatMeritus } from '../../lib/format.ts';
import { exceedsBalance, useTransferForm } from '../../lib/transfer.ts';
import { useSession } from '../../lib/session.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { RecipientPicker } from '../../ui/recipient-picker.tsx';
import { AmountField, DescriptionField } from '../../ui/text-field.tsx';
import { StudentIdentity } from '../../ui/student-identity.tsx';
import { TransferConfirmSheet } from '../../ui/transfer-confirm-sheet.tsx';

function SelectedRecipient({ recipient }: { recipient: Recipient | null }) {
  if (!recipient) {
    return (
      <div className="flex items-center gap-3 rounded-xl border border-dashed border-slate-300 p-3 text-sm text-slate-600">
        <UserRoundSearch aria-hidden="true" className="size-5 shrink-0" />
        Escolha um colega na lista
      </div>
    );
  }
  return (
    <div className="flex items-center gap-3 rounded-xl bg-indigo-50 p-3 ring-1 ring-indigo-200" data-testid="selected-recipient">
      <StudentIdentity student={recipient} />
    </div>
  );
}

/** /student/transfer: choose a classmate, an amount up to the balance and an optional note. */
export default function StudentTransferPage() {
  const { user } = useSession();
  const [description, setDescription] = useState('');
  const balance = user?.role === 'student' ? user.student.meritus : 0;
  const transfer = useTransferForm('meritus', balance);

  if (user?.role !== 'student') return null;
  const tooMuch = exceedsBalance(transfer.amount, balance);

  return (
    <div>
      <PageHeader title="Transferir M$" description="Envie Méritus para um colega" icon={ArrowLeftRight} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-5">
        <Card title="Destinatário" className="lg:col-span-3">
          <RecipientPicker {...transfer.picker} listClassName="max-h-[26rem] lg:max-h-[32rem]" />
        </Card>
        <Card title="Detalhes da transferência" className="self-start lg:sticky lg:top-8 lg:col-span-2">
          <form
            noValidate
            onSubmit={(event) => transfer.send(event, description)}
            className="flex flex-col gap-4"
            aria-label="Transferir Méritus"
          >
            <SelectedRecipient recipient={transfer.recipient} />
            <AmountField
              label="Valor (M$)"
              max={balance}
              value={transfer.amount}
              onValueChange={transfer.setAmount}
              error={tooMuch ? ERROR_MESSAGES.insufficient_balance : undefined}
              hint={`Saldo disponível: ${formatMeritus(balance)}`}
              placeholder="0"
            />
            <DescriptionField
              label="Descrição (opcional)"
              rows={3}
              value={description}
              onValueChange={setDescription}
              placeholder="Ex.: Obrigado pela ajuda no trabalho!"
            />
            <Button type="submit" size="lg" fullWidth disabled={tooMuch} icon={<Send aria-hidden="true" className="size-4" />}>
              Transferir
            </Button>
          </form>
        </Card>
      </div>
      {transfer.confirming && (
        <TransferConfirmSheet
          transfer={transfer.confirming}
          pending={transfer.isPending}
          onConfirm={transfer.confirm}
          onBack={transfer.back}
        />
      )}
    </div>
  );
}
