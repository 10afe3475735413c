import { Link } from 'react-router';
import { PackageCheck, Target } from 'lucide-react';
import { currentSchoolTimeZone, dayIn } from '../../../shared/format.ts';
import { ORDER_STATUS_LABELS, STORE_TEXTS, type AdminStoreItem } from '../../../shared/store.ts';
import { formatAmount, formatDate, progressPercent } from '../../lib/format.ts';
import { paths } from '../../lib/paths.ts';
import { useSchoolSettings } from '../../lib/school-settings.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { ProgressBar } from '../../ui/progress-bar.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { turmasText } from './item-facts.ts';
import { ItemImage } from './item-image.tsx';
import { useAdminOrders, useAdminStoreItems, useDeliverOrder } from './store-queries.ts';

type GoalState = 'reached' | 'open' | 'expired' | 'inactive';

function goalState(goal: AdminStoreItem, today: string): GoalState {
  if ((goal.raised ?? 0) >= (goal.goal ?? Number.POSITIVE_INFINITY)) return 'reached';
  if (goal.deadline !== null && goal.deadline < today) return 'expired';
  return goal.active ? 'open' : 'inactive';
}

const STATE_BADGES = {
  reached: { tone: 'emerald', label: STORE_TEXTS.goalReached },
  open: { tone: 'indigo', label: 'Em andamento' },
  expired: { tone: 'rose', label: 'Prazo encerrado: contribuições devolvidas' },
  inactive: { tone: 'slate', label: 'Inativa' },
} as const;

/** A reached goal's order (one for the whole turma): its status, and Entregar while pending. */
function GoalOrder({ goal }: { goal: AdminStoreItem }) {
  const orders = useAdminOrders({ item: goal.id, page: 1, pageSize: 1 });
  const deliver = useDeliverOrder();
  const order = orders.data?.items[0];
  if (!order) return null;
  return (
    <div className="flex flex-col gap-2 rounded-xl bg-emerald-50 p-3 ring-1 ring-emerald-200 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-sm text-emerald-900">
        Pedido da turma: <strong>{ORDER_STATUS_LABELS[order.status]}</strong>
      </p>
      {order.status === 'pending' && (
        <Button
          variant="success"
          size="sm"
          icon={<PackageCheck aria-hidden="true" className="size-4" />}
          loading={deliver.isPending}
          blocksDoubleClick
          aria-label={`Entregar ${goal.name}`}
          onClick={() =>
            deliver.mutate(order.id, {
              onSuccess: (result) => toast.success(result.message),
              onError: (error) => toastError(error, 'Erro ao entregar pedido'),
            })
          }
        >
          Entregar
        </Button>
      )}
    </div>
  );
}

function GoalCard({ goal, today, turmas }: { goal: AdminStoreItem; today: string; turmas: readonly { id: string; name: string }[] }) {
  const state = goalState(goal, today);
  const raised = goal.raised ?? 0;
  const target = goal.goal ?? 0;
  const badge = STATE_BADGES[state];
  return (
    <li>
      <Card as="article" className="flex h-full flex-col gap-3">
        <div className="flex gap-3">
          <ItemImage item={goal} className="size-14 shrink-0 rounded-xl" />
          <div className="flex min-w-0 flex-col gap-1">
            <h3 className="font-semibold wrap-anywhere text-slate-900">{goal.name}</h3>
            <p className="text-sm text-slate-600">{turmasText(goal.turmaIds, turmas)}</p>
            <Badge tone={badge.tone} className="self-start whitespace-normal">
              {badge.label}
            </Badge>
          </div>
        </div>
        <div className="flex flex-col gap-1.5">
          <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
            <span className="font-semibold text-slate-900 tabular-nums">
              {formatAmount(goal.currency, raised)} de {formatAmount(goal.currency, target)}
            </span>
            <span className="text-slate-600 tabular-nums">{Math.floor(progressPercent(raised, target))}%</span>
          </div>
          <ProgressBar value={raised} max={target} label={`Progresso de ${goal.name}`} tone={state === 'reached' ? 'emerald' : 'indigo'} />
        </div>
        <p className="text-sm text-slate-600">Prazo: {goal.deadline ? formatDate(goal.deadline) : '—'}</p>
        {state === 'reached' && <GoalOrder goal={goal} />}
        <Link
          to={`${paths.admin.store}?aba=pedidos&status=all&item=${goal.id}`}
          className="mt-auto text-sm font-semibold text-indigo-700 underline-offset-2 hover:underline"
        >
          Ver pedidos desta meta
        </Link>
      </Card>
    </li>
  );
}

/** Metas da turma: each goal's progress, deadline and state; a reached goal's order is delivered here or in Pedidos. */
export function GoalsSection() {
  const items = useAdminStoreItems();
  const turmas = useSchoolSettings().data?.turmas ?? [];
  const today = dayIn(currentSchoolTimeZone(), new Date());
  const goals = (items.data ?? []).filter((item) => item.category === 'turma');
  if (items.isPending)
    return (
      <div aria-hidden="true" className="grid gap-4 md:grid-cols-2">
        <Skeleton className="h-48 rounded-2xl" />
        <Skeleton className="h-48 rounded-2xl" />
      </div>
    );
  if (items.isError && !items.data)
    return <LoadError message="Erro ao carregar a loja" onRetry={() => void items.refetch()} retrying={items.isFetching} />;
  if (goals.length === 0)
    return (
      <Card>
        <EmptyState
          icon={<Target className="size-6" />}
          title="Nenhuma meta da turma"
          description="Crie no Catálogo um item da categoria Turma, com a meta e o prazo."
        />
      </Card>
    );
  return (
    <ul aria-label="Metas da turma" className="grid gap-4 md:grid-cols-2 2xl:grid-cols-3">
      {goals.map((goal) => (
        <GoalCard key={goal.id} goal={goal} today={today} turmas={turmas} />
      ))}
    </ul>
  );
}
