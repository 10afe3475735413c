import { useEffect, useState, type ReactNode } from 'react';
import { ArrowDownLeft, ArrowUpRight, Award, Check, Crown, Gem, History, Lock, Send, Sparkles, Star, type LucideIcon } from 'lucide-react';
import { toast } from 'react-hot-toast';
import { ESTELECAS_HISTORY_LIMIT, POLL_MS } from '../../../shared/constants.ts';
import { estelecasAchievements, netChangeText, type Achievement } from '../../../shared/student-figures.ts';
import type { StudentSummary } from '../../../shared/student-area.ts';
import { cn } from '../../lib/cn.ts';
import { formatEstelecas, formatNumber, formatSignedAmount, plural } from '../../lib/format.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { readOf } from '../../lib/query-keys.ts';
import { useLiveQuery } from '../../lib/live-query.ts';
import { useStudentSummary } from '../../lib/student-queries.ts';
import { useSession } from '../../lib/session.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { ChangeLine } from '../../ui/change-line.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { OperationList } from '../../ui/operation-list.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { ProgressBar } from '../../ui/progress-bar.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { FigureCard } from '../../ui/figure-card.tsx';
import type { Tone } from '../../ui/tone.ts';
import { EstelecasTransferDialog } from './estelecas-transfer-dialog.tsx';
import { Link } from 'react-router';
import { paths } from '../../lib/paths.ts';
import { useSchoolSettings } from '../../lib/school-settings.ts';
import { achievementsOf, DEFAULT_RULES } from '../../../shared/settings.ts';

/** The achievements with the school's thresholds (its settings). */
function useAchievementThresholds() {
  return achievementsOf(useSchoolSettings().data?.rules ?? DEFAULT_RULES);
}

const HISTORY_ERROR = 'Erro ao carregar histórico de Estelecas';
const ACHIEVEMENT_ICONS: LucideIcon[] = [Star, Gem, Crown];

function StatCards({ balance, summary }: { balance: number; summary: StudentSummary | undefined }) {
  const thresholds = useAchievementThresholds();
  if (!summary) {
    return (
      <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4" aria-hidden="true">
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} className="h-[8.5rem] rounded-2xl" />
        ))}
      </div>
    );
  }
  const stats = summary.estelecasStats;
  const change = netChangeText('estelecas', summary.recent.estelecasNet);
  const next = estelecasAchievements(stats.peak, balance, thresholds).find((achievement) => !achievement.earned);
  const cards: { label: string; value: string; Icon: LucideIcon; tone: Tone; footer: ReactNode; textValue?: boolean }[] = [
    {
      label: 'Saldo de Estelecas',
      value: formatNumber(balance),
      Icon: Star,
      tone: 'emerald',
      footer: <ChangeLine direction={change.direction}>{change.text}</ChangeLine>,
    },
    {
      label: 'Total Recebido',
      value: formatNumber(stats.received),
      Icon: ArrowDownLeft,
      tone: 'sky',
      footer: (
        <ChangeLine direction={stats.receivedRecent > 0 ? 'up' : 'flat'}>
          {stats.receivedRecent > 0 ? `${formatSignedAmount('estelecas', stats.receivedRecent)} em 7 dias` : 'Nada recebido em 7 dias'}
        </ChangeLine>
      ),
    },
    {
      label: 'Total Enviado',
      value: formatNumber(stats.sent),
      Icon: ArrowUpRight,
      tone: 'violet',
      footer: (
        <span className="text-slate-600">
          {stats.deducted > 0 ? `Retirado por professores: ${formatNumber(stats.deducted)}` : 'Transferido para colegas'}
        </span>
      ),
    },
    {
      label: 'Próxima Conquista',
      value: next ? next.name : 'Todas conquistadas!',
      textValue: true,
      Icon: Award,
      tone: 'amber',
      footer: (
        <span className="text-slate-600">
          {next ? `${plural(next.missing, 'Falta', 'Faltam')} ${formatEstelecas(next.missing)}` : 'Você tem todas as conquistas'}
        </span>
      ),
    },
  ];
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4" data-testid="estelecas-stats">
      {cards.map(({ label, value, Icon, tone, footer, textValue }) => (
        <FigureCard
          key={label}
          label={label}
          value={value}
          textValue={textValue}
          icon={<Icon className="size-5" />}
          tone={tone}
          footer={footer}
        />
      ))}
    </div>
  );
}

function AchievementCard({ achievement, icon: Icon, balance }: { achievement: Achievement; icon: LucideIcon; balance: number }) {
  const { earned, name, threshold, missing } = achievement;
  return (
    <li
      className={cn(
        'flex items-center gap-3 rounded-2xl border p-3',
        earned ? 'border-amber-200 bg-amber-50/60' : 'border-slate-200 bg-white',
      )}
      data-testid="achievement"
      data-earned={earned}
    >
      <span
        aria-hidden="true"
        className={cn(
          'flex size-12 shrink-0 items-center justify-center rounded-2xl',
          earned ? 'bg-gradient-to-br from-amber-400 to-orange-500 text-white' : 'bg-slate-100 text-slate-500',
        )}
      >
        {earned ? <Icon className="size-6" /> : <Lock className="size-5" />}
      </span>
      <div className="min-w-0 flex-1">
        <p className="font-semibold text-slate-900">{name}</p>
        <p className="text-xs text-slate-600">Alcance {formatEstelecas(threshold)}</p>
        {earned ? (
          <span className="mt-1 inline-flex items-center gap-1 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">
            <Check aria-hidden="true" className="size-3.5" />
            Conquistada
          </span>
        ) : (
          <div className="mt-1.5 flex items-center gap-2">
            <ProgressBar value={balance} max={threshold} label={`Progresso para ${name}`} tone="amber" className="h-1.5 flex-1" />
            <span className="shrink-0 text-xs font-semibold text-slate-700">
              {plural(missing, 'Falta', 'Faltam')} {formatNumber(missing)}
            </span>
          </div>
        )}
      </div>
    </li>
  );
}

function EstelecasHistory({ fallbackMs }: { fallbackMs: number }) {
  const history = useLiveQuery(readOf(routes.ledger.myEstelecas, { query: { limit: ESTELECAS_HISTORY_LIMIT } }), fallbackMs);
  const failedAt = history.isError ? history.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) toast.error(HISTORY_ERROR, { id: 'estelecas-history-error' });
  }, [failedAt]);

  return (
    <Card title="Histórico de Estelecas">
      {history.isPending ? (
        <div className="flex flex-col gap-3 py-1" aria-hidden="true">
          {Array.from({ length: 5 }, (_, index) => (
            <Skeleton key={index} className="h-12 w-full" />
          ))}
        </div>
      ) : history.isError ? (
        <LoadError message={HISTORY_ERROR} onRetry={() => void history.refetch()} retrying={history.isFetching} />
      ) : history.data.length === 0 ? (
        <EmptyState icon={<History className="size-6" />} title="Nenhuma transação de Estelecas ainda" />
      ) : (
        <OperationList operations={history.data} label="Histórico de Estelecas" />
      )}
    </Card>
  );
}

/** /student/estelecas: real figures, the last 20 entries, achievements and the transfer dialog. */
export default function StudentEstelecasPage() {
  const { user } = useSession();
  const summary = useStudentSummary(POLL_MS.sidebarEstelecas);
  const [dialogOpen, setDialogOpen] = useState(false);
  const thresholds = useAchievementThresholds();
  if (user?.role !== 'student') return null;
  const balance = user.student.estelecas;
  const achievements = summary.data ? estelecasAchievements(summary.data.estelecasStats.peak, balance, thresholds) : null;

  // With nothing to send, the button says why and where Estelecas come from, rather than opening a form that can only refuse.
  const empty = balance === 0;
  const actions = (
    <div className="flex flex-col gap-1.5 sm:items-end">
      <Button
        onClick={() => setDialogOpen(true)}
        disabled={empty}
        aria-describedby={empty ? 'estelecas-transfer-why' : undefined}
        icon={<Send aria-hidden="true" className="size-4" />}
      >
        Transferir Estelecas
      </Button>
      {empty && (
        <p id="estelecas-transfer-why" className="max-w-xs text-sm text-slate-600 sm:text-right">
          Você ainda não tem Estelecas para transferir.{' '}
          <Link to={paths.student.howToEarn} className="font-semibold text-indigo-700 underline underline-offset-2">
            Veja como ganhar
          </Link>
        </p>
      )}
    </div>
  );

  return (
    <div>
      <PageHeader title="Estelecas" description="Seus pontos de excelência" icon={Sparkles} actions={actions} />
      <div className="flex flex-col gap-6">
        {summary.isError ? (
          <Card>
            <LoadError
              message="Não foi possível carregar seus números"
              onRetry={() => void summary.refetch()}
              retrying={summary.isFetching}
            />
          </Card>
        ) : (
          <StatCards balance={balance} summary={summary.data} />
        )}
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
          <div className="lg:col-span-2">
            <EstelecasHistory fallbackMs={POLL_MS.sidebarEstelecas} />
          </div>
          <Card title="Conquistas">
            {achievements ? (
              <ul aria-label="Conquistas" className="flex flex-col gap-2">
                {achievements.map((achievement, index) => (
                  <AchievementCard
                    key={achievement.threshold}
                    achievement={achievement}
                    icon={ACHIEVEMENT_ICONS[index] ?? Star}
                    balance={balance}
                  />
                ))}
              </ul>
            ) : summary.isError ? (
              <p className="text-sm text-slate-600">Indisponível no momento.</p>
            ) : (
              <div className="flex flex-col gap-2" aria-hidden="true">
                {Array.from({ length: 3 }, (_, index) => (
                  <Skeleton key={index} className="h-[4.5rem] w-full rounded-2xl" />
                ))}
              </div>
            )}
          </Card>
        </div>
      </div>
      {dialogOpen && <EstelecasTransferDialog onClose={() => setDialogOpen(false)} balance={balance} />}
    </div>
  );
}
