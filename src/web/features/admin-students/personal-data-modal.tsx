import { useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, ShieldAlert } from 'lucide-react';
import { routes } from '../../../shared/contract/routes.ts';
import { urlOf } from '../../../shared/contract/route.ts';
import { ACCESS_KIND_LABELS, confirmationMatches, ERASE_REASON_MAX_LENGTH } from '../../../shared/lgpd.ts';
import { call, type ApiError } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { invalidateReads, readOf } from '../../lib/query-keys.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { EmailText } from '../../ui/email-text.tsx';
import { FormModal } from '../../ui/form-modal.tsx';
import { Modal } from '../../ui/modal.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { TextAreaField, TextField } from '../../ui/text-field.tsx';
import { GuardiansSection } from './guardians-section.tsx';

const { lgpd } = routes;

type Student = { id: string; name: string; studentId: string };

/** 'Excluir dados pessoais': the name typed again and the reason; irreversible (decision 030). */
function EraseDialog({ student, onClose, onErased }: { student: Student; onClose: () => void; onErased: () => void }) {
  const [confirm, setConfirm] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ confirm?: string; reason?: string }>({});
  const client = useQueryClient();
  const erase = useMutation({
    mutationFn: () => call(lgpd.erase, { params: { id: student.id }, body: { confirm, reason } }),
    onSuccess: (result) => {
      toast.success(result.message);
      invalidateReads(client, [routes.adminStudents.list, routes.students.ranking]);
      onErased();
    },
    onError: (error: ApiError) => {
      if (error.code === 'erase_confirmation_mismatch') setErrors({ confirm: error.message });
      else if (error.code === 'erase_reason_required' || error.code === 'erase_reason_too_long') setErrors({ reason: error.message });
      else toastError(error);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!confirmationMatches(confirm, student.name))
      return setErrors({ confirm: 'Digite o nome do estudante, como aparece acima, para confirmar' });
    if (reason.trim() === '') return setErrors({ reason: 'Informe o motivo da exclusão' });
    setErrors({});
    erase.mutate();
  };
  return (
    <FormModal
      title="Excluir dados pessoais"
      formId="erase-personal-data"
      pending={erase.isPending}
      submitLabel="Excluir dados pessoais"
      submitVariant="danger"
      dirty={confirm !== '' || reason !== ''}
      onClose={onClose}
    >
      <form id="erase-personal-data" noValidate onSubmit={submit} className="flex flex-col gap-4">
        <div className="flex gap-3 rounded-xl bg-rose-50 p-3 text-sm text-rose-900 ring-1 ring-rose-200">
          <ShieldAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <div className="flex flex-col gap-1">
            <p className="font-semibold">Esta ação não pode ser desfeita.</p>
            <p>
              O nome de <strong className="break-words">{student.name}</strong> passa a ser “Aluno removido #n”; email, data de nascimento e
              foto são apagados, as sessões terminam e o acesso fica impossível. As operações continuam no histórico, com o nome anônimo,
              para que os saldos dos colegas e os relatórios fiquem corretos.
            </p>
          </div>
        </div>
        <TextField
          label={`Digite o nome do estudante (${student.name}) para confirmar`}
          autoComplete="off"
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
          error={errors.confirm}
        />
        <TextAreaField
          label="Motivo"
          hint="Por exemplo: pedido da família, com a data do pedido. Fica registrado na auditoria."
          maxLength={ERASE_REASON_MAX_LENGTH}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          error={errors.reason}
        />
      </form>
    </FormModal>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      <dd className="mt-0.5 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * A student's personal data as the coordination opens it (the opening enters the student's access log): email, birth
 * date, the image consent from the signed form, the export of everything, who saw what, and the erasure.
 */
export function PersonalDataModal({ student, onClose }: { student: Student; onClose: () => void }) {
  const client = useQueryClient();
  // Read once per opening: each read is a view the access log records.
  const data = useQuery({ ...readOf(lgpd.personalData, { params: { id: student.id } }), staleTime: Infinity, gcTime: 0 });
  // After the view above is recorded, so the log shows it.
  const log = useQuery({ ...readOf(lgpd.accessLog, { params: { id: student.id } }), enabled: data.isSuccess });
  const [erasing, setErasing] = useState(false);
  // The choice shows at once (the checkbox follows the click); a refusal puts back the stored one.
  const [chosenConsent, setChosenConsent] = useState<boolean | null>(null);
  const consent = useMutation({
    mutationFn: (value: boolean) => call(lgpd.imageConsent, { params: { id: student.id }, body: { consent: value } }),
    onSuccess: (result, value) => {
      toast.success(result.message);
      client.setQueryData(readOf(lgpd.personalData, { params: { id: student.id } }).queryKey, (current: typeof data.data) =>
        current ? { ...current, imageConsent: value } : current,
      );
    },
    onError: (error: ApiError) => {
      setChosenConsent(null);
      toastError(error);
    },
  });
  const exportUrl = urlOf(lgpd.export, { params: { id: student.id } });

  if (erasing) return <EraseDialog student={student} onClose={() => setErasing(false)} onErased={onClose} />;
  return (
    <Modal
      open
      onClose={onClose}
      size="lg"
      title="Dados pessoais"
      description={`${student.name} · matrícula ${student.studentId}`}
      footer={
        <Button variant="secondary" onClick={onClose}>
          Fechar
        </Button>
      }
    >
      {!data.data ? (
        <Spinner className="size-6" />
      ) : (
        <div className="flex flex-col gap-5">
          <dl className="grid gap-3 sm:grid-cols-2">
            <Field label="Email">{data.data.email ? <EmailText email={data.data.email} /> : 'Não informado'}</Field>
            <Field label="Data de nascimento">{data.data.birthDate ? formatDate(data.data.birthDate) : 'Não informada'}</Field>
          </dl>
          <label className="flex min-h-11 cursor-pointer items-start gap-3 rounded-xl bg-slate-50 p-3 text-sm ring-1 ring-slate-200">
            <input
              type="checkbox"
              className="mt-0.5 size-5 shrink-0 accent-indigo-600"
              checked={chosenConsent ?? data.data.imageConsent}
              disabled={consent.isPending}
              onChange={(event) => {
                setChosenConsent(event.target.checked);
                consent.mutate(event.target.checked);
              }}
            />
            <span>
              <span className="font-medium text-slate-900">Consentimento de imagem (formulário assinado)</span>
              <span className="mt-0.5 block text-slate-600">
                Sem ele, os colegas veem as iniciais no lugar da foto. O próprio aluno e a equipe sempre veem a foto.
              </span>
            </span>
          </label>
          <GuardiansSection student={student} />
          <div className="flex flex-col gap-2 sm:flex-row">
            <a
              href={exportUrl}
              download
              className={cn(
                'inline-flex min-h-11 items-center justify-center gap-2 rounded-xl bg-white px-4 text-sm font-semibold text-slate-800',
                'ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
              )}
            >
              <Download aria-hidden="true" className="size-4" />
              Exportar dados pessoais (ZIP)
            </a>
            <Button variant="danger" onClick={() => setErasing(true)}>
              Excluir dados pessoais
            </Button>
          </div>
          <section aria-labelledby="access-log-title">
            <h3 id="access-log-title" className="text-sm font-semibold text-slate-900">
              Quem viu os dados pessoais
            </h3>
            {log.data && log.data.items.length > 0 ? (
              <ul className="mt-2 flex max-h-56 flex-col divide-y divide-slate-100 overflow-y-auto rounded-xl ring-1 ring-slate-200">
                {log.data.items.map((item, index) => (
                  <li
                    key={`${item.at}-${index}`}
                    className="flex flex-col gap-0.5 px-3 py-2 text-sm sm:flex-row sm:justify-between sm:gap-3"
                  >
                    <span className="min-w-0 text-slate-800">
                      <strong className="font-medium">{item.who}</strong> · {ACCESS_KIND_LABELS[item.kind]}
                    </span>
                    <span className="shrink-0 text-slate-600 tabular-nums">{formatDateTime(item.at)}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-1 text-sm text-slate-600">{log.isPending ? 'Carregando…' : 'Ninguém abriu estes dados ainda.'}</p>
            )}
          </section>
        </div>
      )}
    </Modal>
  );
}
