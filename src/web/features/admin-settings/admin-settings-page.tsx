import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Archive, ArchiveRestore, Pencil, Settings, Trash2, Upload } from 'lucide-react';
import { useSchoolSettings } from '../../lib/school-settings.ts';
import { formatNumber } from '../../lib/format.ts';
import { isRefusal, type ApiError } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { parseAmountText, issueFields } from '../../../shared/validation.ts';
import { schoolInfoInput, schoolRules, timeZoneOptions, type SchoolRules, type SchoolSettings } from '../../../shared/settings.ts';
import {
  RANKING_NAME_MODE_HINTS,
  RANKING_NAME_MODE_LABELS,
  RANKING_NAME_MODES,
  RANKING_PRIVACY_TEXTS,
  type RankingNameMode,
} from '../../../shared/ranking-privacy.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { TextAreaField, TextField } from '../../ui/text-field.tsx';
import { HowToEarnText } from '../../ui/how-to-earn-text.tsx';
import { defaultHowToEarn, HOW_TO_EARN_MAX_LENGTH, HOW_TO_EARN_TITLE, textBlocks } from '../../../shared/how-to-earn.ts';
import { BudgetFields, budgetText, parseBudget } from './budget-fields.tsx';
import { PrivacySection } from './privacy-section.tsx';
import { StaffSection } from './staff-section.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { FormAlert } from '../../ui/form-alert.tsx';
import { SchoolYearSection } from './school-year-section.tsx';
import {
  useAdminTurmas,
  useCreateTurma,
  useDeleteTurma,
  useRemoveLogo,
  useSaveRules,
  useSaveSchool,
  useUpdateTurma,
  useUploadLogo,
} from './settings-queries.ts';

const ZONE_OPTIONS = timeZoneOptions().map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }));

function SchoolSection({ settings }: { settings: SchoolSettings }) {
  const [name, setName] = useState(settings.school.name);
  const [timeZone, setTimeZone] = useState(settings.school.timeZone);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveSchool();
  const upload = useUploadLogo();
  const removeLogo = useRemoveLogo();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = schoolInfoInput.safeParse({ name, timeZone });
    setErrors(parsed.success ? {} : issueFields(parsed.error.issues));
    if (parsed.success) save.mutate(parsed.data);
  };

  return (
    <Card title="Escola">
      <form onSubmit={submit} noValidate className="grid gap-4 md:grid-cols-2">
        <TextField
          label="Nome da escola"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={errors.name}
          maxLength={80}
        />
        <SelectField
          label="Fuso horário"
          hint="Todas as datas e horas do portal usam este fuso."
          options={ZONE_OPTIONS}
          value={timeZone}
          onChange={(event) => setTimeZone(event.target.value)}
          error={errors.timeZone}
        />
        <div className="md:col-span-2">
          <Button type="submit" disabled={save.isPending}>
            Salvar dados da escola
          </Button>
        </div>
      </form>
      <div className="mt-6 flex flex-wrap items-center gap-4 border-t border-slate-100 pt-4">
        {settings.school.logoUrl ? (
          <img
            src={settings.school.logoUrl}
            alt="Logo atual da escola"
            className="size-16 rounded-xl bg-white object-contain ring-1 ring-slate-200"
          />
        ) : (
          <p className="text-sm text-slate-600">Sem logo: o portal mostra a marca do Méritus.</p>
        )}
        <label
          className={cn(
            'inline-flex h-11 cursor-pointer items-center gap-2 rounded-xl border',
            'border-slate-300 bg-white px-3 text-sm font-semibold text-slate-800 shadow-sm',
            'focus-within:ring-2 focus-within:ring-indigo-500 hover:bg-slate-50',
          )}
        >
          <Upload aria-hidden="true" className="size-4" />
          Enviar logo
          <input
            type="file"
            accept="image/jpeg,image/png,image/gif,image/webp"
            className="sr-only"
            disabled={upload.isPending}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) upload.mutate(file);
              event.target.value = '';
            }}
          />
        </label>
        {settings.school.logoUrl && (
          <Button
            variant="ghost"
            onClick={() => removeLogo.mutate(undefined)}
            disabled={removeLogo.isPending}
            icon={<Trash2 aria-hidden="true" className="size-4" />}
          >
            Remover logo
          </Button>
        )}
        <p className="w-full text-xs text-slate-600">
          JPG, PNG, GIF ou WebP, até 5 MB. Aparece na tela de login, no menu e nos certificados.
        </p>
      </div>
    </Card>
  );
}

type RuleField =
  | 'meritusGoal'
  | 'estelecasBarScale'
  | 'collector'
  | 'master'
  | 'defaultTagDays'
  | 'maxOperationAmount'
  | 'transferDailyCap'
  | 'transferMinIntervalSeconds';
const RULE_FIELDS: { field: RuleField; label: string; hint?: string; optional?: boolean }[] = [
  { field: 'meritusGoal', label: 'Meta de Méritus (M$)' },
  { field: 'estelecasBarScale', label: 'Escala da barra de Estelecas' },
  { field: 'collector', label: 'Conquista "Colecionador" (Estelecas)' },
  { field: 'master', label: 'Conquista "Mestre das Estelecas" (Estelecas)' },
  { field: 'defaultTagDays', label: 'Duração padrão das tags (dias)' },
  { field: 'maxOperationAmount', label: 'Valor máximo por operação' },
  { field: 'transferDailyCap', label: 'Limite diário de transferência por aluno (M$)', hint: 'Vazio: sem limite', optional: true },
  {
    field: 'transferMinIntervalSeconds',
    label: 'Intervalo mínimo entre transferências (segundos)',
    hint: 'Vazio: sem intervalo',
    optional: true,
  },
];

function rulesText(rules: SchoolRules): Record<RuleField, string> {
  const text = (value: number | null) => (value === null ? '' : String(value));
  return {
    meritusGoal: text(rules.meritusGoal),
    estelecasBarScale: text(rules.estelecasBarScale),
    collector: text(rules.achievementThresholds.collector),
    master: text(rules.achievementThresholds.master),
    defaultTagDays: text(rules.defaultTagDays),
    maxOperationAmount: text(rules.maxOperationAmount),
    transferDailyCap: text(rules.transferDailyCap),
    transferMinIntervalSeconds: text(rules.transferMinIntervalSeconds),
  };
}

function RulesSection({ rules }: { rules: SchoolRules }) {
  const [values, setValues] = useState(() => rulesText(rules));
  const [teachersManageStudents, setTeachersManageStudents] = useState(rules.teachersManageStudents);
  const [budget, setBudget] = useState(() => budgetText(rules.defaultTeacherBudget));
  const [studentsChangeResetPassword, setStudentsChangeResetPassword] = useState(rules.studentsChangeResetPassword);
  const [rankingNames, setRankingNames] = useState(rules.rankingNames);
  const [rankingHideAllowed, setRankingHideAllowed] = useState(rules.rankingHideAllowed);
  const [familiesSeePenalties, setFamiliesSeePenalties] = useState(rules.familiesSeePenalties);
  const [familiesSeeRanking, setFamiliesSeeRanking] = useState(rules.familiesSeeRanking);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveRules();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const number = (field: RuleField) => parseAmountText(values[field]);
    const optional = (field: RuleField) => number(field) ?? null;
    const defaultBudget = parseBudget(budget);
    if ('errors' in defaultBudget) {
      setErrors(defaultBudget.errors);
      return;
    }
    const parsed = schoolRules.safeParse({
      meritusGoal: number('meritusGoal'),
      estelecasBarScale: number('estelecasBarScale'),
      achievementThresholds: { collector: number('collector'), master: number('master') },
      defaultTagDays: number('defaultTagDays'),
      maxOperationAmount: number('maxOperationAmount'),
      transferDailyCap: optional('transferDailyCap'),
      transferMinIntervalSeconds: optional('transferMinIntervalSeconds'),
      teachersManageStudents,
      defaultTeacherBudget: defaultBudget.budget,
      studentsChangeResetPassword,
      rankingNames,
      rankingHideAllowed,
      familiesSeePenalties,
      familiesSeeRanking,
      howToEarnText: rules.howToEarnText,
    });
    if (!parsed.success) {
      const fields = issueFields(parsed.error.issues);
      setErrors(
        Object.fromEntries(
          Object.entries(fields).map(([path, message]) => [path.replace(/^(achievementThresholds|defaultTeacherBudget)\./, ''), message]),
        ),
      );
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  };

  return (
    <Card title="Regras">
      <form onSubmit={submit} noValidate className="grid gap-4 md:grid-cols-2">
        {RULE_FIELDS.map(({ field, label, hint }) => (
          <TextField
            key={field}
            label={label}
            hint={hint}
            inputMode="numeric"
            value={values[field]}
            onChange={(event) => setValues((current) => ({ ...current, [field]: event.target.value }))}
            error={errors[field]}
          />
        ))}
        <fieldset className="grid gap-4 border-t border-slate-100 pt-4 md:col-span-2 md:grid-cols-2">
          <legend className="sr-only">Professores</legend>
          <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm font-medium text-slate-800 md:col-span-2">
            <input
              type="checkbox"
              className="size-5 shrink-0 accent-indigo-600"
              checked={teachersManageStudents}
              onChange={(event) => setTeachersManageStudents(event.target.checked)}
            />
            Professores podem cadastrar alunos
          </label>
          <BudgetFields value={budget} onChange={setBudget} errors={errors} labelPrefix="Limite semanal padrão dos professores" />
          <p className="-mt-2 text-xs text-slate-600 md:col-span-2">
            Usado quando um professor é adicionado; o limite de cada um se muda em Equipe.
          </p>
        </fieldset>
        <fieldset className="border-t border-slate-100 pt-4 md:col-span-2">
          <legend className="sr-only">Senhas dos alunos</legend>
          <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm font-medium text-slate-800">
            <input
              type="checkbox"
              className="size-5 shrink-0 accent-indigo-600"
              checked={studentsChangeResetPassword}
              onChange={(event) => setStudentsChangeResetPassword(event.target.checked)}
            />
            Alunos trocam a senha recebida no primeiro acesso
          </label>
          <p className="text-xs text-slate-600">
            Depois de uma senha redefinida ou de um cartão de acesso, o aluno escolhe uma senha sua antes de usar o portal.
          </p>
        </fieldset>
        <fieldset className="grid gap-4 border-t border-slate-100 pt-4 md:col-span-2 md:grid-cols-2">
          <legend className="sr-only">Ranking e privacidade dos estudantes</legend>
          <SelectField
            label="Como o ranking mostra os colegas"
            value={rankingNames}
            onChange={(event) => setRankingNames(event.target.value as RankingNameMode)}
            options={RANKING_NAME_MODES.map((mode) => ({ value: mode, label: RANKING_NAME_MODE_LABELS[mode] }))}
            hint={`${RANKING_NAME_MODE_HINTS[rankingNames]} A equipe sempre vê os nomes completos.`}
          />
          <label className="flex min-h-11 cursor-pointer items-center gap-2 self-start text-sm font-medium text-slate-800 md:mt-7">
            <input
              type="checkbox"
              className="size-5 shrink-0 accent-indigo-600"
              checked={rankingHideAllowed}
              onChange={(event) => setRankingHideAllowed(event.target.checked)}
            />
            Estudantes podem escolher “{RANKING_PRIVACY_TEXTS.hideLabel}”
          </label>
        </fieldset>
        <fieldset className="flex flex-col gap-1 border-t border-slate-100 pt-4 md:col-span-2">
          <legend className="text-sm font-semibold text-slate-900">Responsáveis</legend>
          <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm font-medium text-slate-800">
            <input
              type="checkbox"
              className="size-5 shrink-0 accent-indigo-600"
              checked={familiesSeePenalties}
              onChange={(event) => setFamiliesSeePenalties(event.target.checked)}
            />
            Responsáveis veem remoções e penalidades
          </label>
          <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm font-medium text-slate-800">
            <input
              type="checkbox"
              className="size-5 shrink-0 accent-indigo-600"
              checked={familiesSeeRanking}
              onChange={(event) => setFamiliesSeeRanking(event.target.checked)}
            />
            Responsáveis veem a posição do filho no ranking
          </label>
        </fieldset>
        <div className="md:col-span-2">
          <Button type="submit" disabled={save.isPending}>
            Salvar regras
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** The students' page 'Como ganhar Méritus e Estelecas': the school's text, or, left empty, the default written from the rules. */
function HowToEarnSection({ rules }: { rules: SchoolRules }) {
  const [text, setText] = useState(rules.howToEarnText);
  const [error, setError] = useState<string>();
  const save = useSaveRules();
  const fallback = defaultHowToEarn(rules);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = schoolRules.safeParse({ ...rules, howToEarnText: text });
    setError(parsed.success ? undefined : issueFields(parsed.error.issues).howToEarnText);
    if (parsed.success) save.mutate(parsed.data);
  };
  return (
    <Card title={HOW_TO_EARN_TITLE}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <TextAreaField
          label="Texto para os alunos"
          hint={[
            'Texto simples: uma linha em branco separa parágrafos; linhas começadas por "- " viram uma lista.',
            `Em branco, os alunos veem o texto padrão. Até ${formatNumber(HOW_TO_EARN_MAX_LENGTH)} caracteres.`,
          ].join(' ')}
          rows={10}
          maxLength={HOW_TO_EARN_MAX_LENGTH}
          value={text}
          onChange={(event) => setText(event.target.value)}
          error={error}
        />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={save.isPending}>
            Salvar texto
          </Button>
          <Button variant="secondary" onClick={() => setText(fallback)}>
            Começar do texto padrão
          </Button>
        </div>
        <details className="rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200">
          <summary className="cursor-pointer text-sm font-semibold text-slate-800">
            Ver o texto padrão (escrito a partir das regras)
          </summary>
          <div className="mt-3 text-sm">
            <HowToEarnText blocks={textBlocks(fallback)} />
          </div>
        </details>
      </form>
    </Card>
  );
}

/**
 * A text field with its buttons beside it from `sm` up, lined up with the field's box (below its 20 px label and 6 px
 * gap) rather than with the message that may appear under it: 28 px down for a 44 px button, 32 px for a small one.
 * On a phone the field takes the whole line and the buttons go below it.
 */
const FIELD_ROW_FIELD = 'w-full min-w-48 grow sm:w-auto';
const FIELD_ROW_BUTTON = 'sm:mt-7';
const FIELD_ROW_SMALL_BUTTON = 'sm:mt-8';

/** A refusal's pt-BR reason, shown beside the form it refused (a server failure has its toast, with its code). */
function refusalOf(error: ApiError | null): string | undefined {
  return isRefusal(error) ? error.message : undefined;
}

function TurmasSection() {
  const turmas = useAdminTurmas();
  const create = useCreateTurma();
  const update = useUpdateTurma();
  const remove = useDeleteTurma();
  /** The turma whose deletion is being confirmed, then the one refused (its reason shown under it). */
  const [deleting, setDeleting] = useState<{ id: string; name: string } | null>(null);
  const [newName, setNewName] = useState('');
  const [editing, setEditing] = useState<{ id: string; name: string } | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  // The keyboard follows the rename: into its field when it opens, back to its turma's 'Renomear' when it ends.
  const editingId = editing?.id ?? null;
  const lastEditedRef = useRef<string | null>(null);
  useEffect(() => {
    const list = listRef.current;
    if (editingId) {
      lastEditedRef.current = editingId;
      list?.querySelector<HTMLInputElement>('form input')?.select();
    } else if (lastEditedRef.current) {
      list?.querySelector<HTMLElement>(`[data-rename="${lastEditedRef.current}"]`)?.focus();
      lastEditedRef.current = null;
    }
  }, [editingId]);

  return (
    <Card title="Turmas">
      <p className="mb-3 text-sm text-slate-600">
        Uma turma desativada mantém seus alunos e histórico, mas não recebe novos alunos e sai das listas de escolha. Uma turma sem alunos
        que a escola não tem (as 12 de exemplo do primeiro dia) pode ser apagada.
      </p>
      {turmas.isPending ? (
        <Spinner className="size-6" />
      ) : (
        <ul ref={listRef} className="divide-y divide-slate-100" aria-label="Turmas da escola">
          {(turmas.data ?? []).map((turma) => (
            <li key={turma.id} className="flex flex-wrap items-center gap-2 py-2">
              {editing?.id === turma.id ? (
                <form
                  className="flex flex-1 flex-wrap items-start gap-2"
                  onKeyDown={(event) => {
                    if (event.key === 'Escape') setEditing(null);
                  }}
                  onSubmit={(event) => {
                    event.preventDefault();
                    update.mutate({ id: turma.id, name: editing.name }, { onSuccess: () => setEditing(null) });
                  }}
                >
                  <TextField
                    label={`Novo nome de ${turma.name}`}
                    value={editing.name}
                    onChange={(event) => {
                      setEditing({ id: turma.id, name: event.target.value });
                      update.reset();
                    }}
                    error={refusalOf(update.error)}
                    maxLength={40}
                    containerClassName={FIELD_ROW_FIELD}
                  />
                  <Button type="submit" size="sm" disabled={update.isPending} className={FIELD_ROW_SMALL_BUTTON}>
                    Salvar
                  </Button>
                  <Button variant="ghost" size="sm" onClick={() => setEditing(null)} className={FIELD_ROW_SMALL_BUTTON}>
                    Cancelar
                  </Button>
                </form>
              ) : (
                <>
                  <span className="w-full min-w-0 font-semibold text-slate-900 sm:w-auto sm:flex-1">
                    {turma.name}{' '}
                    <span className="font-normal text-slate-600">
                      · {formatNumber(turma.students)} {turma.students === 1 ? 'aluno' : 'alunos'}
                    </span>
                  </span>
                  {turma.retired && <Badge tone="slate">Desativada</Badge>}
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Renomear ${turma.name}`}
                    data-rename={turma.id}
                    icon={<Pencil aria-hidden="true" className="size-4" />}
                    onClick={() => {
                      update.reset();
                      setEditing({ id: turma.id, name: turma.name });
                    }}
                  >
                    Renomear
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`${turma.retired ? 'Reativar' : 'Desativar'} ${turma.name}`}
                    icon={
                      turma.retired ? (
                        <ArchiveRestore aria-hidden="true" className="size-4" />
                      ) : (
                        <Archive aria-hidden="true" className="size-4" />
                      )
                    }
                    disabled={update.isPending}
                    onClick={() => update.mutate({ id: turma.id, retired: !turma.retired })}
                  >
                    {turma.retired ? 'Reativar' : 'Desativar'}
                  </Button>
                  {turma.students === 0 && (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Apagar ${turma.name}`}
                      icon={<Trash2 aria-hidden="true" className="size-4" />}
                      disabled={remove.isPending}
                      onClick={() => {
                        remove.reset();
                        setDeleting(turma);
                      }}
                    >
                      Apagar
                    </Button>
                  )}
                  {remove.variables?.id === turma.id && isRefusal(remove.error) && (
                    <div className="w-full">
                      <FormAlert message={remove.error.message} />
                    </div>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <form
        className="mt-4 flex flex-wrap items-start gap-2 border-t border-slate-100 pt-4"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate(newName, { onSuccess: () => setNewName('') });
        }}
      >
        <TextField
          label="Nova turma"
          value={newName}
          onChange={(event) => {
            setNewName(event.target.value);
            create.reset();
          }}
          error={refusalOf(create.error)}
          maxLength={40}
          containerClassName={FIELD_ROW_FIELD}
        />
        <Button type="submit" disabled={create.isPending} className={FIELD_ROW_BUTTON}>
          Adicionar turma
        </Button>
      </form>
      <ConfirmDialog
        open={deleting !== null && !remove.isError}
        title={`Apagar a turma ${deleting?.name ?? ''}?`}
        message={
          <p>
            Ela sai da lista de vez. Só é possível enquanto nenhum estudante (atual ou removido), item da Loja ou operação a usa;
            professores que a tinham deixam de tê-la.
          </p>
        }
        confirmLabel="Apagar turma"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: () => setDeleting(null) })}
        onCancel={() => setDeleting(null)}
      />
    </Card>
  );
}

/** /admin/settings: the school, its rules, turmas and staff. */
export default function AdminSettingsPage() {
  const settings = useSchoolSettings();
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Configurações" description="Dados da escola, regras, turmas e equipe." icon={Settings} />
      {settings.data ? (
        <>
          {/* Keyed by what was saved, so the forms show the stored values after any change (here or elsewhere). */}
          <SchoolSection key={JSON.stringify(settings.data.school)} settings={settings.data} />
          <RulesSection key={JSON.stringify(settings.data.rules)} rules={settings.data.rules} />
          <HowToEarnSection key={`how-to-earn-${JSON.stringify(settings.data.rules)}`} rules={settings.data.rules} />
          <TurmasSection />
          <SchoolYearSection />
          <StaffSection />
          <PrivacySection />
        </>
      ) : (
        <Spinner className="size-8" />
      )}
    </div>
  );
}
