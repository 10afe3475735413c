import { useId, useState, type FormEvent } from 'react';
import { KeyRound, Pencil, UserPlus, UserRoundCheck, UserRoundX } from 'lucide-react';
import { STAFF_ROLE_LABELS, STAFF_ROLES, type StaffRole } from '../../../shared/permissions.ts';
import { SETTINGS_TEXTS, type Turma } from '../../../shared/settings.ts';
import { createStaffInput, STAFF_TEXTS, type StaffMember } from '../../../shared/staff.ts';
import { issueFields } from '../../../shared/validation.ts';
import { isStaffUser } from '../../../shared/areas.ts';
import { isRefusal, type ApiError } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { offeredTurmas, useSchoolSettings } from '../../lib/school-settings.ts';
import { useSession } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { FormAlert } from '../../ui/form-alert.tsx';
import { FormModal } from '../../ui/form-modal.tsx';
import { OneTimePassword } from '../../ui/one-time-password.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { EmailText } from '../../ui/email-text.tsx';
import { BudgetFields, budgetSummary, budgetText, parseBudget, type BudgetText } from './budget-fields.tsx';
import { useCreateStaff, useResetStaffPassword, useStaff, useUpdateStaff } from './staff-queries.ts';

const ROLE_OPTIONS = STAFF_ROLES.map((role) => ({ value: role, label: STAFF_ROLE_LABELS[role] }));

/**
 * A refusal's messages (the server's, from the catalogue) under the form's own names; one about no field (the last
 * coordinator, one's own role) under 'body', shown above the buttons rather than only in a toast that leaves.
 */
function refusalFields(error: ApiError | null): Record<string, string> {
  if (!isRefusal(error)) return {};
  if (!error.fields) return { body: error.message };
  return Object.fromEntries(Object.entries(error.fields).map(([path, message]) => [path.replace('weeklyBudget.', ''), message]));
}

/** The turmas a teacher may be given: the active ones, and any retired one they already have. */
function TurmaChoices({
  turmas,
  selected,
  onChange,
  error,
}: {
  turmas: readonly Turma[];
  selected: readonly string[];
  onChange: (ids: string[]) => void;
  error?: string | undefined;
}) {
  const messageId = useId();
  const offered = offeredTurmas(turmas, (turma) => selected.includes(turma.id));
  return (
    <fieldset className="md:col-span-2" aria-describedby={error ? messageId : undefined}>
      <legend className="mb-1.5 text-sm font-medium text-slate-800">Turmas</legend>
      <div className="grid max-h-56 gap-x-4 overflow-y-auto rounded-xl border border-slate-200 p-2 sm:grid-cols-2">
        {offered.map((turma) => (
          <label key={turma.id} className="flex min-h-11 cursor-pointer items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="size-5 shrink-0 accent-indigo-600"
              checked={selected.includes(turma.id)}
              onChange={(event) => onChange(event.target.checked ? [...selected, turma.id] : selected.filter((id) => id !== turma.id))}
            />
            {turma.name}
            {turma.retired && <span className="text-slate-600">(desativada)</span>}
          </label>
        ))}
      </div>
      {error ? (
        <p id={messageId} role="alert" className="mt-1.5 text-sm font-medium text-rose-700">
          {error}
        </p>
      ) : (
        <p className="mt-1.5 text-xs text-slate-600">O professor vê e premia só os alunos das suas turmas.</p>
      )}
    </fieldset>
  );
}

/** Adding a member: name, email, role and, for a teacher, turmas; the budget is the school's default (Regras). */
function AddDialog({
  turmas,
  onClose,
  onCreated,
}: {
  turmas: readonly Turma[];
  onClose: () => void;
  onCreated: (member: StaffMember, password: string | null) => void;
}) {
  const formId = useId();
  const create = useCreateStaff();
  const [values, setValues] = useState({ name: '', email: '', role: 'teacher' as StaffRole, turmaIds: [] as string[] });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const shown = { ...refusalFields(create.error), ...errors };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = { ...values, turmaIds: values.role === 'teacher' ? values.turmaIds : [] };
    const parsed = createStaffInput.safeParse(input);
    setErrors(parsed.success ? {} : issueFields(parsed.error.issues));
    if (!parsed.success) return;
    create.reset();
    create.mutate(input, {
      onSuccess: ({ password, ...member }) => {
        toast.success(STAFF_TEXTS.created(member.name));
        onCreated(member, password);
      },
    });
  };
  return (
    <FormModal
      title="Adicionar membro da equipe"
      description="Uma senha é gerada e mostrada uma única vez."
      formId={formId}
      pending={create.isPending}
      submitLabel="Adicionar"
      dirty={values.name !== '' || values.email !== ''}
      onClose={onClose}
      size="lg"
    >
      <form id={formId} noValidate onSubmit={submit} className="grid gap-4 md:grid-cols-2">
        <TextField
          label="Nome"
          value={values.name}
          onChange={(event) => setValues({ ...values, name: event.target.value })}
          error={shown.name}
          autoComplete="off"
          maxLength={120}
        />
        <TextField
          label="Email"
          type="email"
          value={values.email}
          onChange={(event) => setValues({ ...values, email: event.target.value })}
          error={shown.email}
          autoComplete="off"
        />
        <SelectField
          label="Papel"
          options={ROLE_OPTIONS}
          value={values.role}
          onChange={(event) => setValues({ ...values, role: event.target.value as StaffRole })}
          error={shown.role}
          hint={values.role === 'coordinator' ? 'A coordenação vê todas as turmas e gerencia a escola.' : undefined}
        />
        {values.role === 'teacher' && (
          <TurmaChoices
            turmas={turmas}
            selected={values.turmaIds}
            onChange={(turmaIds) => setValues({ ...values, turmaIds })}
            error={shown.turmaIds}
          />
        )}
        <div className="md:col-span-2">
          <FormAlert message={shown.body} />
        </div>
      </form>
    </FormModal>
  );
}

/** Editing a member: role, turmas, weekly budget and whether they may sign in. */
function EditDialog({
  member,
  turmas,
  self,
  onClose,
}: {
  member: StaffMember;
  turmas: readonly Turma[];
  self: boolean;
  onClose: () => void;
}) {
  const formId = useId();
  const update = useUpdateStaff();
  const [role, setRole] = useState<StaffRole>(member.role);
  const [turmaIds, setTurmaIds] = useState<string[]>(member.turmaIds);
  const [budget, setBudget] = useState<BudgetText>(() => budgetText(member.weeklyBudget));
  const [active, setActive] = useState(member.active);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const shown = { ...refusalFields(update.error), ...errors };
  const teacher = role === 'teacher';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsedBudget = teacher ? parseBudget(budget) : { budget: null };
    if ('errors' in parsedBudget) {
      setErrors(parsedBudget.errors);
      return;
    }
    setErrors({});
    update.reset();
    const change = teacher ? { role, active, turmaIds, weeklyBudget: parsedBudget.budget } : { role, active };
    update.mutate(
      { id: member.id, ...change },
      {
        onSuccess: (saved) => {
          toast.success(
            saved.active === member.active
              ? STAFF_TEXTS.updated(saved.name)
              : saved.active
                ? STAFF_TEXTS.reactivated(saved.name)
                : STAFF_TEXTS.deactivated(saved.name),
          );
          onClose();
        },
      },
    );
  };
  return (
    <FormModal
      title={`Editar ${member.name}`}
      description={<EmailText email={member.email} />}
      formId={formId}
      pending={update.isPending}
      submitLabel="Salvar"
      onClose={onClose}
      size="lg"
    >
      <form id={formId} noValidate onSubmit={submit} className="grid gap-4 md:grid-cols-2">
        <SelectField
          label="Papel"
          options={ROLE_OPTIONS}
          value={role}
          disabled={self}
          hint={self ? 'Você não pode mudar o próprio papel.' : undefined}
          onChange={(event) => setRole(event.target.value as StaffRole)}
          error={shown.role}
        />
        <label className="flex min-h-11 cursor-pointer items-center gap-2 self-end text-sm font-medium text-slate-800">
          <input
            type="checkbox"
            className="size-5 accent-indigo-600"
            checked={active}
            disabled={self}
            onChange={(event) => setActive(event.target.checked)}
          />
          Ativo (pode entrar no portal)
        </label>
        {teacher && (
          <>
            <TurmaChoices turmas={turmas} selected={turmaIds} onChange={setTurmaIds} error={shown.turmaIds} />
            <BudgetFields value={budget} onChange={setBudget} errors={shown} labelPrefix="Limite semanal" />
          </>
        )}
        <div className="md:col-span-2">
          <FormAlert message={shown.body} />
          {member.active && !active && (
            <p className="text-sm text-slate-700">Ao salvar, as sessões abertas de {member.name} são encerradas na hora.</p>
          )}
        </div>
      </form>
    </FormModal>
  );
}

function turmasText(member: StaffMember, turmas: readonly Turma[]): string {
  if (member.role === 'coordinator') return 'Todas as turmas';
  const names = member.turmaIds.map((id) => turmas.find((turma) => turma.id === id)?.name).filter(Boolean);
  return names.length > 0 ? `Turmas: ${names.join(', ')}` : 'Nenhuma turma atribuída';
}

type Dialog = { kind: 'add' } | { kind: 'edit' | 'reset' | 'deactivate'; member: StaffMember } | null;

/** Configurações › Equipe: the school's coordinators and teachers. */
export function StaffSection() {
  const { user } = useSession();
  const settings = useSchoolSettings();
  const staff = useStaff();
  const reset = useResetStaffPassword();
  const update = useUpdateStaff();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [shownPassword, setShownPassword] = useState<{ label: string; password: string } | null>(null);
  const selfId = isStaffUser(user) ? user.admin.id : null;
  const turmas = settings.data?.turmas ?? [];
  const setActive = (member: StaffMember, active: boolean) =>
    update.mutate(
      { id: member.id, active },
      {
        onSuccess: (saved) => toast.success(active ? STAFF_TEXTS.reactivated(saved.name) : STAFF_TEXTS.deactivated(saved.name)),
        onSettled: () => setDialog(null),
      },
    );

  return (
    <Card title="Equipe">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600">Coordenação e professores: papel, turmas, limite semanal de concessão e acesso.</p>
        <Button icon={<UserPlus aria-hidden="true" className="size-4" />} onClick={() => setDialog({ kind: 'add' })}>
          Adicionar membro
        </Button>
      </div>
      {staff.isPending ? (
        <Spinner className="size-6" />
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Equipe">
          {(staff.data ?? []).map((member) => (
            <li key={member.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3">
              <div className="w-full min-w-0 sm:w-auto sm:flex-1">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold text-slate-900">
                    {member.name} {member.id === selfId && <span className="font-normal text-slate-600">(você)</span>}
                  </span>
                  <Badge tone={member.role === 'coordinator' ? 'violet' : 'sky'}>{STAFF_ROLE_LABELS[member.role]}</Badge>
                  {!member.active && <Badge tone="slate">Desativado</Badge>}
                </p>
                <p className="text-sm text-slate-600">
                  <EmailText email={member.email} />
                </p>
                <p className="text-sm text-slate-600">{turmasText(member, turmas)}</p>
                {member.role === 'teacher' && <p className="text-sm text-slate-600">{budgetSummary(member.weeklyBudget)}</p>}
                <p className="text-sm text-slate-600">Último acesso: {member.lastLoginAt ? formatDateTime(member.lastLoginAt) : 'nunca'}</p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Editar ${member.name}`}
                  icon={<Pencil aria-hidden="true" className="size-4" />}
                  onClick={() => setDialog({ kind: 'edit', member })}
                >
                  Editar
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Redefinir senha de ${member.name}`}
                  icon={<KeyRound aria-hidden="true" className="size-4" />}
                  onClick={() => setDialog({ kind: 'reset', member })}
                >
                  Redefinir senha
                </Button>
                {member.id !== selfId && (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`${member.active ? 'Desativar' : 'Reativar'} ${member.name}`}
                    icon={
                      member.active ? (
                        <UserRoundX aria-hidden="true" className="size-4" />
                      ) : (
                        <UserRoundCheck aria-hidden="true" className="size-4" />
                      )
                    }
                    disabled={update.isPending}
                    onClick={() => (member.active ? setDialog({ kind: 'deactivate', member }) : setActive(member, true))}
                  >
                    {member.active ? 'Desativar' : 'Reativar'}
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {shownPassword && (
        <div className="mt-4">
          {/* Said on screen too, as beside a student's new password: it is not shown again. */}
          <p className="mb-2 text-sm font-medium text-slate-800">{SETTINGS_TEXTS.passwordShownOnce(shownPassword.label)}</p>
          <OneTimePassword password={shownPassword.password} label={shownPassword.label} testId="staff-password" />
        </div>
      )}
      {dialog?.kind === 'add' && (
        <AddDialog
          turmas={turmas}
          onClose={() => setDialog(null)}
          onCreated={(member, password) => {
            setDialog(null);
            setShownPassword(password ? { label: `Senha de ${member.name}`, password } : null);
          }}
        />
      )}
      {dialog?.kind === 'edit' && (
        <EditDialog member={dialog.member} turmas={turmas} self={dialog.member.id === selfId} onClose={() => setDialog(null)} />
      )}
      <ConfirmDialog
        open={dialog?.kind === 'deactivate'}
        title="Desativar membro da equipe"
        message={`Desativar ${dialog?.kind === 'deactivate' ? dialog.member.name : ''}? ${STAFF_TEXTS.deactivateWarning}`}
        confirmLabel="Desativar"
        pending={update.isPending}
        onCancel={() => setDialog(null)}
        onConfirm={() => dialog?.kind === 'deactivate' && setActive(dialog.member, false)}
      />
      <ConfirmDialog
        open={dialog?.kind === 'reset'}
        title="Redefinir senha"
        message={`Gerar uma nova senha para ${dialog?.kind === 'reset' ? dialog.member.name : ''}? As sessões abertas serão encerradas.`}
        confirmLabel="Gerar nova senha"
        tone="primary"
        pending={reset.isPending}
        onCancel={() => setDialog(null)}
        onConfirm={() => {
          if (dialog?.kind !== 'reset') return;
          reset.mutate(dialog.member.id, {
            onSuccess: ({ password, name }) => {
              toast.success(STAFF_TEXTS.passwordReset(name));
              if (password) setShownPassword({ label: `Nova senha de ${name}`, password });
            },
            onSettled: () => setDialog(null),
          });
        }}
      />
    </Card>
  );
}
