import { useId, useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import {
  Activity,
  ArrowDownCircle,
  ArrowLeftRight,
  BarChart3,
  ChevronDown,
  Coins,
  ShoppingBag,
  Sparkles,
  Undo2,
  UserCheck,
  Users,
} from 'lucide-react';
import { PageHeader } from '../../ui/page-header.tsx';
import { Card } from '../../ui/card.tsx';
import { FigureCard } from '../../ui/figure-card.tsx';
import { directionOf } from '../../../shared/student-figures.ts';
import { ChangeLine } from '../../ui/change-line.tsx';
import { authorOptions, useOperationAuthors } from '../../lib/operation-authors.ts';
import { SelectField } from '../../ui/select-field.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { formatDate, formatMeritus, formatNumber } from '../../lib/format.ts';
import { cn } from '../../lib/cn.ts';
import {
  DEFAULT_REPORT_PERIOD,
  FIGURE_DEFINITIONS,
  FIGURE_LABELS,
  formatDayRange,
  isReportPreset,
  PERIOD_HINTS,
  REPORT_PERIOD_LABELS,
  REPORT_PERIODS,
  REPORT_WAITS_FOR_PERIOD,
  reportQuery,
  reportQueryOf,
  reportSearch,
  type FigureId,
  type ReportFigure,
} from '../../../shared/reports.ts';
import { schoolPeriodFilter, type SchoolYear } from '../../../shared/school-year.ts';
import { schoolSpanOptions, useSchoolYears, yearChoice, yearOfChoice } from '../../lib/school-spans.ts';
import { issueMessage } from '../../../shared/validation.ts';
import { useReports } from './report-queries.ts';
import { ReportChart } from './report-chart.tsx';
import { StoreReport } from './store-report.tsx';
import { DocumentsPanel, ExportLinks, HorizontalBars, ReportSection, ReportTableView, type Column } from './report-parts.tsx';
import { BimestreDocuments, WorkbookButton } from './bimestre-documents.tsx';

const COLORS = { awarded: '#059669', removed: '#e11d48', transferred: '#4f46e5', spent: '#7c3aed', amber: '#d97706' } as const;
const decimal = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });
const percent = (value: number) => `${decimal.format(value)}%`;
/** A change between two percentages is in percentage points: 100% → 90,9% is −9,1 p.p. */
const points = (value: number) => `${decimal.format(value)} p.p.`;

/** The Méritus awarded, removed, transferred and spent in the Loja, as the timeline and the turmas tables both show them. */
const FLOW_COLUMNS: Column<{ awarded: number; removed: number; transferred: number; spent: number }>[] = [
  { header: 'Concedidos', cell: (row) => formatMeritus(row.awarded), numeric: true },
  { header: 'Removidos', cell: (row) => formatMeritus(row.removed), numeric: true },
  { header: 'Transferidos', cell: (row) => formatMeritus(row.transferred), numeric: true },
  { header: 'Gastos na Loja', cell: (row) => formatMeritus(row.spent), numeric: true },
];

type ReportFilters = {
  /** A preset, or a school period ('atual' or its id). */
  period: string;
  /** A school year's id: its days, whatever the preset. */
  year?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  turma: string[];
  authorId?: string | undefined;
};

function filtersOf(params: URLSearchParams): ReportFilters {
  const raw = params.get('period') ?? '';
  const period = isReportPreset(raw) || schoolPeriodFilter.safeParse(raw).success ? raw : DEFAULT_REPORT_PERIOD;
  return {
    period,
    year: params.get('year') ?? undefined,
    from: params.get('from') ?? undefined,
    to: params.get('to') ?? undefined,
    turma: params.getAll('turma'),
    authorId: params.get('authorId') ?? undefined,
  };
}

/**
 * The filters as the URL keeps them; anything the server would refuse is shown as its message.
 * The router renders a new address in a transition, which can land frames later on a busy phone: a change shows at
 * once from local state, and builds on the address as it is now, so two quick changes (a date, then a turma) keep both.
 */
function useFilters() {
  const [params, setParams] = useSearchParams();
  const rendered = params.toString();
  const [pending, setPending] = useState<{ over: string; filters: ReportFilters } | null>(null);
  // A pending change holds until the address it was made over gives way (to it, or to back and forward).
  if (pending && pending.over !== rendered) setPending(null);
  const filters = pending?.over === rendered ? pending.filters : filtersOf(params);
  const update = (change: Partial<ReportFilters>) => {
    const next = { ...filtersOf(new URLSearchParams(window.location.search)), ...change };
    setPending({ over: rendered, filters: next });
    setParams(reportSearch(next), { replace: true });
  };
  return { filters, query: reportQueryOf(filters), update };
}

/**
 * `better`: the direction that is good news for the school, which colours the change line:
 * more awarded, more active students and more participation are good; more removed is not;
 * more transferred is neither (students helping each other, or pressure on one).
 */
const FIGURES: {
  id: FigureId;
  icon: ReactNode;
  tone: 'emerald' | 'rose' | 'indigo' | 'amber' | 'sky' | 'violet';
  better: 'up' | 'down' | null;
  format: (value: number) => string;
  /** How the change from the previous period is written, when not as the figure itself. */
  formatChange?: (value: number) => string;
}[] = [
  { id: 'meritusAwarded', icon: <Coins className="size-5" />, tone: 'emerald', better: 'up', format: formatMeritus },
  { id: 'meritusRemoved', icon: <ArrowDownCircle className="size-5" />, tone: 'rose', better: 'down', format: formatMeritus },
  { id: 'meritusTransferred', icon: <ArrowLeftRight className="size-5" />, tone: 'indigo', better: null, format: formatMeritus },
  { id: 'estelecasAwarded', icon: <Sparkles className="size-5" />, tone: 'amber', better: 'up', format: formatNumber },
  { id: 'estelecasRemoved', icon: <Sparkles className="size-5" />, tone: 'rose', better: 'down', format: formatNumber },
  { id: 'meritusSpent', icon: <ShoppingBag className="size-5" />, tone: 'violet', better: null, format: formatMeritus },
  { id: 'estelecasSpent', icon: <ShoppingBag className="size-5" />, tone: 'violet', better: null, format: formatNumber },
  { id: 'meritusReversed', icon: <Undo2 className="size-5" />, tone: 'amber', better: 'down', format: formatMeritus },
  { id: 'estelecasReversed', icon: <Undo2 className="size-5" />, tone: 'amber', better: 'down', format: formatNumber },
  { id: 'activeStudents', icon: <UserCheck className="size-5" />, tone: 'sky', better: 'up', format: formatNumber },
  { id: 'participation', icon: <Activity className="size-5" />, tone: 'violet', better: 'up', format: percent, formatChange: points },
];

function FigureChange({
  figure,
  better,
  format,
  formatChange = format,
}: {
  figure: ReportFigure;
  better: 'up' | 'down' | null;
  format: (value: number) => string;
  formatChange?: ((value: number) => string) | undefined;
}) {
  const delta = Math.round((figure.current - figure.previous) * 10) / 10;
  return (
    <ChangeLine direction={directionOf(delta)} better={better}>
      {delta === 0 ? 'Igual ao' : `${delta > 0 ? '+' : '−'}${formatChange(Math.abs(delta))} vs.`} período anterior (
      {format(figure.previous)})
    </ChangeLine>
  );
}

function TurmaFilter({
  available,
  chosen,
  onChange,
}: {
  available: readonly string[];
  chosen: readonly string[];
  onChange: (turmas: string[]) => void;
}) {
  const id = useId();
  const summary = chosen.length === 0 ? 'Todas as turmas' : chosen.length === 1 ? chosen[0] : `${chosen.length} turmas`;
  return (
    <details className="group relative">
      <summary
        className={cn(
          'flex h-12 cursor-pointer list-none items-center justify-between gap-2 rounded-xl',
          'border border-slate-300 bg-white px-3.5 text-sm text-slate-900 shadow-sm',
        )}
      >
        <span>
          <span className="sr-only">Turmas: </span>
          {summary}
        </span>
        <ChevronDown aria-hidden="true" className="size-4 shrink-0 text-slate-500 group-open:rotate-180" />
      </summary>
      <fieldset className="absolute z-20 mt-1 max-h-80 w-full min-w-64 overflow-y-auto rounded-xl border border-slate-200 bg-white p-2 shadow-lg">
        <legend className="sr-only">Turmas do relatório</legend>
        <button
          type="button"
          onClick={() => onChange([])}
          className="mb-1 w-full rounded-lg px-2 py-1.5 text-left text-sm font-medium text-indigo-700 hover:bg-indigo-50"
        >
          Todas as turmas
        </button>
        {available.map((turma, index) => (
          <label
            key={turma}
            htmlFor={`${id}-${index}`}
            className="flex cursor-pointer items-center gap-2 rounded-lg px-2 py-1.5 text-sm text-slate-800 hover:bg-slate-50"
          >
            <input
              id={`${id}-${index}`}
              type="checkbox"
              className="size-4 accent-indigo-600"
              checked={chosen.includes(turma)}
              onChange={(event) => onChange(event.target.checked ? [...chosen, turma] : chosen.filter((item) => item !== turma))}
            />
            {turma}
          </label>
        ))}
      </fieldset>
    </details>
  );
}

/** The period's choices: the presets, then the school's calendar. */
function periodOptions(years: readonly SchoolYear[], chosen: string): { value: string; label: string }[] {
  return [...REPORT_PERIODS.map((value) => ({ value, label: REPORT_PERIOD_LABELS[value] })), ...schoolSpanOptions(years, chosen)];
}

/**
 * What is wrong with a custom period's days, judged by the schema the server uses (two days, in order, within the
 * longest period), or null: a range being typed is said beside its dates, not sent and shown as a failed load.
 */
function periodProblem(filters: ReportFilters): string | null {
  const parsed = reportQuery.safeParse({ period: filters.period, from: filters.from, to: filters.to });
  const issue = parsed.error?.issues.find((found) => found.path[0] === 'from' || found.path[0] === 'to');
  return issue ? issueMessage(issue) : null;
}

/** /admin/reports: a period and turmas (kept in the URL), figures with the period before, charts with their tables, exports and documents. */
export default function AdminReportsPage() {
  const { filters, query, update } = useFilters();
  const problem = periodProblem(filters);
  const { overview, timeline, reasons, store } = useReports(query, problem === null);
  const period = overview.data?.period;
  // The turma list outlives a refused or loading period (a custom range half typed), so the choices never vanish under the pointer.
  const [turmaChoices, setTurmaChoices] = useState<readonly string[]>([]);
  if (period && period.availableTurmas !== turmaChoices) setTurmaChoices(period.availableTurmas);
  const error = overview.error ?? timeline.error ?? reasons.error ?? store.error;
  const days = period ? formatDayRange(period.from, period.to) : '';
  const periodText = period?.label ? `${period.label}: ${days}` : days;
  const years = useSchoolYears();
  const periodQuery = useMemo(() => reportQueryOf({ ...filters, turma: [], authorId: undefined }), [filters]);
  const authors = useOperationAuthors();
  const author = authors.find((candidate) => candidate.id === filters.authorId);

  return (
    <div>
      <PageHeader
        title="Relatórios"
        description="Concessões, gastos na Loja, participação e destaques da escola no período escolhido."
        icon={BarChart3}
        actions={<WorkbookButton query={query} disabled={problem !== null} />}
      />

      <Card title="Filtros" className="mb-6">
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <SelectField
            label="Período"
            value={filters.year ? yearChoice(filters.year) : filters.period}
            options={periodOptions(years, filters.period)}
            onChange={({ target: { value } }) => {
              const year = yearOfChoice(value);
              update(year ? { period: 'year', year } : { period: value, year: undefined });
            }}
          />
          {filters.period === 'custom' && (
            <>
              <label className="flex flex-col gap-1.5 text-sm font-medium text-slate-800">
                De
                <input
                  type="date"
                  value={filters.from ?? ''}
                  onChange={(event) => update({ from: event.target.value })}
                  className="h-12 rounded-xl border border-slate-300 bg-white px-3.5 text-base text-slate-900 shadow-sm sm:text-sm"
                />
              </label>
              <label className="flex flex-col gap-1.5 text-sm font-medium text-slate-800">
                Até
                <input
                  type="date"
                  value={filters.to ?? ''}
                  onChange={(event) => update({ to: event.target.value })}
                  className="h-12 rounded-xl border border-slate-300 bg-white px-3.5 text-base text-slate-900 shadow-sm sm:text-sm"
                />
              </label>
            </>
          )}
          <div className="flex flex-col gap-1.5">
            <span className="text-sm font-medium text-slate-800" aria-hidden="true">
              Turmas
            </span>
            <TurmaFilter available={turmaChoices} chosen={filters.turma} onChange={(turma) => update({ turma })} />
          </div>
          <SelectField
            label="Autor"
            value={filters.authorId ?? ''}
            options={authorOptions(authors)}
            onChange={(event) => update({ authorId: event.target.value || undefined })}
          />
        </div>
        {problem && (
          <p role="alert" className="mt-2 text-sm font-medium text-rose-700">
            {problem}
          </p>
        )}
        <div className="mt-3 text-sm text-slate-700" aria-live="polite">
          {period && !problem && (
            <p>
              <strong className="font-semibold text-slate-900">{periodText}</strong> ({period.days} {period.days === 1 ? 'dia' : 'dias'}) ·
              comparado com {formatDayRange(period.previousFrom, period.previousTo)}
            </p>
          )}
          {!filters.year && isReportPreset(filters.period) && PERIOD_HINTS[filters.period] && (
            <p className="mt-1 text-xs text-slate-600">{PERIOD_HINTS[filters.period]}</p>
          )}
          {author && (
            <p className="mt-1 text-xs text-slate-600">
              Concessões, remoções e motivos contam só as operações de {author.name}; os saldos são os dos alunos.
            </p>
          )}
        </div>
      </Card>

      {error ? (
        <Card>
          <LoadError
            message={error.message}
            onRetry={() => void Promise.all([overview.refetch(), timeline.refetch(), reasons.refetch(), store.refetch()])}
          />
        </Card>
      ) : problem ? (
        <Card>
          <p className="py-6 text-center text-sm text-slate-600">{REPORT_WAITS_FOR_PERIOD}</p>
        </Card>
      ) : (
        <div className="flex flex-col gap-6">
          <section aria-labelledby="figures-title">
            <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
              <h2 id="figures-title" className="text-base font-semibold text-slate-900">
                Indicadores
              </h2>
              <ExportLinks table="figures" query={query} title="indicadores" />
            </div>
            <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-4">
              {FIGURES.map(({ id, icon, tone, better, format, formatChange }) => {
                const figure = overview.data?.figures[id];
                return (
                  <FigureCard
                    key={id}
                    testId={`figure-${id}`}
                    label={FIGURE_LABELS[id]}
                    icon={icon}
                    tone={tone}
                    value={figure ? format(figure.current) : <Skeleton className="h-8 w-24" />}
                    footer={
                      <>
                        {figure && <FigureChange figure={figure} better={better} format={format} formatChange={formatChange} />}
                        <p className="mt-1 text-slate-600">{FIGURE_DEFINITIONS[id]}</p>
                      </>
                    }
                  />
                );
              })}
              <FigureCard
                label="Alunos matriculados"
                icon={<Users className="size-5" />}
                tone="indigo"
                value={overview.data ? formatNumber(overview.data.figures.enrolled.current) : <Skeleton className="h-8 w-24" />}
                footer={<p className="text-slate-600">Alunos das turmas escolhidas no fim do período (base da participação).</p>}
              />
            </div>
          </section>

          <ReportSection
            title="Méritus ao longo do tempo"
            description={period?.bucket === 'week' ? 'Por semana (a semana começa na segunda-feira).' : 'Por dia.'}
            table="timeline"
            query={query}
            chart={
              timeline.data && (
                <ReportChart
                  kind="lines"
                  labels={timeline.data.points.map((point) => formatDate(point.start).slice(0, 5))}
                  series={[
                    { label: 'Concedidos', color: COLORS.awarded, values: timeline.data.points.map((point) => point.awarded) },
                    { label: 'Removidos', color: COLORS.removed, values: timeline.data.points.map((point) => point.removed) },
                    { label: 'Transferidos', color: COLORS.transferred, values: timeline.data.points.map((point) => point.transferred) },
                    { label: 'Gastos na Loja', color: COLORS.spent, values: timeline.data.points.map((point) => point.spent) },
                  ]}
                  format={formatNumber}
                />
              )
            }
          >
            <ReportTableView
              caption={`Méritus concedidos, removidos, transferidos e gastos na Loja ${period?.bucket === 'week' ? 'por semana' : 'por dia'}`}
              rows={timeline.data?.points}
              rowKey={(point) => point.start}
              empty="Nenhum dia no período"
              columns={[
                { header: period?.bucket === 'week' ? 'Semana de' : 'Dia', cell: (point) => formatDate(point.start) },
                ...FLOW_COLUMNS,
              ]}
            />
          </ReportSection>

          <StoreReport query={query} figures={overview.data?.figures} store={store.data} />

          <ReportSection
            title="Comparação entre turmas"
            description="Média de Méritus por aluno no fim do período; a tabela traz os totais e a participação."
            table="turmas"
            query={query}
            chart={
              overview.data && (
                <ReportChart
                  kind="bars"
                  labels={overview.data.turmas.map((row) => row.turma.replace(' - Turma ', ' '))}
                  series={[
                    { label: 'Média por aluno', color: COLORS.transferred, values: overview.data.turmas.map((row) => row.averageBalance) },
                  ]}
                  format={formatNumber}
                />
              )
            }
          >
            <ReportTableView
              caption="Totais de Méritus, média por aluno e participação por turma"
              rows={overview.data?.turmas}
              rowKey={(row) => row.turma}
              empty="Nenhuma turma"
              columns={[
                { header: 'Turma', cell: (row) => <span className="whitespace-nowrap">{row.turma}</span> },
                { header: 'Alunos', cell: (row) => formatNumber(row.students), numeric: true },
                ...FLOW_COLUMNS,
                { header: 'Saldo no fim', cell: (row) => formatMeritus(row.balance), numeric: true },
                { header: 'Média por aluno', cell: (row) => formatMeritus(row.averageBalance), numeric: true },
                { header: 'Participação', cell: (row) => percent(row.participation), numeric: true },
              ]}
            />
          </ReportSection>

          <ReportSection
            title="Distribuição de saldos"
            description="Quantos alunos têm cada faixa de saldo de Méritus no fim do período (somado das operações)."
            table="balances"
            query={query}
            chart={
              overview.data && (
                <ReportChart
                  kind="bars"
                  labels={overview.data.balances.map((row) =>
                    row.max === null
                      ? `${formatNumber(row.min)}+`
                      : row.min === row.max
                        ? formatNumber(row.min)
                        : `${formatNumber(row.min)}–${formatNumber(row.max)}`,
                  )}
                  series={[{ label: 'Alunos', color: COLORS.amber, values: overview.data.balances.map((row) => row.students) }]}
                  format={formatNumber}
                />
              )
            }
          >
            <ReportTableView
              caption="Alunos por faixa de saldo"
              rows={overview.data?.balances}
              rowKey={(row) => row.label}
              empty="Nenhum aluno"
              columns={[
                { header: 'Faixa de saldo', cell: (row) => row.label },
                { header: 'Alunos', cell: (row) => formatNumber(row.students), numeric: true },
              ]}
            />
          </ReportSection>

          <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
            {(['awards', 'penalties'] as const).map((kind) => {
              const list = reasons.data?.[kind];
              const title = kind === 'awards' ? 'Principais motivos de premiação' : 'Principais motivos de penalidade';
              return (
                <ReportSection
                  key={kind}
                  title={title}
                  description={
                    kind === 'awards'
                      ? 'Adições e recompensas, de Méritus e de Estelecas, pelo texto do motivo.'
                      : 'Remoções e penalidades, de Méritus e de Estelecas, pelo texto do motivo.'
                  }
                  table={kind}
                  query={query}
                  chart={
                    list && (
                      <HorizontalBars
                        color={kind === 'awards' ? COLORS.awarded : COLORS.removed}
                        items={list.map((row) => ({ label: row.description, value: row.operations, text: formatNumber(row.operations) }))}
                      />
                    )
                  }
                >
                  <ReportTableView
                    caption={`${title}: operações e valores`}
                    rows={list}
                    rowKey={(row) => row.description}
                    empty="Nenhuma operação no período"
                    columns={[
                      { header: 'Motivo', cell: (row) => (row.preset ? `${row.description} (motivo rápido)` : row.description) },
                      { header: 'Operações', cell: (row) => formatNumber(row.operations), numeric: true },
                      { header: 'Méritus', cell: (row) => formatMeritus(row.meritus), numeric: true },
                      { header: 'Estelecas', cell: (row) => formatNumber(row.estelecas), numeric: true },
                    ]}
                    skeletonClassName="h-40"
                  />
                </ReportSection>
              );
            })}
          </div>

          <ReportSection
            title="Alunos que mais subiram"
            description="Maior aumento do saldo de Méritus entre o início e o fim do período."
            table="risers"
            query={query}
            chart={
              overview.data && (
                <HorizontalBars
                  color={COLORS.awarded}
                  items={overview.data.risers.map((row) => ({ label: row.name, value: row.change, text: `+${formatMeritus(row.change)}` }))}
                />
              )
            }
          >
            <ReportTableView
              caption="Alunos que mais subiram no período"
              rows={overview.data?.risers}
              rowKey={(row) => row.id}
              empty="Nenhum aluno aumentou o saldo no período"
              columns={[
                { header: 'Aluno', cell: (row) => row.name },
                { header: 'Turma', cell: (row) => row.grade },
                { header: 'Início', cell: (row) => formatMeritus(row.start), numeric: true },
                { header: 'Fim', cell: (row) => formatMeritus(row.end), numeric: true },
                { header: 'Variação', cell: (row) => `+${formatMeritus(row.change)}`, numeric: true },
              ]}
              skeletonClassName="h-40"
            />
          </ReportSection>

          <section aria-labelledby="bimestre-title">
            <h2 id="bimestre-title" className="mb-3 text-base font-semibold text-slate-900">
              Fim do bimestre
            </h2>
            <BimestreDocuments periodQuery={periodQuery} periodText={periodText} turmas={turmaChoices} chosen={filters.turma} />
          </section>

          <section aria-labelledby="documents-title">
            <h2 id="documents-title" className="mb-3 text-base font-semibold text-slate-900">
              Documentos
            </h2>
            <DocumentsPanel periodQuery={periodQuery} periodText={periodText} />
          </section>
        </div>
      )}
    </div>
  );
}
