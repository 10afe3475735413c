import { useState } from 'react';
import { ADMIN_STUDENT_TEXTS, type AdminStudent, type PasswordResetResult } from '../../../shared/admin-students.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Modal } from '../../ui/modal.tsx';
import { OneTimePassword } from '../../ui/one-time-password.tsx';
import { useResetPassword } from './students-queries.ts';

/** Asks, generates a new password on the server, and shows it this once with a copy button. */
export function PasswordResetDialog({ student, onClose }: { student: AdminStudent; onClose: () => void }) {
  const reset = useResetPassword();
  const [result, setResult] = useState<PasswordResetResult | null>(null);

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
        <OneTimePassword password={result.password} label="Nova senha" testId="new-password" />
        <p className="text-sm text-slate-700">
          Entregue esta senha ao aluno. Ela não será mostrada novamente depois que você fechar esta janela.
        </p>
      </div>
    </Modal>
  );
}
