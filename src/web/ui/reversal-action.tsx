import { useId, useState } from 'react';
import { Undo2 } from 'lucide-react';
import { reversalInput } from '../../shared/ledger.ts';
import { issueMessage } from '../../shared/validation.ts';
import { errorMessage, toast } from '../lib/toast.ts';
import { useMayReverse, useReversal, type ReversibleRow } from '../lib/reversal.ts';
import { Button } from './button.tsx';
import { FormModal } from './form-modal.tsx';
import { TextAreaField } from './text-field.tsx';

/** The dialog that asks why a row is reversed (required, as the server's schema says) and reverses it. */
function ReversalDialog({ row, summary, onClose }: { row: ReversibleRow; summary: string; onClose: () => void }) {
  const formId = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const reversal = useReversal({
    onSuccess: (result) => {
      toast.success(result.message);
      onClose();
    },
    onError: (failure) => setError(errorMessage(failure)),
  });
  return (
    <FormModal
      title="Estornar operação"
      size="sm"
      formId={formId}
      pending={reversal.isPending}
      submitLabel="Estornar"
      submitVariant="danger"
      dirty={reason.trim() !== ''}
      onClose={onClose}
    >
      <form
        id={formId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const parsed = reversalInput.safeParse({ reason });
          if (!parsed.success) return setError(issueMessage(parsed.error.issues[0] ?? {}));
          setError(undefined);
          reversal.submit({ id: row.id, input: parsed.data });
        }}
        className="flex flex-col gap-3"
      >
        <p className="text-sm text-slate-700">
          {summary}. O estorno lança a operação contrária no extrato; a original fica registrada como estornada.
        </p>
        <TextAreaField
          label="Motivo do estorno"
          value={reason}
          maxLength={200}
          onChange={(event) => setReason(event.target.value)}
          error={error}
          data-autofocus
        />
      </form>
    </FormModal>
  );
}

/** 'Estornar' beside a row the member signed in may reverse (their own within 24 hours, any for the coordination); nothing otherwise. */
export function ReversalAction({ row, summary, now }: { row: ReversibleRow; summary: string; now: Date }) {
  const mayReverse = useMayReverse();
  const [open, setOpen] = useState(false);
  if (!mayReverse(row, now)) return null;
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)} aria-label={`Estornar: ${summary}`}>
        <Undo2 aria-hidden="true" className="size-4" />
        Estornar
      </Button>
      {open && <ReversalDialog row={row} summary={summary} onClose={() => setOpen(false)} />}
    </>
  );
}
