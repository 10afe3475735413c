import { useState, type FormEvent } from 'react';
import { FileDown } from 'lucide-react';
import { urlOf } from '../../../shared/contract/route.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { refuseOrderInput, STORE_LIMITS, type AdminOrder } from '../../../shared/store.ts';
import { issueMessage } from '../../../shared/validation.ts';
import { isRefusal } from '../../lib/api.ts';
import { formatAmount } from '../../lib/format.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { FormModal } from '../../ui/form-modal.tsx';
import { Modal } from '../../ui/modal.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { TextAreaField } from '../../ui/text-field.tsx';
import { useRefuseOrder } from './store-queries.ts';

/** Who an order is for, in one line: the student and their turma, or the turmas of a goal. */
export function buyerText(order: AdminOrder): string {
  if (order.student) return `${order.student.name} (${order.student.turma})`;
  return `Meta da turma: ${order.turmas.length > 0 ? order.turmas.join(', ') : 'todas as turmas'}`;
}

/** 'Recusar pedido': asks for the reason the student will read; the price goes back at once. */
export function RefuseDialog({ order, onClose }: { order: AdminOrder; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const refuse = useRefuseOrder({
    onSuccess: (result) => {
      toast.success(result.message);
      onClose();
    },
    onError: (failure) => {
      toastError(failure, 'Erro ao recusar pedido');
      // Delivered, cancelled or refused meanwhile (by someone else, or by the student): nothing left to refuse.
      if (isRefusal(failure) && failure.code === 'store_order_not_pending') onClose();
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = refuseOrderInput.safeParse({ reason });
    if (!parsed.success) {
      setError(issueMessage(parsed.error.issues[0]!));
      event.currentTarget.querySelector('textarea')?.focus();
      return;
    }
    refuse.submit({ id: order.id, reason: parsed.data.reason });
  };
  const formId = `refuse-${order.id}`;
  return (
    <FormModal
      onClose={onClose}
      title="Recusar pedido"
      description={`${order.itemName} · ${buyerText(order)}`}
      formId={formId}
      pending={refuse.isPending}
      dirty={reason.trim() !== ''}
      submitLabel="Recusar pedido"
      submitVariant="danger"
    >
      <form id={formId} noValidate onSubmit={submit} className="flex flex-col gap-3">
        <p className="text-sm text-slate-700">
          {formatAmount(order.currency, order.price)} voltam ao saldo {order.student ? 'do aluno' : 'de quem contribuiu'} na hora. O motivo
          aparece para o aluno.
        </p>
        <TextAreaField
          label="Motivo da recusa *"
          value={reason}
          onChange={(event) => {
            setReason(event.target.value);
            setError(undefined);
          }}
          error={error}
          maxLength={STORE_LIMITS.refuseReasonMax}
          hint={`${reason.length}/${STORE_LIMITS.refuseReasonMax} caracteres`}
          disabled={refuse.isPending}
        />
      </form>
    </FormModal>
  );
}

/** 'Lista de entrega': the pending orders of a chosen turma as a PDF to print for the day of hand-outs. */
export function PickListDialog({
  turmas,
  initialTurma,
  onClose,
}: {
  turmas: readonly { id: string; name: string }[];
  initialTurma: string;
  onClose: () => void;
}) {
  const [turma, setTurma] = useState(initialTurma || (turmas[0]?.id ?? ''));
  return (
    <Modal
      open
      onClose={onClose}
      title="Lista de entrega"
      description="Os pedidos pendentes da turma por aluno, com um quadrado para marcar cada entrega."
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Fechar
          </Button>
          {turma && (
            <a
              href={urlOf(routes.store.pickList, { query: { turma } })}
              download
              onClick={() => toast.success('Download iniciado: Lista de entrega')}
              className={
                'inline-flex h-11 items-center justify-center gap-2 rounded-xl bg-indigo-600 px-4 text-sm font-semibold ' +
                'text-white shadow-sm hover:bg-indigo-700 focus-visible:outline-none focus-visible:ring-2 ' +
                'focus-visible:ring-indigo-500 focus-visible:ring-offset-2'
              }
            >
              <FileDown aria-hidden="true" className="size-4" />
              Baixar PDF
            </a>
          )}
        </>
      }
    >
      {turmas.length === 0 ? (
        <p className="text-sm text-slate-700">Nenhuma turma para listar.</p>
      ) : (
        <SelectField
          label="Turma"
          options={turmas.map((option) => ({ value: option.id, label: option.name }))}
          value={turma}
          onChange={(event) => setTurma(event.target.value)}
        />
      )}
    </Modal>
  );
}
