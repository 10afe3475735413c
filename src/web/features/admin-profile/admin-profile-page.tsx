import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { UserRound } from 'lucide-react';
import { routes } from '../../../shared/contract/routes.ts';
import { isStaffUser } from '../../../shared/areas.ts';
import type { SessionUser } from '../../../shared/auth.ts';
import { STAFF_ROLE_LABELS } from '../../../shared/permissions.ts';
import { ownProfileInput, STAFF_TEXTS } from '../../../shared/staff.ts';
import { issueFields } from '../../../shared/validation.ts';
import { call, isRefusal, type ApiError } from '../../lib/api.ts';
import { queryKeyOf } from '../../lib/query-keys.ts';
import { useSession } from '../../lib/session.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { EmailText } from '../../ui/email-text.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { TextField } from '../../ui/text-field.tsx';

/** Saves the member's own name; the answer is who is signed in now, so the greeting and the sidebar follow at once. */
function useSaveOwnName() {
  const client = useQueryClient();
  return useMutation<SessionUser, ApiError, string>({
    mutationFn: (name) => call(routes.staff.updateOwnProfile, { body: { name } }),
    onSuccess: (user) => {
      client.setQueryData(queryKeyOf(routes.auth.me), user);
      toast.success(STAFF_TEXTS.profileSaved);
    },
    onError: (error) => {
      if (!isRefusal(error)) toastError(error);
    },
  });
}

/** /admin/profile: the member's own account. Their name is theirs to change (the first coordinator starts as 'Administrador'). */
export default function AdminProfilePage() {
  const { user } = useSession();
  const save = useSaveOwnName();
  const admin = isStaffUser(user) ? user.admin : null;
  const [name, setName] = useState(admin?.name ?? '');
  const [error, setError] = useState<string>();
  if (!admin) return null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ownProfileInput.safeParse({ name });
    setError(parsed.success ? undefined : issueFields(parsed.error.issues).name);
    if (parsed.success) save.mutate(parsed.data.name);
  };

  const refusal = isRefusal(save.error) ? (save.error.fields?.name ?? save.error.message) : undefined;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Meu perfil" description="Sua conta na equipe da escola." icon={UserRound} />
      <Card title="Seu nome">
        <form onSubmit={submit} noValidate className="flex flex-col gap-4 sm:max-w-lg">
          <TextField
            label="Nome"
            hint="Aparece na saudação do Dashboard e em “por …” nas operações que você fizer."
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setError(undefined);
              save.reset();
            }}
            error={error ?? refusal}
            autoComplete="name"
            maxLength={120}
          />
          <div>
            <Button type="submit" loading={save.isPending}>
              Salvar nome
            </Button>
          </div>
        </form>
      </Card>
      <Card title="Acesso">
        <dl className="grid gap-3 text-sm sm:grid-cols-[10rem_1fr]">
          <dt className="font-medium text-slate-600">Email</dt>
          <dd className="text-slate-900">
            <EmailText email={admin.email} />
          </dd>
          <dt className="font-medium text-slate-600">Papel</dt>
          <dd className="text-slate-900">{STAFF_ROLE_LABELS[admin.role]}</dd>
          {admin.role === 'teacher' && (
            <>
              <dt className="font-medium text-slate-600">Turmas</dt>
              <dd className="text-slate-900">
                {admin.turmas.length === 0 ? 'Nenhuma turma atribuída' : admin.turmas.map((turma) => turma.name).join(', ')}
              </dd>
            </>
          )}
        </dl>
        <p className="mt-3 text-xs text-slate-600">Email, papel e turmas são mudados pela coordenação, em Configurações › Equipe.</p>
      </Card>
    </div>
  );
}
