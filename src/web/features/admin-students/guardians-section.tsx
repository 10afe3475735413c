import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FileText, KeyRound, UserMinus } from 'lucide-react';
import { families } from '../../../shared/contract/families.ts';
import type { GuardianCodeResult } from '../../../shared/families.ts';
import { call, type ApiError } from '../../lib/api.ts';
import { downloadAnswer } from '../../lib/file-download.ts';
import { formatDate } from '../../lib/format.ts';
import { paths } from '../../lib/paths.ts';
import { invalidateReads, readOf } from '../../lib/query-keys.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { EmailText } from '../../ui/email-text.tsx';
import { GuardianLetterEmail } from './guardian-letter-email.tsx';

type Guardian = { id: string; name: string };

/**
 * 'Responsáveis' of a student (decision 037): who follows them, removing a link, and a new code for a guardian (shown
 * once; it replaces any code not yet used).
 */
export function GuardiansSection({ student }: { student: { id: string; name: string } }) {
  const client = useQueryClient();
  const read = readOf(families.studentGuardians, { params: { id: student.id } });
  const guardians = useQuery(read);
  const [code, setCode] = useState<GuardianCodeResult>();
  const [removing, setRemoving] = useState<Guardian>();
  const create = useMutation({
    mutationFn: () => call(families.createCode, { params: { id: student.id } }),
    onSuccess: (result) => {
      setCode(result);
      toast.success(result.message);
      invalidateReads(client, [families.studentGuardians]);
    },
    onError: (error: ApiError) => toastError(error),
  });
  const letter = useMutation({
    mutationFn: () => downloadAnswer(families.letters, { studentIds: [student.id] }, 'carta-responsaveis.pdf'),
    onSuccess: () => {
      setCode(undefined);
      toast.success('Carta para responsáveis baixada; os códigos anteriores deixaram de valer');
      invalidateReads(client, [families.studentGuardians]);
    },
    onError: (error: ApiError) => toastError(error),
  });
  const unlink = useMutation({
    mutationFn: (guardian: Guardian) => call(families.unlink, { params: { id: guardian.id, studentId: student.id } }),
    onSuccess: (result) => {
      toast.success(result.message);
      setRemoving(undefined);
      invalidateReads(client, [families.studentGuardians]);
    },
    onError: (error: ApiError) => toastError(error),
  });
  const signupAddress = `${window.location.origin}${paths.guardianSignup}`;
  return (
    <section aria-labelledby="guardians-title" className="flex flex-col gap-2">
      <h3 id="guardians-title" className="text-sm font-semibold text-slate-900">
        Responsáveis
      </h3>
      {guardians.data && guardians.data.guardians.length > 0 ? (
        <ul className="flex flex-col divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200" data-testid="student-guardians">
          {guardians.data.guardians.map((guardian) => (
            <li key={guardian.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
              <span className="min-w-0">
                <span className="block font-medium wrap-anywhere text-slate-900">{guardian.name}</span>
                <span className="block text-slate-600">
                  <EmailText email={guardian.email} /> · desde {formatDate(guardian.linkedAt)}
                </span>
              </span>
              <Button
                variant="secondary"
                size="sm"
                icon={<UserMinus aria-hidden="true" className="size-4" />}
                onClick={() => setRemoving(guardian)}
                aria-label={`Remover ${guardian.name} dos responsáveis`}
              >
                Remover
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">{guardians.isPending ? 'Carregando…' : 'Nenhum responsável acompanha este estudante.'}</p>
      )}
      {guardians.data?.pendingCode && !code && (
        <p className="text-sm text-slate-600">
          Há um código ainda não usado, válido até {formatDate(guardians.data.pendingCode.expiresAt)}.
        </p>
      )}
      {/* Short labels under the section's heading, side by side at their own width, as the dialog's other actions. */}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          loading={letter.isPending}
          icon={<FileText aria-hidden="true" className="size-4" />}
          onClick={() => letter.mutate()}
        >
          Baixar carta (PDF)
        </Button>
        {!code && (
          <Button
            variant="secondary"
            loading={create.isPending}
            icon={<KeyRound aria-hidden="true" className="size-4" />}
            onClick={() => create.mutate()}
          >
            Gerar código
          </Button>
        )}
      </div>
      <GuardianLetterEmail student={student} />
      {code && (
        <div className="flex flex-col gap-1 rounded-2xl bg-indigo-50 p-4 text-sm ring-1 ring-indigo-200">
          <output
            aria-label="Código para responsáveis"
            className="font-mono text-xl font-bold tracking-wide text-slate-900 select-all"
            data-testid="guardian-code"
          >
            {code.code}
          </output>
          <p className="text-slate-700">
            Válido até {formatDate(code.expiresAt)}, uma só vez. O responsável cria a conta em{' '}
            <span className="font-medium break-all">{signupAddress}</span>. O código não será mostrado de novo.
          </p>
        </div>
      )}
      <ConfirmDialog
        open={removing !== undefined}
        title="Remover responsável"
        message={removing ? `${removing.name} deixará de acompanhar ${student.name}.` : ''}
        confirmLabel="Remover"
        pending={unlink.isPending}
        onConfirm={() => removing && unlink.mutate(removing)}
        onCancel={() => setRemoving(undefined)}
      />
    </section>
  );
}
