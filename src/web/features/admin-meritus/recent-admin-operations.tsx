import { History } from 'lucide-react';
import type { LedgerEntryView } from '../../../shared/ledger.ts';
import { directionOf, OPERATION_TYPE_LABELS, rowDirection } from '../../../shared/ledger-types.ts';
import { formatRelativeTime, formatSignedMeritus, formatDateTime } from '../../lib/format.ts';
import { cn } from '../../lib/cn.ts';
import { useNow } from '../../lib/use-now.ts';
import { Badge } from '../../ui/badge.tsx';
import { Card } from '../../ui/card.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { ReversalAction } from '../../ui/reversal-action.tsx';
import { ReversedNote } from '../../ui/reversed-note.tsx';
import { useRecentAdminMeritus } from './meritus-queries.ts';

function Row({ entry, now }: { entry: LedgerEntryView; now: Date }) {
  const credit = rowDirection(entry.type, entry) === 'raises';
  const student = entry.to ?? entry.from;
  return (
    <li className="flex items-start justify-between gap-3 py-3">
      <div className="min-w-0">
        <p className="text-sm font-semibold wrap-anywhere text-slate-900">
          {student ? student.name : 'Estudante removido'}
          {student?.removed && <span className="font-normal text-slate-600"> (removido)</span>}
        </p>
        <p className="text-xs wrap-anywhere text-slate-600">{entry.description}</p>
        <p className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-slate-600">
          <Badge tone={directionOf(entry.type) === 'reverses' ? 'amber' : credit ? 'emerald' : 'rose'}>
            {OPERATION_TYPE_LABELS[entry.type]}
          </Badge>
          <span>por {entry.actorName}</span>
        </p>
        <ReversedNote reversal={entry.reversedBy} />
      </div>
      <div className="flex shrink-0 flex-col items-end gap-0.5">
        <span
          className={cn(
            'text-sm font-bold tabular-nums',
            entry.reversedBy ? 'text-slate-500 line-through' : credit ? 'text-emerald-700' : 'text-rose-700',
          )}
        >
          {formatSignedMeritus(credit ? entry.amount : -entry.amount)}
        </span>
        <time dateTime={entry.createdAt} title={formatDateTime(entry.createdAt)} className="text-xs whitespace-nowrap text-slate-600">
          {formatRelativeTime(entry.createdAt, now)}
        </time>
        <ReversalAction
          row={entry}
          now={now}
          summary={`${entry.description} (${formatSignedMeritus(credit ? entry.amount : -entry.amount)} ${student ? student.name : ''})`}
        />
      </div>
    </li>
  );
}

/** The last 10 additions, rewards, removals, penalties and reversals of Méritus, by any member of the staff. */
export function RecentAdminOperations() {
  const recent = useRecentAdminMeritus();
  const now = useNow(30_000);
  return (
    <Card title="Operações Recentes" action={<History aria-hidden="true" className="size-5 text-slate-500" />}>
      {recent.isPending ? (
        <div className="flex flex-col gap-3">
          {[0, 1, 2, 3].map((key) => (
            <Skeleton key={key} className="h-14" />
          ))}
        </div>
      ) : (recent.data ?? []).length === 0 ? (
        <EmptyState title="Nenhuma operação recente" description="As adições e remoções de Méritus aparecem aqui." />
      ) : (
        <ul className="divide-y divide-slate-100">
          {recent.data!.map((entry) => (
            <Row key={entry.id} entry={entry} now={now} />
          ))}
        </ul>
      )}
    </Card>
  );
}
