import type { ReactNode } from 'react';
import { Link } from 'react-router';
import {
  ArrowLeftRight,
  ChevronRight,
  Coins,
  Inbox,
  PiggyBank,
  ShoppingBag,
  Target,
  Trophy,
  UserRound,
  type LucideIcon,
} from 'lucide-react';
import { POLL_MS, RECENT_TRANSACTIONS_LIMIT } from '../../../shared/constants.ts';
import { firstName, formatMeritus, formatNumber } from '../../lib/format.ts';
import { useMyTransactions, useStudentSummary } from '../../lib/student-queries.ts';
import { paths } from '../../lib/paths.ts';
import { useSession } from '../../lib/session.ts';
import { cn } from '../../lib/cn.ts';
import { Avatar } from '../../ui/avatar.tsx';
import { Card } from '../../ui/card.tsx';
import { ChangeLine } from '../../ui/change-line.tsx';
import { FigureCard } from '../../ui/figure-card.tsx';
import type { Tone } from '../../ui/tone.ts';
import { EmptyState } from '../../ui/empty-state.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { OperationList } from '../../ui/operation-list.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { ActiveTagsPanel } from './active-tags-panel.tsx';
import { goalCard, summaryChanges } from './dashboard-figures.ts';

function SummaryCards() {
  const summary = useStudentSummary(POLL_MS.dashboard);
  if (summary.isPending) {
    return (
      <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4" aria-hidden="true" data-testid="summary-loading">
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} className="h-[8.5rem] rounded-2xl" />
        ))}
      </div>
    );
  }
  if (summary.isError) {
    return (
      <Card>
        <LoadError message="Não foi possível carregar seus números" onRetry={() => void summary.refetch()} retrying={summary.isFetching} />
      </Card>
    );
  }
  const data = summary.data;
  const changes = summaryChanges(data);
  const goal = goalCard(data);
  const cards: { key: keyof typeof changes; label: string; value: ReactNode; Icon: LucideIcon; tone: Tone }[] = [
    { key: 'meritus', label: 'Méritus Atuais', value: formatMeritus(data.meritus), Icon: Coins, tone: 'amber' },
    { key: 'earned', label: 'Total Ganho', value: formatMeritus(data.totalEarned), Icon: PiggyBank, tone: 'emerald' },
    {
      key: 'rank',
      label: 'Posição no Ranking',
      value: (
        <>
          #{data.rank.position}
          <span className="ml-1.5 text-sm font-medium text-slate-600">de {formatNumber(data.rank.total)}</span>
        </>
      ),
      Icon: Trophy,
      tone: 'violet',
    },
    { key: 'goal', label: goal.label, value: `${goal.percent}%`, Icon: Target, tone: 'sky' },
  ];
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4" data-testid="summary-cards">
      {cards.map(({ key, label, value, Icon, tone }) => (
        <FigureCard
          key={key}
          label={label}
          value={value}
          icon={<Icon className="size-5" />}
          tone={tone}
          footer={<ChangeLine direction={changes[key].direction}>{changes[key].text}</ChangeLine>}
          testId={`card-${key}`}
        />
      ))}
    </div>
  );
}

function RecentTransactions() {
  const transactions = useMyTransactions(RECENT_TRANSACTIONS_LIMIT, POLL_MS.dashboard);
  return (
    <Card
      title="Transações Recentes"
      action={
        <Link
          to={paths.student.recentOperations}
          className="inline-flex min-h-11 items-center gap-1 rounded-lg px-2 text-sm font-semibold text-indigo-700 hover:bg-indigo-50"
        >
          Ver todas
          <ChevronRight aria-hidden="true" className="size-4" />
        </Link>
      }
    >
      {transactions.isPending ? (
        <div className="flex flex-col gap-3 py-1" aria-hidden="true">
          {Array.from({ length: 5 }, (_, index) => (
            <Skeleton key={index} className="h-12 w-full" />
          ))}
        </div>
      ) : transactions.isError ? (
        <LoadError
          message="Não foi possível carregar suas transações"
          onRetry={() => void transactions.refetch()}
          retrying={transactions.isFetching}
        />
      ) : transactions.data.length === 0 ? (
        <EmptyState icon={<Inbox className="size-6" />} title="Nenhuma transação recente" />
      ) : (
        <OperationList operations={transactions.data} label="Transações recentes" />
      )}
    </Card>
  );
}

const quickActions: { to: string; label: string; description: string; icon: LucideIcon; tone: string }[] = [
  {
    to: paths.student.transfer,
    label: 'Transferir M$',
    description: 'Envie Méritus a um colega',
    icon: ArrowLeftRight,
    tone: 'bg-indigo-100 text-indigo-700',
  },
  {
    to: paths.student.store,
    label: 'Loja',
    description: 'Troque seus Méritus por prêmios',
    icon: ShoppingBag,
    tone: 'bg-violet-100 text-violet-700',
  },
  {
    to: paths.student.ranking,
    label: 'Ver Ranking',
    description: 'Veja sua posição na escola',
    icon: Trophy,
    tone: 'bg-amber-100 text-amber-700',
  },
  {
    to: paths.student.profile,
    label: 'Meu Perfil',
    description: 'Seus dados e estatísticas',
    icon: UserRound,
    tone: 'bg-emerald-100 text-emerald-700',
  },
];

function QuickActions() {
  return (
    <Card title="Ações Rápidas">
      <ul className="flex flex-col gap-2">
        {quickActions.map((action) => (
          <li key={action.to}>
            <Link
              to={action.to}
              className={cn(
                'flex min-h-14 items-center gap-3 rounded-xl border border-slate-200 p-2.5',
                'transition-colors hover:border-indigo-300 hover:bg-indigo-50/50',
              )}
            >
              <span aria-hidden="true" className={`flex size-10 shrink-0 items-center justify-center rounded-xl ${action.tone}`}>
                <action.icon className="size-5" />
              </span>
              <span className="min-w-0 flex-1">
                <span className="block text-sm font-semibold text-slate-900">{action.label}</span>
                <span className="block text-xs text-slate-600">{action.description}</span>
              </span>
              <ChevronRight aria-hidden="true" className="size-4 text-slate-400" />
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** /student: greeting, the four real figures, weekly tags with likes, shortcuts and the latest transactions. */
export default function StudentDashboardPage() {
  const { user } = useSession();
  if (user?.role !== 'student') return null;
  const student = user.student;
  return (
    <div className="flex flex-col gap-6">
      <header className="flex items-center gap-4 rounded-3xl bg-gradient-to-br from-indigo-600 to-violet-600 p-5 text-white shadow-sm sm:p-6">
        <Avatar name={student.name} src={student.photo} size="lg" className="ring-4 ring-white/30" />
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight wrap-anywhere sm:text-3xl">Olá, {firstName(student.name)}!</h1>
          <p className="mt-1 text-sm text-indigo-100 sm:text-base">
            <span className="whitespace-nowrap">{student.grade}</span> ·{' '}
            <span className="whitespace-nowrap">Matrícula {student.studentId}</span>
          </p>
        </div>
      </header>
      <SummaryCards />
      {/* Below the fold on a phone: laid out only once scrolled near, so the first paint waits for less. */}
      <div className="grid grid-cols-1 gap-6 [contain-intrinsic-size:auto_32rem] [content-visibility:auto] lg:grid-cols-3">
        <div className="lg:col-span-2">
          <ActiveTagsPanel fallbackMs={POLL_MS.dashboard} viewerId={student.id} />
        </div>
        <QuickActions />
      </div>
      <div className="[contain-intrinsic-size:auto_28rem] [content-visibility:auto]">
        <RecentTransactions />
      </div>
    </div>
  );
}
