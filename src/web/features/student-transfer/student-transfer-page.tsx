import { useState, type FormEvent } from 'react';
import { ArrowLeftRight, Send, UserRoundSearch } from 'lucide-react';
import { toast } from 'react-hot-toast';
import type { PublicStudent } from '../../../shared/auth.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { operationResult, type MeritusTransferInput } from '../../../shared/ledger.ts';
import { api } from '../../lib/api.ts';
import { formatMeritus } from '../../lib/format.ts';
import { useIdempotentMutation } from '../../lib/idempotency.ts';
import { useApplyOperationResult } from '../../lib/student-queries.ts';
import { errorMessage } from '../../lib/toast.ts';
import { useSession } from '../../app/session.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { RecipientPicker } from '../../ui/recipient-picker.tsx';
import { AmountField, TextAreaField } from '../../ui/text-field.tsx';
import { exceedsBalance, validateTransfer } from './transfer-form.ts';
import { StudentIdentity } from '../../ui/student-identity.tsx';

function SelectedRecipient({ recipient }: { recipient: PublicStudent | null }) {
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
  const applyResult = useApplyOperationResult();
  const [search, setSearch] = useState('');
  const [recipient, setRecipient] = useState<PublicStudent | null>(null);
  const [amount, setAmount] = useState('');
  const [description, setDescription] = useState('');

  const transfer = useIdempotentMutation({
    mutationFn: (input: MeritusTransferInput, idempotencyKey: string) =>
      api.post('/meritus/transfers', input, { idempotencyKey, schema: operationResult }),
    onSuccess: (result) => {
      toast.success(result.message);
      applyResult(result);
      setRecipient(null);
      setAmount('');
      setDescription('');
      setSearch('');
    },
    onError: (error) => {
      toast.error(errorMessage(error, ERROR_MESSAGES.transfer_failed));
    },
  });

  if (user?.role !== 'student') return null;
  const balance = user.student.meritus;
  const tooMuch = exceedsBalance(amount, balance);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validateTransfer({ recipientId: recipient?.id ?? null, amount, description }, balance);
    if (!checked.ok) {
      toast.error(checked.message);
      return;
    }
    transfer.submit(checked.input);
  };

  return (
    <div>
      <PageHeader title="Transferir M$" description="Envie Méritus para um colega" icon={<ArrowLeftRight className="size-6" />} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-5">
        <Card title="Destinatário" className="lg:col-span-3">
          <RecipientPicker
            legend="Destinatário"
            selectedId={recipient?.id ?? null}
            onSelect={setRecipient}
            search={search}
            onSearchChange={setSearch}
            listClassName="max-h-[26rem] lg:max-h-[32rem]"
          />
        </Card>
        <Card title="Detalhes da transferência" className="self-start lg:sticky lg:top-8 lg:col-span-2">
          <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-label="Transferir Méritus">
            <SelectedRecipient recipient={recipient} />
            <AmountField
              label="Valor (M$)"
              max={balance}
              value={amount}
              onValueChange={setAmount}
              error={tooMuch ? ERROR_MESSAGES.insufficient_balance : undefined}
              hint={`Saldo disponível: ${formatMeritus(balance)}`}
              placeholder="0"
            />
            <TextAreaField
              label="Descrição (opcional)"
              rows={3}
              maxLength={200}
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              placeholder="Ex.: Obrigado pela ajuda no trabalho!"
            />
            <Button type="submit" size="lg" fullWidth disabled={tooMuch} loading={transfer.isPending} icon={<Send aria-hidden="true" className="size-4" />}>
              {transfer.isPending ? 'Transferindo...' : 'Transferir'}
            </Button>
          </form>
        </Card>
      </div>
    </div>
  );
}
