import { useState } from 'react';
import { Check, Copy, KeyRound } from 'lucide-react';
import { ADMIN_STUDENT_TEXTS, type AdminStudent, type PasswordResetResult } from '../../../shared/admin-students.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Modal } from '../../ui/modal.tsx';
import { useResetPassword } from './students-queries.ts';

/** Asks, generates a new password on the server, and shows it this once with a copy button. */
export function PasswordResetDialog({ student, onClose }: { student: AdminStudent; onClose: () => void }) {
  const reset = useResetPassword();
  const [result, setResult] = useState<PasswordResetResult | null>(null);
  const [copied, setCopied] = useState(false);

  if (!result) {
    return (
      <ConfirmDialog
        open
        title="Redefinir senha"
        message={
          <div className="flex flex-col gap-2">
            <p>
              Gerar uma nova senha para <strong>{student.name}</strong> (matrícula {student.studentId})?
            </p>
            <p>A senha atual deixa de funcionar e as sessões abertas do aluno são encerradas.</p>
          </div>
        }
        confirmLabel="Gerar nova senha"
        tone="primary"
        pending={reset.isPending}
        onCancel={onClose}
        onConfirm={() =>
          reset.mutate(student, {
            onSuccess: (value) => {
              setResult(value);
              toast.success(value.message);
            },
            onError: (error) => toastError(error, ADMIN_STUDENT_TEXTS.saveError),
          })
        }
      />
    );
  }

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(result.password);
      setCopied(true);
      toast.success('Senha copiada');
    } catch {
      toast.error('Erro ao copiar para área de transferência');
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      size="sm"
      title="Nova senha"
      description={`${student.name} · matrícula ${student.studentId}`}
      footer={<Button onClick={onClose}>Concluir</Button>}
    >
      <div className="flex flex-col gap-4">
        <div className="flex items-center gap-2 rounded-2xl bg-indigo-50 p-4 ring-1 ring-indigo-200">
          <KeyRound aria-hidden="true" className="size-5 shrink-0 text-indigo-700" />
          <output aria-label="Nova senha" className="flex-1 font-mono text-xl font-bold tracking-wide text-slate-900 select-all" data-testid="new-password">
            {result.password}
          </output>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void copy()}
            icon={copied ? <Check aria-hidden="true" className="size-4" /> : <Copy aria-hidden="true" className="size-4" />}
          >
            {copied ? 'Copiada' : 'Copiar'}
          </Button>
        </div>
        <p className="text-sm text-slate-700">Entregue esta senha ao aluno. Ela não será mostrada novamente depois que você fechar esta janela.</p>
      </div>
    </Modal>
  );
}
