import { useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Activity, BarChart3, Coins, Info, RefreshCw, Settings, UserCheck, Users, Wallet, type LucideIcon } from 'lucide-react';
import type { DashboardPeriod, DashboardQuery, DashboardStat, DashboardSummary } from '../../../shared/dashboard.ts';
import { DASHBOARD_DEFINITIONS, DASHBOARD_PERIODS } from '../../../shared/dashboard-definitions.ts';
import { countOf, firstName, formatDate, formatMeritus, formatNumber, formatTime } from '../../lib/format.ts';
import { schoolSpanOptions, useSchoolYears, yearChoice, yearOfChoice } from '../../lib/school-spans.ts';
import { SelectField } from '../../ui/select-field.tsx';
import { paths } from '../../lib/paths.ts';
import { useSession } from '../../lib/session.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { ProgressBar } from '../../ui/progress-bar.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { StatCard } from '../../ui/stat-card.tsx';
import type { Tone } from '../../ui/tone.ts';
import { useDashboardSummary } from './dashboard-queries.ts';
import { GoalsPanel } from './goals-panel.tsx';
import { StatChangeBadge } from './stat-change.tsx';
import { WeeklyActivity } from './weekly-activity.tsx';
import { StoreCard } from './store-card.tsx';
import { isStaffUser } from '../../../shared/areas.ts';
import { STAFF_ROLE_LABELS } from '../../../shared/permissions.ts';
import { hasStaffPermission, isTeacherWithoutTurmas } from '../../lib/staff.ts';
import { Badge } from '../../ui/badge.tsx';
import { NoTurmasNotice } from '../../ui/no-turmas-notice.tsx';

const decimal = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });

type CardKey = keyof typeof DASHBOARD_PERIODS;

/** The four headline figures, in display order. */
const STAT_CARDS: { id: CardKey; label: string; format: (value: number) => string; Icon: LucideIcon; tone: Tone }[] = [
  { id: 'totalStudents', label: 'Total de Estudantes', format: formatNumber, Icon: Users, tone: 'indigo' },
  { id: 'meritusInCirculation', label: 'Méritus em Circulação', format: formatMeritus, Icon: Wallet, tone: 'amber' },
  { id: 'transactions7d', label: 'Transações (7 dias)', format: formatNumber, Icon: Activity, tone: 'sky' },
  { id: 'activeStudents', label: 'Estudantes Ativos', format: formatNumber, Icon: UserCheck, tone: 'emerald' },
];

/** A dashboard figure with its real change and a tooltip saying how it is measured. */
function DashboardStatCard({
  id,
  label,
  stat,
  format,
  icon,
  tone,
  spanChosen,
}: {
  id: CardKey;
  label: string;
  stat: DashboardStat;
  format: (value: number) => string;
  icon: ReactNode;
  tone: Tone;
  /** A school year or period is chosen: the operations card counts in it, against as many days before. */
  spanChosen: boolean;
}) {
  const span = spanChosen && id === 'transactions7d';
  const [showInfo, setShowInfo] = useState(false);
  const infoId = `stat-info-${id}`;
  return (
    <StatCard
      label={span ? 'Transações no período' : label}
      value={format(stat.value)}
      icon={icon}
      tone={tone}
      hint={<StatChangeBadge change={stat.change} period={span ? 'vs. período anterior' : DASHBOARD_PERIODS[id]} />}
      action={
        <button
          type="button"
          aria-label={`Como é calculado: ${label}`}
          aria-expanded={showInfo}
          aria-controls={infoId}
          onClick={() => setShowInfo((open) => !open)}
          onBlur={() => setShowInfo(false)}
          className="-mt-1.5 -mr-1.5 flex size-8 shrink-0 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-800"
        >
          <Info aria-hidden="true" className="size-4" />
        </button>
      }
    >
      <p
        id={infoId}
        role="note"
        hidden={!showInfo}
        className="absolute top-full right-0 left-0 z-10 mt-2 rounded-xl bg-slate-900 p-3 text-xs leading-relaxed text-white shadow-lg"
      >
        {span ? SPAN_OPERATIONS_DEFINITION : DASHBOARD_DEFINITIONS[id]}
      </p>
    </StatCard>
  );
}

const SPAN_OPERATIONS_DEFINITION =
  'Operações de Méritus (transferências, adições e remoções) do período escolhido até hoje, comparadas com o mesmo número de dias antes dele.';

/** The dashboard's period, kept in the URL as the reports keep theirs: a school year or period, none for the last 7 days. */
function usePeriodChoice(): { query: DashboardQuery; choice: string; choose: (value: string) => void } {
  const [params, setParams] = useSearchParams();
  const year = params.get('year') ?? undefined;
  const period = params.get('period') ?? undefined;
  const query: DashboardQuery = { ...(year ? { year } : {}), ...(period ? { period } : {}) };
  const choose = (value: string) => {
    const chosenYear = yearOfChoice(value);
    setParams(chosenYear ? { year: chosenYear } : value ? { period: value } : {}, { replace: true });
  };
  return { query, choice: year ? yearChoice(year) : (period ?? ''), choose };
}

/** '1º bimestre de 2026: 01/08/2026 a 28/11/2026', or the last 7 days. */
function periodText(period: DashboardPeriod): string {
  const days = `${formatDate(period.from)} a ${formatDate(period.to)}`;
  return period.label === null ? `Últimos 7 dias: ${days}` : `${period.label}: ${days}`;
}

type QuickAction = { to: string; label: string; description: string; Icon: LucideIcon };

const QUICK_ACTIONS: QuickAction[] = [
  { to: paths.admin.students, label: 'Estudantes', description: 'Cadastrar e editar alunos', Icon: Users },
  { to: paths.admin.meritus, label: 'Méritus', description: 'Adicionar ou remover M$', Icon: Coins },
  { to: paths.admin.reports, label: 'Relatórios', description: 'Resumos e exportações', Icon: BarChart3 },
  { to: paths.admin.settings, label: 'Configurações', description: 'Preferências do sistema', Icon: Settings },
];

function QuickActions({ isAvailable }: { isAvailable: (path: string) => boolean }) {
  const actions = QUICK_ACTIONS.filter((action) => isAvailable(action.to));
  if (actions.length === 0) return null;
  return (
    <Card title="Ações rápidas" className="order-first lg:order-none">
      <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-1">
        {actions.map(({ to, label, description, Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="flex h-full items-center gap-3 rounded-xl border border-slate-200 p-3 transition-colors hover:border-indigo-300 hover:bg-indigo-50"
            >
              <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-indigo-600 text-white">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <span className="min-w-0">
                <span className="block text-sm font-semibold text-slate-900">{label}</span>
                <span className="block text-xs text-slate-600">{description}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function Overview({ summary }: { summary: DashboardSummary }) {
  const { overview, totalStudents } = summary;
  return (
    <Card title="Visão geral">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <div className="rounded-xl bg-slate-50 p-4">
          <p className="text-sm font-medium text-slate-600">Taxa de participação</p>
          <p className="mt-0.5 text-2xl font-bold text-slate-900 tabular-nums">{decimal.format(overview.participationRate)}%</p>
          <ProgressBar value={overview.participationRate} max={100} label="Taxa de participação" tone="emerald" className="mt-2" />
          <p className="mt-1.5 text-xs text-slate-600">
            {formatNumber(overview.studentsWithBalance)} de {countOf(totalStudents.value, 'estudante', 'estudantes')} com saldo acima de 0
          </p>
        </div>
        <div className="rounded-xl bg-slate-50 p-4">
          <p className="text-sm font-medium text-slate-600">Média por estudante</p>
          <p className="mt-0.5 text-2xl font-bold text-slate-900 tabular-nums">{formatMeritus(overview.averagePerStudent)}</p>
          <p className="mt-1.5 text-xs text-slate-600">Méritus em circulação dividido pelo total de estudantes</p>
        </div>
      </div>
      <div className="mt-5">
        <WeeklyActivity days={overview.weeklyActivity} period={summary.period} />
      </div>
    </Card>
  );
}

function DashboardSkeleton() {
  return (
    <div aria-hidden="true" className="flex flex-col gap-6">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {[0, 1, 2, 3].map((key) => (
          <Skeleton key={key} className="h-28 rounded-2xl" />
        ))}
      </div>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Skeleton className="h-80 rounded-2xl lg:col-span-2" />
        <Skeleton className="h-80 rounded-2xl" />
      </div>
    </div>
  );
}

export type AdminDashboardPageProps = {
  /** Whether a screen exists, so no quick action leads to a dead page. */
  isAvailable: (path: string) => boolean;
};

/** /admin: greeting, the four figures with their real change, quick actions, overview and goals. */
export function AdminDashboardPage({ isAvailable }: AdminDashboardPageProps) {
  const { user } = useSession();
  const { query, choice, choose } = usePeriodChoice();
  const summary = useDashboardSummary(query);
  const years = useSchoolYears();
  if (!isStaffUser(user)) return null;
  const data = summary.data;
  const { admin } = user;
  const turmas = admin.turmas.map((turma) => turma.name);

  return (
    <div>
      <header className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Olá, {firstName(admin.name)}!</h1>
            <Badge tone="indigo">{STAFF_ROLE_LABELS[admin.role]}</Badge>
          </div>
          <p className="mt-1 text-sm text-slate-600 sm:text-base">
            {admin.role === 'coordinator'
              ? 'Acompanhe a participação da escola e as metas do período.'
              : turmas.length > 0
                ? `Acompanhe a participação ${turmas.length === 1 ? 'da sua turma' : 'das suas turmas'}: ${turmas.join(', ')}.`
                : 'Acompanhe a participação dos seus alunos.'}
          </p>
        </div>
        {!isTeacherWithoutTurmas(user) && (
          <div className="flex flex-col gap-1 sm:w-64 sm:items-end">
            <SelectField
              label="Período"
              containerClassName="w-full"
              value={choice}
              options={[{ value: '', label: 'Últimos 7 dias' }, ...schoolSpanOptions(years, choice)]}
              onChange={(event) => choose(event.target.value)}
            />
            {data && <p className="text-xs text-slate-600">Atualizado às {formatTime(data.generatedAt)}</p>}
          </div>
        )}
      </header>
      {data && !isTeacherWithoutTurmas(user) && (
        <p className="-mt-3 mb-4 text-sm text-slate-700" aria-live="polite">
          <strong className="font-semibold text-slate-900">{periodText(data.period)}</strong>
          {data.period.label !== null && ' · operações, concessões, Loja e atividade; saldos e metas seguem o dia de hoje'}
        </p>
      )}

      {isTeacherWithoutTurmas(user) ? (
        <NoTurmasNotice />
      ) : summary.isPending ? (
        <DashboardSkeleton />
      ) : !data ? (
        <Card className="flex flex-col items-center gap-3 py-10 text-center">
          <p className="font-semibold text-slate-900">Não foi possível carregar o painel.</p>
          <Button variant="secondary" onClick={() => void summary.refetch()} icon={<RefreshCw aria-hidden="true" className="size-4" />}>
            Tentar novamente
          </Button>
        </Card>
      ) : (
        <div className="flex flex-col gap-6">
          <section aria-label="Indicadores" className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
            {STAT_CARDS.map(({ id, label, format, Icon, tone }) => (
              <DashboardStatCard
                key={id}
                id={id}
                label={label}
                stat={data[id]}
                format={format}
                icon={<Icon className="size-5" />}
                tone={tone}
                spanChosen={data.period.label !== null}
              />
            ))}
          </section>
          <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-3">
            <div className="lg:col-span-2 lg:row-span-2">
              <Overview summary={data} />
            </div>
            <QuickActions isAvailable={isAvailable} />
            <GoalsPanel goals={data.goals} editable={hasStaffPermission(user, 'manageSchool')} />
          </div>
          <StoreCard store={data.store} now={new Date(data.generatedAt)} spanChosen={data.period.label !== null} />
        </div>
      )}
    </div>
  );
}
