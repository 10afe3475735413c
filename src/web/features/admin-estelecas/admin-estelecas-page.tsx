import { useMemo, useState } from 'react';
import { ArrowRight, Medal, MinusCircle, PlusCircle, Sparkles, Trophy } from 'lucide-react';
import type { LedgerEntryView } from '../../../shared/ledger.ts';
import {
  directionOf,
  LEDGER_TYPES,
  OPERATION_TYPE_LABELS,
  rowDirection,
  type LedgerDirection,
  type LedgerType,
} from '../../../shared/ledger-types.ts';
import { competitionPositions } from '../../../shared/student-figures.ts';
import { operationMatches, queryWords } from '../../../shared/student-match.ts';
import { useSession } from '../../lib/session.ts';
import { countOf, formatDateTime, formatNumber, plural } from '../../lib/format.ts';
import { cn } from '../../lib/cn.ts';
import { useNow } from '../../lib/use-now.ts';
import { ReversalAction } from '../../ui/reversal-action.tsx';
import { ReversedNote } from '../../ui/reversed-note.tsx';
import { Avatar } from '../../ui/avatar.tsx';
import { Badge } from '../../ui/badge.tsx';
import { Button, type ButtonVariant } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { SearchInput } from '../../ui/search-input.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import type { Tone } from '../../ui/tone.ts';
import type { LucideIcon } from 'lucide-react';
import { EstelecasOperationModal, type EstelecasMode } from './estelecas-operation-modal.tsx';
import { useEstelecasHistory, useEstelecasRanking } from './estelecas-queries.ts';
import { isStaffUser } from '../../../shared/areas.ts';

/** How a history row shows which way it moved Estelecas: its badge's tone, its amount's colour and sign. */
const DIRECTION_LOOKS: Record<Exclude<LedgerDirection, 'reverses'>, { tone: Tone; text: string; sign: string }> = {
  raises: { tone: 'emerald', text: 'text-emerald-700', sign: '+' },
  lowers: { tone: 'rose', text: 'text-rose-700', sign: '-' },
  moves: { tone: 'sky', text: 'text-sky-700', sign: '' },
};
const MEDALS = ['text-amber-500', 'text-slate-400', 'text-orange-700'];
/** The header's buttons that open the add and the remove dialogs. */
const OPERATION_BUTTONS: { opens: EstelecasMode; variant: ButtonVariant; Icon: LucideIcon; label: string }[] = [
  { opens: 'add', variant: 'primary', Icon: PlusCircle, label: 'Adicionar Estelecas' },
  { opens: 'remove', variant: 'danger', Icon: MinusCircle, label: 'Remover Estelecas' },
];

function RankingCard() {
  const ranking = useEstelecasRanking();
  // Ties share a place, as in the Méritus ranking.
  const ranked = useMemo(() => {
    const students = ranking.data ?? [];
    const positions = competitionPositions(students.map((student) => student.estelecas));
    return students.map((student, index) => ({ student, position: positions[index]! }));
  }, [ranking.data]);
  return (
    <Card title="Top 10 Estelecas" action={<Trophy aria-hidden="true" className="size-5 text-amber-500" />}>
      {ranking.isPending ? (
        <div className="flex flex-col gap-2">
          {[0, 1, 2, 3, 4].map((key) => (
            <Skeleton key={key} className="h-12" />
          ))}
        </div>
      ) : ranked.length === 0 ? (
        <EmptyState title="Nenhum estudante com Estelecas ainda" icon={<Sparkles className="size-6" />} />
      ) : (
        <ol className="flex flex-col gap-1">
          {ranked.map(({ student, position }) => (
            <li key={student.id} className="flex items-center gap-3 rounded-xl px-2 py-2 odd:bg-slate-50">
              <span className="flex w-7 shrink-0 justify-center text-sm font-bold text-slate-700 tabular-nums">
                {position <= 3 ? (
                  <Medal aria-label={`${position}º lugar`} className={cn('size-5', MEDALS[position - 1])} />
                ) : (
                  `${position}º`
                )}
              </span>
              <Avatar name={student.name} src={student.photo} size="sm" />
              <span className="min-w-0 flex-1">
                <span className="block text-sm font-semibold wrap-anywhere text-slate-900">{student.name}</span>
                <span className="block text-xs text-slate-600">{student.grade}</span>
              </span>
              <span className="shrink-0 text-sm font-bold text-violet-700 tabular-nums">
                {formatNumber(student.estelecas)}
                <span className="sr-only"> Estelecas</span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function HistoryRow({ entry, now }: { entry: LedgerEntryView; now: Date }) {
  const direction = rowDirection(entry.type, entry);
  const look = DIRECTION_LOOKS[direction];
  return (
    <li className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:gap-4">
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone={directionOf(entry.type) === 'reverses' ? 'amber' : look.tone}>{OPERATION_TYPE_LABELS[entry.type]}</Badge>
          {direction === 'moves' ? (
            <span className="flex min-w-0 flex-wrap items-center gap-x-1 text-sm font-semibold wrap-anywhere text-slate-900">
              <span>{entry.from?.name ?? '—'}</span>
              <ArrowRight aria-label="para" className="size-4 shrink-0 text-slate-500" />
              <span>{entry.to?.name ?? '—'}</span>
            </span>
          ) : (
            <span className="text-sm font-semibold wrap-anywhere text-slate-900">{(entry.to ?? entry.from)?.name ?? '—'}</span>
          )}
        </div>
        <p className="mt-0.5 text-sm wrap-anywhere text-slate-700">{entry.description}</p>
        <p className="text-xs text-slate-600">
          {entry.actorKind === 'admin' ? `por ${entry.actorName}` : entry.actorName} ·{' '}
          <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
        </p>
        <ReversedNote reversal={entry.reversedBy} />
      </div>
      <div className="flex shrink-0 items-center gap-3">
        <span className={cn('text-base font-bold tabular-nums', look.text, entry.reversedBy && 'line-through')}>
          {`${look.sign}${formatNumber(entry.amount)}`}{' '}
          <span className="text-xs font-semibold">{plural(entry.amount, 'Esteleca', 'Estelecas')}</span>
        </span>
        <ReversalAction
          row={entry}
          now={now}
          summary={`${entry.description} (${formatNumber(entry.amount)} ${plural(entry.amount, 'Esteleca', 'Estelecas')})`}
        />
      </div>
    </li>
  );
}

function HistoryCard() {
  const history = useEstelecasHistory();
  const now = useNow(60_000);
  const [query, setQuery] = useState('');
  const [type, setType] = useState<'' | LedgerType>('');
  const rows = useMemo(() => {
    const words = queryWords(query);
    return (history.data ?? []).filter((entry) => (!type || entry.type === type) && operationMatches(entry, words));
  }, [history.data, query, type]);

  return (
    <Card title="Histórico de Estelecas">
      <div className="mb-2 grid grid-cols-1 gap-3 sm:grid-cols-[1fr_14rem]">
        <SearchInput value={query} onChange={setQuery} label="Buscar no histórico" placeholder="Nome, matrícula ou descrição" />
        <SelectField
          label="Tipo"
          hideLabel
          className="h-11"
          placeholder="Todos os tipos"
          options={LEDGER_TYPES.map((value) => ({ value, label: OPERATION_TYPE_LABELS[value] }))}
          value={type}
          onChange={(event) => setType(event.target.value as '' | LedgerType)}
        />
      </div>
      {history.isPending ? (
        <div className="flex flex-col gap-3">
          {[0, 1, 2, 3].map((key) => (
            <Skeleton key={key} className="h-16" />
          ))}
        </div>
      ) : rows.length === 0 ? (
        <EmptyState
          title={(history.data ?? []).length === 0 ? 'Nenhuma transação de Estelecas ainda' : 'Nenhuma operação encontrada'}
          icon={<Sparkles className="size-6" />}
        />
      ) : (
        <ul
          tabIndex={0}
          aria-label="Operações de Estelecas"
          className="-mx-1 max-h-[70vh] divide-y divide-slate-100 overflow-y-auto px-1 lg:max-h-[36rem]"
        >
          {rows.map((entry) => (
            <HistoryRow key={entry.id} entry={entry} now={now} />
          ))}
        </ul>
      )}
      {history.data && history.data.length > 0 && (
        <p className="mt-2 border-t border-slate-100 pt-3 text-xs text-slate-600">
          {rows.length} de {countOf(history.data.length, 'operação', 'operações')} (as 50 mais recentes)
        </p>
      )}
    </Card>
  );
}

/** /admin/estelecas: top 10, the latest 50 operations, and the add and remove dialogs. */
export function AdminEstelecasPage() {
  const { user } = useSession();
  const [mode, setMode] = useState<EstelecasMode | null>(null);
  if (!isStaffUser(user)) return null;

  return (
    <div>
      <PageHeader
        title="Estelecas"
        description="Pontos de excelência: ranking, histórico e ajustes."
        icon={Sparkles}
        actions={
          <>
            {OPERATION_BUTTONS.map(({ opens, variant, Icon, label }) => (
              <Button
                key={opens}
                variant={variant}
                className="flex-auto whitespace-nowrap sm:flex-none"
                onClick={() => setMode(opens)}
                icon={<Icon aria-hidden="true" className="size-4" />}
              >
                {label}
              </Button>
            ))}
          </>
        }
      />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <RankingCard />
        </div>
        <div className="lg:col-span-3">
          <HistoryCard />
        </div>
      </div>
      {mode && <EstelecasOperationModal key={mode} mode={mode} onClose={() => setMode(null)} />}
    </div>
  );
}

export default AdminEstelecasPage;
