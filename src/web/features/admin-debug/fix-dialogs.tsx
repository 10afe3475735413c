import { DEFAULT_ADMIN, FIX_LABELS, type FixAdministratorsResult, type FixPreview } from '../../../shared/system.ts';
import { countOf } from '../../lib/format.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog, type ConfirmDialogProps } from '../../ui/confirm-dialog.tsx';
import { Modal } from '../../ui/modal.tsx';
import { EmailText } from '../../ui/email-text.tsx';
import { OneTimePassword } from '../../ui/one-time-password.tsx';
import { STAFF_ROLE_LABELS } from '../../../shared/permissions.ts';

/** Both fixes are asked before they are applied. */
type FixConfirmProps = { pending: boolean; onConfirm: () => void; onCancel: () => void };

function ConfirmFix(props: FixConfirmProps & Pick<ConfirmDialogProps, 'open' | 'title' | 'message' | 'tone'>) {
  return <ConfirmDialog confirmLabel="Aplicar correção" {...props} />;
}

/** What 'Corrigir Administrators' will do, asked before it is done. */
export function FixAdministratorsDialog(props: FixConfirmProps & { open: boolean }) {
  return (
    <ConfirmFix
      {...props}
      title="Corrigir Administrators"
      tone="primary"
      message={
        <div className="flex flex-col gap-2">
          <p>
            Cria o administrador padrão <strong>{DEFAULT_ADMIN.name}</strong> ({DEFAULT_ADMIN.adminId}, função{' '}
            {STAFF_ROLE_LABELS[DEFAULT_ADMIN.role]}, com todas as permissões) <strong>somente se não houver nenhum administrador</strong>.
            Se já existir um, nada muda.
          </p>
          <p>A senha é gerada agora e mostrada uma única vez. Depois o diagnóstico é executado de novo.</p>
        </div>
      }
    />
  );
}

/** The created administrator's credentials, shown this once with a copy button. */
export function NewAdminPasswordDialog({ result, onClose }: { result: FixAdministratorsResult; onClose: () => void }) {
  if (!result.admin || !result.password) return null;

  return (
    <Modal
      open
      onClose={onClose}
      size="sm"
      title="Administrador criado"
      description={
        <>
          {result.admin.name} · <EmailText email={result.admin.email} />
        </>
      }
      footer={<Button onClick={onClose}>Concluir</Button>}
    >
      <div className="flex flex-col gap-4">
        <OneTimePassword password={result.password} label="Senha do administrador" testId="new-admin-password" />
        <p className="text-sm text-slate-700">
          Entre com o email{' '}
          <strong>
            <EmailText email={result.admin.email} />
          </strong>{' '}
          e esta senha. Ela não será mostrada novamente depois que você fechar esta janela.
        </p>
      </div>
    </Modal>
  );
}

/** The preview of a fix: every change it will make, applied only on confirmation. */
export function FixPreviewDialog({ preview, ...confirm }: FixConfirmProps & { preview: FixPreview }) {
  const count = preview.items.length;
  return (
    <ConfirmFix
      {...confirm}
      open
      title={FIX_LABELS[preview.fix]}
      message={
        <div className="flex flex-col gap-3">
          <p>Esta correção vai alterar {countOf(count, 'item', 'itens')}:</p>
          <ul
            aria-label="Itens a corrigir"
            tabIndex={0}
            className="max-h-64 list-disc overflow-y-auto rounded-xl bg-slate-50 py-2 pr-3 pl-7 text-slate-800"
          >
            {preview.items.map((item) => (
              <li key={item.key} className="py-0.5 wrap-anywhere">
                {item.label}
              </li>
            ))}
          </ul>
          <p>A alteração fica registrada no log (FIX) e na auditoria.</p>
        </div>
      }
    />
  );
}
