import { useMemo, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { CalendarSync, CheckCircle2, ChevronLeft, ChevronRight, Plus } from 'lucide-react';
import { formatEstelecas, formatMeritus, formatNumber, plural } from '../../../shared/format.ts';
import type { RolloverInput, RolloverOutcome, RolloverPreview } from '../../../shared/school-year.ts';
import { matchesWords, queryWords, searchTarget } from '../../../shared/student-match.ts';
import { isApiError } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { paths } from '../../lib/paths.ts';
import { errorMessage } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { ChoiceGroup } from '../../ui/choice-group.tsx';
import { FormAlert } from '../../ui/form-alert.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { SearchInput } from '../../ui/search-input.tsx';
import { SelectField, type SelectOption } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { useAdminTurmas, useCreateTurma } from './settings-queries.ts';
import { rolloverPreviewRead, useApplyRollover } from './rollover-queries.ts';

type Balances = RolloverInput['balances'];
type Mapping = { turmas: Record<string, string>; students: Record<string, string> };
type Student = RolloverPreview['students'][number];

const STEPS = [
  { id: 'turmas', label: 'Turmas' },
  { id: 'saidas', label: 'Formados e saídas' },
  { id: 'saldos', label: 'Saldos' },
  { id: 'previa', label: 'Prévia e aplicar' },
] as const;
type Step = (typeof STEPS)[number]['id'];

/** Students per page of a list: a big school has hundreds, each row with its own choice. */
const PAGE_SIZE = 25;
const KEEP_ALL: Balances = { meritus: 'keep', estelecas: 'keep' };
const LEAVING_LABEL: Record<string, string> = { graduated: 'Formados', left: 'Saída da escola' };

/** Where a student goes: their own choice, else their turma's, else they stay (the server's rule, rollover.service.ts). */
const destinationOf = (mapping: Mapping, student: Student) =>
  mapping.students[student.id] ?? mapping.turmas[student.turmaId] ?? student.turmaId;

/** Configurações › Ano letivo › Virada do ano: the coordination closes the year in four steps (issue 38, decision 031). */
export default function YearRolloverPage() {
  // The proposal from the turmas' names, read once: the wizard's choices start from it and live in the page after.
  const proposal = useQuery(rolloverPreviewRead({ balances: KEEP_ALL }));
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title="Virada do ano"
        icon={CalendarSync}
        description={
          proposal.data
            ? `Encerra o ${proposal.data.year.name}: turmas novas, formados e saldos, tudo de uma vez.`
            : 'Encerra o ano letivo: turmas novas, formados e saldos, tudo de uma vez.'
        }
      />
      {proposal.isPending ? (
        <Spinner className="size-8" />
      ) : proposal.error ? (
        isApiError(proposal.error) && proposal.error.status > 0 && proposal.error.status < 500 ? (
          <Card title="Não há ano para encerrar">
            <p role="alert" className="text-sm text-slate-700">
              {proposal.error.message}
            </p>
            <Link
              to={paths.admin.settings}
              className="mt-3 inline-flex min-h-11 items-center font-medium text-indigo-700 hover:text-indigo-900"
            >
              Ir para Configurações › Ano letivo
            </Link>
          </Card>
        ) : (
          <LoadError message={errorMessage(proposal.error)} onRetry={() => void proposal.refetch()} retrying={proposal.isFetching} />
        )
      ) : (
        <Wizard proposal={proposal.data} />
      )}
    </div>
  );
}

function Wizard({ proposal }: { proposal: RolloverPreview }) {
  const [step, setStep] = useState<Step>('turmas');
  const [mapping, setMapping] = useState<Mapping>({ turmas: proposal.mapping.turmas, students: {} });
  const [balances, setBalances] = useState<Balances>(KEEP_ALL);
  const [outcome, setOutcome] = useState<RolloverOutcome | null>(null);
  const turmas = useAdminTurmas();
  const turmaNames = useMemo(() => {
    const names = new Map(proposal.turmas.map((turma) => [turma.id, turma.name]));
    for (const turma of turmas.data ?? []) names.set(turma.id, turma.name);
    return names;
  }, [proposal.turmas, turmas.data]);
  const nameOf = (to: string) => LEAVING_LABEL[to] ?? turmaNames.get(to) ?? 'Turma';
  const destinations: SelectOption[] = [
    ...(turmas.data ?? []).filter((turma) => !turma.retired).map((turma) => ({ value: turma.id, label: turma.name })),
    { value: 'graduated', label: 'Formados' },
    { value: 'left', label: 'Saída da escola' },
  ];
  const body: RolloverInput = { mapping, balances };
  const index = STEPS.findIndex((item) => item.id === step);
  const top = useRef<HTMLOListElement>(null);
  // A step opens at its top: on a phone the 'Próximo' button is at the end of a long list.
  const go = (next: Step) => {
    setStep(next);
    top.current?.scrollIntoView({ block: 'nearest' });
  };

  if (outcome) return <Outcome outcome={outcome} />;
  // The destinations are the school's active turmas: the choices wait for them, so no select shows a wrong first option.
  if (!turmas.data)
    return turmas.error ? (
      <LoadError message={errorMessage(turmas.error)} onRetry={() => void turmas.refetch()} retrying={turmas.isFetching} />
    ) : (
      <Spinner className="size-8" />
    );
  return (
    <div className="grid gap-4">
      <ol ref={top} aria-label="Etapas da virada do ano" className="grid scroll-mt-24 grid-cols-2 gap-2 sm:grid-cols-4">
        {STEPS.map((item, at) => (
          <li key={item.id}>
            <button
              type="button"
              onClick={() => go(item.id)}
              aria-current={item.id === step ? 'step' : undefined}
              className={cn(
                'flex min-h-11 w-full items-center gap-2 rounded-xl px-3 text-left text-sm font-semibold ring-1',
                item.id === step ? 'bg-indigo-600 text-white ring-indigo-600' : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50',
              )}
            >
              <span aria-hidden="true">{at + 1}.</span> {item.label}
            </button>
          </li>
        ))}
      </ol>
      {step === 'turmas' && (
        <TurmasStep proposal={proposal} mapping={mapping} onMapping={setMapping} destinations={destinations} nameOf={nameOf} />
      )}
      {step === 'saidas' && <LeavingStep proposal={proposal} mapping={mapping} nameOf={nameOf} />}
      {step === 'saldos' && <BalancesStep proposal={proposal} balances={balances} onBalances={setBalances} />}
      {step === 'previa' && <PreviewStep body={body} onApplied={setOutcome} />}
      <div className="flex flex-wrap justify-between gap-2">
        <Button
          variant="secondary"
          icon={<ChevronLeft aria-hidden="true" className="size-4" />}
          disabled={index === 0}
          onClick={() => go(STEPS[index - 1]!.id)}
        >
          Voltar
        </Button>
        {index < STEPS.length - 1 && (
          <Button icon={<ChevronRight aria-hidden="true" className="size-4" />} onClick={() => go(STEPS[index + 1]!.id)}>
            Próximo: {STEPS[index + 1]!.label}
          </Button>
        )}
      </div>
    </div>
  );
}

/** Step 1: each turma's next turma, a new turma for the newcomers, and each student's own destination. */
function TurmasStep({
  proposal,
  mapping,
  onMapping,
  destinations,
  nameOf,
}: {
  proposal: RolloverPreview;
  mapping: Mapping;
  onMapping: (mapping: Mapping) => void;
  destinations: SelectOption[];
  nameOf: (to: string) => string;
}) {
  const setTurma = (id: string, to: string) => {
    const turmas = { ...mapping.turmas };
    if (to) turmas[id] = to;
    else delete turmas[id];
    onMapping({ ...mapping, turmas });
  };
  const setStudent = (id: string, to: string) => {
    const students = { ...mapping.students };
    if (to) students[id] = to;
    else delete students[id];
    onMapping({ ...mapping, students });
  };
  return (
    <>
      <Card title="Próxima turma de cada turma">
        <p className="mb-3 text-sm text-slate-600">
          A proposta vem dos nomes (6º ano B → 7º ano B, 3º EM → Formados). Uma turma sem destino fica como está.
        </p>
        <ul className="divide-y divide-slate-100" aria-label="Turmas e seus destinos">
          {proposal.turmas.map((turma) => (
            <li key={turma.id} className="grid gap-2 py-3 sm:grid-cols-[1fr_18rem] sm:items-center">
              <div>
                <span className="font-semibold text-slate-900">{turma.name}</span>{' '}
                <span className="text-sm text-slate-600">({formatNumber(turma.students)} alunos)</span>
              </div>
              <SelectField
                label={`Destino de ${turma.name}`}
                hideLabel
                placeholder="Fica como está"
                options={destinations.filter((option) => option.value !== turma.id)}
                value={mapping.turmas[turma.id] ?? ''}
                onChange={(event) => setTurma(turma.id, event.target.value)}
              />
            </li>
          ))}
        </ul>
        <NewTurma />
      </Card>
      <StudentDestinations proposal={proposal} mapping={mapping} onChange={setStudent} destinations={destinations} nameOf={nameOf} />
    </>
  );
}

/** A turma for the newcomers, created through the turma settings (it is then offered as a destination). */
function NewTurma() {
  const [name, setName] = useState('');
  const create = useCreateTurma();
  return (
    <form
      className="mt-4 flex flex-col gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate(name, { onSuccess: () => setName('') });
      }}
    >
      <TextField
        label="Nova turma para quem chega"
        placeholder="Ex.: 6º ano C"
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          create.reset();
        }}
        error={create.error?.message}
        containerClassName="sm:flex-1"
        maxLength={60}
      />
      <Button type="submit" variant="secondary" icon={<Plus aria-hidden="true" className="size-4" />} disabled={create.isPending}>
        Criar turma
      </Button>
    </form>
  );
}

/** A page of a long list, with its place in it ('26–50 de 312'). */
function Pager({ page, total, onPage, label }: { page: number; total: number; onPage: (page: number) => void; label: string }) {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (pages === 1) return null;
  const first = page * PAGE_SIZE + 1;
  const last = Math.min(total, (page + 1) * PAGE_SIZE);
  return (
    <nav aria-label={label} className="mt-3 flex items-center justify-between gap-2">
      <Button variant="ghost" size="sm" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Anterior
      </Button>
      <span className="text-sm text-slate-600">
        {formatNumber(first)}–{formatNumber(last)} de {formatNumber(total)}
      </span>
      <Button variant="ghost" size="sm" disabled={page >= pages - 1} onClick={() => onPage(page + 1)}>
        Próxima
      </Button>
    </nav>
  );
}

function StudentDestinations({
  proposal,
  mapping,
  onChange,
  destinations,
  nameOf,
}: {
  proposal: RolloverPreview;
  mapping: Mapping;
  onChange: (id: string, to: string) => void;
  destinations: SelectOption[];
  nameOf: (to: string) => string;
}) {
  const [search, setSearch] = useState('');
  const [turma, setTurma] = useState('');
  const [page, setPage] = useState(0);
  const targets = useMemo(
    () => new Map(proposal.students.map((student) => [student.id, searchTarget([student.name, student.studentId])])),
    [proposal.students],
  );
  const words = queryWords(search);
  const shown = proposal.students.filter(
    (student) => (!turma || student.turmaId === turma) && matchesWords(targets.get(student.id)!, words),
  );
  const at = Math.min(page, Math.max(0, Math.ceil(shown.length / PAGE_SIZE) - 1));
  return (
    <Card title="Cada aluno">
      <p className="mb-3 text-sm text-slate-600">Cada aluno segue a sua turma; mude um a um quem repete o ano ou sai da escola.</p>
      <div className="grid gap-3 sm:grid-cols-2">
        <SearchInput
          label="Buscar aluno"
          placeholder="Nome ou matrícula"
          value={search}
          onChange={(value) => {
            setSearch(value);
            setPage(0);
          }}
        />
        <SelectField
          label="Turma"
          hideLabel
          placeholder="Todas as turmas"
          options={proposal.turmas.map((item) => ({ value: item.id, label: item.name }))}
          value={turma}
          onChange={(event) => {
            setTurma(event.target.value);
            setPage(0);
          }}
        />
      </div>
      {shown.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">Nenhum aluno encontrado.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100" aria-label="Alunos e seus destinos">
          {shown.slice(at * PAGE_SIZE, (at + 1) * PAGE_SIZE).map((student) => {
            const turmaTo = mapping.turmas[student.turmaId] ?? student.turmaId;
            const own = mapping.students[student.id];
            return (
              <li key={student.id} className="grid gap-2 py-3 sm:grid-cols-[1fr_18rem] sm:items-center">
                <div className="min-w-0">
                  <p className="truncate font-medium text-slate-900">{student.name}</p>
                  <p className="text-sm text-slate-600">
                    {nameOf(student.turmaId)} → <span className={cn(own && 'font-semibold text-indigo-700')}>{nameOf(own ?? turmaTo)}</span>
                  </p>
                </div>
                <SelectField
                  label={`Destino de ${student.name}`}
                  hideLabel
                  placeholder={turmaTo === student.turmaId ? 'Fica na turma' : `Segue a turma (${nameOf(turmaTo)})`}
                  options={[
                    ...(turmaTo === student.turmaId
                      ? []
                      : [{ value: student.turmaId, label: `Repete: fica em ${nameOf(student.turmaId)}` }]),
                    ...destinations.filter((option) => option.value !== student.turmaId && option.value !== turmaTo),
                  ]}
                  value={own ?? ''}
                  onChange={(event) => onChange(student.id, event.target.value)}
                />
              </li>
            );
          })}
        </ul>
      )}
      <Pager page={at} total={shown.length} onPage={setPage} label="Páginas de alunos" />
    </Card>
  );
}

/** Step 2: who becomes inactive, graduated or leaving. */
function LeavingStep({ proposal, mapping, nameOf }: { proposal: RolloverPreview; mapping: Mapping; nameOf: (to: string) => string }) {
  const [page, setPage] = useState(0);
  const leaving = proposal.students.filter((student) => {
    const to = destinationOf(mapping, student);
    return to === 'graduated' || to === 'left';
  });
  const graduating = leaving.filter((student) => destinationOf(mapping, student) === 'graduated').length;
  return (
    <Card title="Formados e saídas">
      <p className="mb-3 text-sm text-slate-600">
        {formatNumber(graduating)} {plural(graduating, 'se forma', 'se formam')} e {formatNumber(leaving.length - graduating)}{' '}
        {plural(leaving.length - graduating, 'sai', 'saem')} da escola. Eles deixam de entrar no Méritus e saem dos rankings e das listas; o
        histórico fica nos relatórios e na exportação de dados (LGPD).
      </p>
      {leaving.length === 0 ? (
        <p className="text-sm text-slate-600">Ninguém se forma nem sai: todos continuam na escola.</p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Alunos que se formam ou saem">
          {leaving.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE).map((student) => (
            <li key={student.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2">
              <span className="min-w-0 font-medium text-slate-900">
                {student.name} <span className="text-sm font-normal text-slate-600">· {nameOf(student.turmaId)}</span>
              </span>
              <span className="text-sm font-semibold text-slate-700">{nameOf(destinationOf(mapping, student))}</span>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} total={leaving.length} onPage={setPage} label="Páginas de formados e saídas" />
    </Card>
  );
}

const BALANCE_OPTIONS = [
  { value: 'keep', label: 'Manter' },
  { value: 'close', label: 'Encerrar' },
] as const;

/** Step 3: keep or close the balances, Méritus and Estelecas decided apart. */
function BalancesStep({
  proposal,
  balances,
  onBalances,
}: {
  proposal: RolloverPreview;
  balances: Balances;
  onBalances: (balances: Balances) => void;
}) {
  const total = (currency: 'meritus' | 'estelecas') => proposal.students.reduce((sum, student) => sum + Math.max(0, student[currency]), 0);
  const holders = (currency: 'meritus' | 'estelecas') => proposal.students.filter((student) => student[currency] > 0).length;
  return (
    <Card title="Saldos">
      <div className="grid gap-5 md:grid-cols-2">
        <BalanceChoice
          legend="Saldos de Méritus"
          now={`Hoje: ${formatNumber(holders('meritus'))} saldos, total ${formatMeritus(total('meritus'))}`}
          value={balances.meritus}
          onChange={(meritus) => onBalances({ ...balances, meritus })}
        />
        <BalanceChoice
          legend="Saldos de Estelecas"
          now={`Hoje: ${formatNumber(holders('estelecas'))} saldos, total ${formatEstelecas(total('estelecas'))}`}
          value={balances.estelecas}
          onChange={(estelecas) => onBalances({ ...balances, estelecas })}
        />
      </div>
      <dl className="mt-4 grid gap-2 text-sm text-slate-700">
        <div>
          <dt className="inline font-semibold">Manter:</dt> <dd className="inline">cada aluno leva o seu saldo para o novo ano.</dd>
        </div>
        <div>
          <dt className="inline font-semibold">Encerrar:</dt>{' '}
          <dd className="inline">
            cada saldo vai a zero com um lançamento próprio, “Encerramento do {proposal.year.name}”. Tudo o que foi ganho, gasto e
            transferido no ano continua igual nos relatórios, e o novo ano começa do zero para todos.
          </dd>
        </div>
      </dl>
    </Card>
  );
}

function BalanceChoice({
  legend,
  now,
  value,
  onChange,
}: {
  legend: string;
  now: string;
  value: 'keep' | 'close';
  onChange: (value: 'keep' | 'close') => void;
}) {
  return (
    <div>
      <ChoiceGroup legend={legend} options={BALANCE_OPTIONS} value={value} onChange={onChange} variant="segmented" />
      <p className="mt-1.5 text-sm text-slate-600">{now}</p>
    </div>
  );
}

const COUNT_LABELS = [
  ['moving', 'Mudam de turma'],
  ['staying', 'Ficam na turma'],
  ['graduating', 'Se formam'],
  ['leaving', 'Saem da escola'],
  ['balancesClosed', 'Saldos encerrados'],
] as const;

/** Step 4: the server's preview of these choices, then the apply, confirmed. */
function PreviewStep({ body, onApplied }: { body: RolloverInput; onApplied: (outcome: RolloverOutcome) => void }) {
  const preview = useQuery(rolloverPreviewRead(body));
  const apply = useApplyRollover(onApplied);
  const [confirmed, setConfirmed] = useState(false);
  const refresh = () => {
    apply.reset();
    setConfirmed(false);
    void preview.refetch();
  };
  const stale = apply.error?.code === 'rollover_stale';
  const shown = preview.data;

  return (
    <Card title="Prévia">
      {preview.error ? (
        <FormAlert message={errorMessage(preview.error)} />
      ) : !shown || preview.isFetching ? (
        <Spinner className="size-6" />
      ) : (
        <div className="grid gap-4">
          <p className="text-lg font-semibold text-slate-900" aria-live="polite">
            {shown.summary}
          </p>
          <dl className="grid grid-cols-2 gap-2 sm:grid-cols-5">
            {COUNT_LABELS.map(([key, label]) => (
              <div key={key} className="rounded-xl bg-slate-50 p-3">
                <dt className="text-sm text-slate-600">{label}</dt>
                <dd className="text-xl font-bold text-slate-900">{formatNumber(shown.counts[key])}</dd>
              </div>
            ))}
          </dl>
          <p className="text-sm text-slate-600">
            Antes de aplicar, o Méritus faz uma cópia de segurança automática. A virada acontece de uma vez: se algo falhar, nada muda.
          </p>
          {stale ? (
            <div className="grid gap-2">
              <FormAlert message={apply.error!.message} />
              <div>
                <Button variant="secondary" onClick={refresh}>
                  Gerar nova prévia
                </Button>
              </div>
            </div>
          ) : (
            <>
              <label className="flex min-h-11 items-start gap-3 text-sm text-slate-800">
                <input
                  type="checkbox"
                  checked={confirmed}
                  onChange={(event) => setConfirmed(event.target.checked)}
                  className="mt-0.5 size-5 shrink-0 accent-indigo-600"
                />
                <span>Confirmo a virada do {shown.year.name}: ela não pode ser desfeita.</span>
              </label>
              {apply.error && <FormAlert message={apply.error.message} />}
              <div>
                <Button
                  variant="danger"
                  disabled={!confirmed || apply.isPending}
                  onClick={() => apply.submit({ mapping: shown.mapping, balances: shown.balances, token: shown.token })}
                >
                  {apply.isPending ? 'Aplicando…' : `Aplicar a virada do ${shown.year.name}`}
                </Button>
              </div>
            </>
          )}
        </div>
      )}
    </Card>
  );
}

function Outcome({ outcome }: { outcome: RolloverOutcome }) {
  return (
    <Card>
      <div className="flex items-start gap-3" role="status">
        <CheckCircle2 aria-hidden="true" className="size-8 shrink-0 text-emerald-600" />
        <div className="grid gap-2">
          <h2 className="text-lg font-semibold text-slate-900">
            {outcome.applied ? `Virada do ${outcome.year.name} aplicada` : `O ${outcome.year.name} já estava encerrado: nada mudou`}
          </h2>
          <p className="text-slate-700">{outcome.summary}</p>
          {outcome.backupFile && <Detail label="Cópia de segurança">{outcome.backupFile}</Detail>}
          <Link to={paths.admin.settings} className="inline-flex min-h-11 items-center font-medium text-indigo-700 hover:text-indigo-900">
            Voltar para Configurações
          </Link>
        </div>
      </div>
    </Card>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <p className="text-sm break-all text-slate-600">
      {label}: {children}
    </p>
  );
}
