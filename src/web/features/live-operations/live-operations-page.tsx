import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { ArrowLeftRight, Gift, Pause, Play, Radio, RefreshCw, Shield, UserRound, ListChecks, type LucideIcon } from 'lucide-react';
import { LIVE_BADGE_CLEAR_MS, POLL_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/errors.ts';
import { OPERATION_CATEGORIES, OPERATORS, type LiveOperation, type OperationCategory } from '../../../shared/ledger.ts';
import { operationMatches, queryWords } from '../../../shared/student-match.ts';
import { useSession } from '../../lib/session.ts';
import { countOf, formatMeritus, formatNumber, plural } from '../../lib/format.ts';
import { useLiveStatus } from '../../lib/live-events.ts';
import { cn } from '../../lib/cn.ts';
import { useNow } from '../../lib/use-now.ts';
import { Button } from '../../ui/button.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { SearchInput } from '../../ui/search-input.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { useLiveOperations } from './live-operations-queries.ts';
import { authorOptions, useOperationAuthors } from '../../lib/operation-authors.ts';
import { CATEGORY_LABELS, OperationRow, OPERATOR_LABELS } from './operation-row.tsx';
import { isStaffUser } from '../../../shared/areas.ts';

type Operator = LiveOperation['operator'];

function stats(list: readonly LiveOperation[]) {
  const completedMeritus = list.filter((operation) => operation.status === 'completed' && operation.currency === 'meritus');
  const sum = (category: OperationCategory) =>
    completedMeritus
      .filter((operation) => operation.category === category)
      .reduce((total, operation) => total + (operation.amount ?? 0), 0);
  return {
    total: list.length,
    byAdmins: list.filter((operation) => operation.operator === 'admin').length,
    byStudents: list.filter((operation) => operation.operator === 'student').length,
    awarded: sum('award'),
    transferred: sum('student_transfer'),
  };
}

/**
 * Counts the operations that appear in a newly shown list and keeps their ids, so the
 * '+N' badge and the highlight can show them; cleared LIVE_BADGE_CLEAR_MS after the last arrival.
 */
function useNewItems(shown: readonly LiveOperation[] | undefined) {
  const [previous, setPrevious] = useState(shown);
  const [fresh, setFresh] = useState<{ ids: ReadonlySet<string>; count: number; at: number }>({ ids: new Set(), count: 0, at: 0 });
  if (shown !== previous) {
    setPrevious(shown);
    if (previous && shown) {
      const known = new Set(previous.map((operation) => operation.id));
      const added = shown.filter((operation) => !known.has(operation.id)).map((operation) => operation.id);
      if (added.length > 0)
        setFresh((current) => ({ ids: new Set([...current.ids, ...added]), count: current.count + added.length, at: Date.now() }));
    }
  }
  useEffect(() => {
    if (fresh.count === 0) return;
    const timer = setTimeout(() => setFresh({ ids: new Set(), count: 0, at: 0 }), LIVE_BADGE_CLEAR_MS);
    return () => clearTimeout(timer);
  }, [fresh.at, fresh.count]);
  return fresh;
}

function Toolbar({ children }: { children: ReactNode }) {
  return <div className="flex flex-wrap items-center gap-2">{children}</div>;
}

/** The summary cards, in display order; the last spans the row on phones. */
const LIVE_STATS: {
  key: keyof ReturnType<typeof stats>;
  label: string;
  format: (value: number) => string;
  Icon: LucideIcon;
  tone: string;
  className?: string;
}[] = [
  { key: 'total', label: 'Total', format: formatNumber, Icon: ListChecks, tone: 'bg-indigo-100 text-indigo-700' },
  { key: 'byAdmins', label: 'Por Admins', format: formatNumber, Icon: Shield, tone: 'bg-violet-100 text-violet-700' },
  { key: 'byStudents', label: 'Por Alunos', format: formatNumber, Icon: UserRound, tone: 'bg-sky-100 text-sky-700' },
  { key: 'awarded', label: 'Concedido', format: formatMeritus, Icon: Gift, tone: 'bg-emerald-100 text-emerald-700' },
  {
    key: 'transferred',
    label: 'Transferido',
    format: formatMeritus,
    Icon: ArrowLeftRight,
    tone: 'bg-amber-100 text-amber-700',
    className: 'col-span-2 md:col-span-1',
  },
];

/** A figure over the listed operations; the value wraps instead of being cut on narrow phones. */
function LiveStat({
  label,
  value,
  icon,
  tone,
  className,
}: {
  label: string;
  value: string;
  icon: ReactNode;
  tone: string;
  className?: string;
}) {
  return (
    <div className={cn('flex items-center gap-3 rounded-2xl border border-slate-200 bg-white p-3 shadow-sm sm:p-4', className)}>
      <span aria-hidden="true" className={cn('hidden size-10 shrink-0 items-center justify-center rounded-xl min-[400px]:flex', tone)}>
        {icon}
      </span>
      <div className="min-w-0">
        <p className="text-sm font-medium text-slate-600">{label}</p>
        <p className="text-xl font-bold tracking-tight whitespace-nowrap text-slate-900 tabular-nums">{value}</p>
      </div>
    </div>
  );
}

/** How many operations of the feed are not in what the screen holds. */
function countArrived(held: LiveOperation[], feed: LiveOperation[]): number {
  const heldIds = new Set(held.map((operation) => operation.id));
  return feed.filter((operation) => !heldIds.has(operation.id)).length;
}

/** /admin/recent-operations: every operation as it happens, with refused attempts shown as failed. */
export function LiveOperationsPage() {
  const { user } = useSession();
  const live = useLiveStatus();
  const [paused, setPaused] = useState(false);
  const [frozen, setFrozen] = useState<LiveOperation[] | undefined>(undefined);
  const [authorId, setAuthorId] = useState('');
  const authors = useOperationAuthors();
  const feed = useLiveOperations(paused, authorId);
  const shown = paused ? (frozen ?? feed.data) : feed.data;
  const fresh = useNewItems(shown);
  const now = useNow(15_000);
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState<'all' | OperationCategory>('all');
  const [operator, setOperator] = useState<'all' | Operator>('all');

  const figures = useMemo(() => stats(shown ?? []), [shown]);
  const visible = useMemo(() => {
    const words = queryWords(query);
    return (shown ?? []).filter(
      (operation) =>
        (category === 'all' || operation.category === category) &&
        (operator === 'all' || operation.operator === operator) &&
        operationMatches(operation, words),
    );
  }, [shown, query, category, operator]);

  if (!isStaffUser(user)) return null;

  const togglePause = () => {
    if (paused) {
      setFrozen(undefined);
      setPaused(false);
    } else {
      setFrozen(feed.data);
      setPaused(true);
    }
  };
  const refresh = async () => {
    const result = await feed.refetch();
    if (paused && result.data) setFrozen(result.data);
  };

  // What arrived while paused, so the user knows what resuming will show.
  const waiting = paused && frozen && feed.data ? countArrived(frozen, feed.data) : 0;
  const statusText = paused
    ? `Atualização pausada${waiting > 0 ? ` · ${countOf(waiting, 'nova operação', 'novas operações')} ao retomar` : ''}`
    : live
      ? 'Ao vivo'
      : `Atualização automática a cada ${POLL_MS.adminLive / 1000} s`;

  return (
    <div>
      <header className="mb-6 flex flex-col gap-4 lg:flex-row lg:items-center lg:justify-between">
        <div className="flex min-w-0 items-center gap-3">
          <span aria-hidden="true" className="flex size-11 shrink-0 items-center justify-center rounded-2xl bg-indigo-100 text-indigo-700">
            <Radio className="size-6" />
          </span>
          <div className="min-w-0">
            <h1 className="flex flex-wrap items-center gap-2 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
              Operações em Tempo Real
              <span aria-live="polite">
                {fresh.count > 0 && (
                  <span data-testid="new-items-badge" className="rounded-full bg-indigo-600 px-2.5 py-0.5 text-sm font-bold text-white">
                    +{fresh.count}
                    <span className="sr-only"> {plural(fresh.count, 'nova operação', 'novas operações')}</span>
                  </span>
                )}
              </span>
            </h1>
            <p className="mt-1 flex items-center gap-2 text-sm text-slate-600">
              <span
                aria-hidden="true"
                className={cn('size-2 rounded-full', paused ? 'bg-amber-400' : live ? 'animate-pulse bg-emerald-500' : 'bg-slate-400')}
              />
              <span role="status">{statusText}</span>
            </p>
          </div>
        </div>
        <Toolbar>
          <Button
            variant="secondary"
            onClick={togglePause}
            disabled={!paused && !feed.data}
            aria-pressed={paused}
            icon={paused ? <Play aria-hidden="true" className="size-4" /> : <Pause aria-hidden="true" className="size-4" />}
          >
            {paused ? 'Retomar' : 'Pausar'}
          </Button>
          <Button
            variant="secondary"
            onClick={() => void refresh()}
            disabled={feed.isFetching}
            icon={<RefreshCw aria-hidden="true" className={cn('size-4', feed.isFetching && 'animate-spin')} />}
          >
            Atualizar
          </Button>
        </Toolbar>
      </header>

      <section aria-labelledby="live-summary-title" className="mb-6">
        {/* The cards sum the operations the list holds, not the school's whole history: said on screen, since a total
            that stays at 100 and an awarded sum that falls after an award read as wrong otherwise. */}
        <h2 id="live-summary-title" className="mb-2 text-sm font-medium text-slate-600">
          {MESSAGES.liveSummaryTitle((shown ?? []).length)}
        </h2>
        <div className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-5">
          {LIVE_STATS.map(({ key, label, format, Icon, tone, className }) => (
            <LiveStat
              key={key}
              label={label}
              value={format(figures[key])}
              icon={<Icon className="size-5" />}
              tone={tone}
              className={className}
            />
          ))}
        </div>
      </section>

      <section aria-label="Operações" className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
        <div className="grid grid-cols-2 items-end gap-3 border-b border-slate-100 p-4 sm:p-5 lg:grid-cols-[1fr_13rem_13rem_13rem]">
          <SearchInput
            value={query}
            onChange={setQuery}
            label="Buscar operações"
            placeholder="Matrícula, nome ou descrição"
            className="col-span-2 lg:col-span-1"
          />
          <SelectField
            label="Tipo"
            className="h-11"
            value={category}
            onChange={(event) => setCategory(event.target.value as 'all' | OperationCategory)}
            options={[{ value: 'all', label: 'Todos' }, ...OPERATION_CATEGORIES.map((value) => ({ value, label: CATEGORY_LABELS[value] }))]}
          />
          <SelectField
            label="Operador"
            className="h-11"
            value={operator}
            onChange={(event) => setOperator(event.target.value as 'all' | Operator)}
            options={[{ value: 'all', label: 'Todos' }, ...OPERATORS.map((value) => ({ value, label: OPERATOR_LABELS[value] }))]}
          />
          <SelectField
            label="Autor"
            className="h-11"
            containerClassName="col-span-2 lg:col-span-1"
            value={authorId}
            onChange={(event) => {
              setAuthorId(event.target.value);
              setFrozen(undefined);
              setPaused(false);
            }}
            options={authorOptions(authors)}
          />
        </div>
        {feed.isPending ? (
          <div className="flex flex-col gap-3 p-5">
            {[0, 1, 2, 3, 4].map((key) => (
              <Skeleton key={key} className="h-16" />
            ))}
          </div>
        ) : visible.length === 0 ? (
          <EmptyState title="Nenhuma operação encontrada" />
        ) : (
          <ul className="divide-y divide-slate-100">
            {visible.map((operation) => (
              <OperationRow key={operation.id} operation={operation} now={now} fresh={fresh.ids.has(operation.id)} />
            ))}
          </ul>
        )}
        <footer className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-100 px-4 py-3 text-sm text-slate-600 sm:px-5">
          <span data-testid="live-count">
            {visible.length === (shown ?? []).length
              ? countOf(visible.length, 'operação', 'operações')
              : `${formatNumber(visible.length)} de ${countOf((shown ?? []).length, 'operação', 'operações')}`}
          </span>
          <span className="text-xs">As {formatNumber((shown ?? []).length)} mais recentes</span>
        </footer>
      </section>
    </div>
  );
}

export default LiveOperationsPage;
