import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { FilterX, History, ListFilter, SearchX } from 'lucide-react';
import { POLL_MS } from '../../../shared/constants.ts';
import type { StudentOperationsPage } from '../../../shared/ledger.ts';
import type { Currency } from '../../../shared/ledger-types.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { call } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { countOf } from '../../lib/format.ts';
import { queryKeyOf } from '../../lib/query-keys.ts';
import { useFallbackInterval } from '../../lib/live-query.ts';
import { toastError } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { ChoiceGroup } from '../../ui/choice-group.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { OperationList } from '../../ui/operation-list.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { SearchInput } from '../../ui/search-input.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { groupByDay } from './operations-groups.ts';
import { useDebounced } from '../../lib/use-debounced.ts';

const PAGE_SIZE = 20;
const SEARCH_DELAY_MS = 300;

type Kind = 'transfer_in' | 'transfer_out' | 'credit' | 'debit' | 'store';

const CURRENCY_OPTIONS: { value: Currency | ''; label: string }[] = [
  { value: '', label: 'Todas' },
  { value: 'meritus', label: 'Méritus' },
  { value: 'estelecas', label: 'Estelecas' },
];

const KIND_OPTIONS: { value: Kind; label: string }[] = [
  { value: 'transfer_in', label: 'Transferências recebidas' },
  { value: 'transfer_out', label: 'Transferências enviadas' },
  { value: 'credit', label: 'Adições e recompensas' },
  { value: 'debit', label: 'Remoções e penalidades' },
  { value: 'store', label: 'Loja: compras, devoluções e contribuições' },
];

function CurrencyFilter({ value, onChange }: { value: Currency | ''; onChange: (value: Currency | '') => void }) {
  return <ChoiceGroup legend="Moeda" options={CURRENCY_OPTIONS} value={value} onChange={onChange} variant="segmented" />;
}

/** /student/recent-operations: the student's whole history of both currencies, filtered, searched and paged. */
export default function StudentOperationsPage() {
  const [currency, setCurrency] = useState<Currency | ''>('');
  const [kind, setKind] = useState<Kind | ''>('');
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const refetchInterval = useFallbackInterval(POLL_MS.dashboard);
  const filtered = currency !== '' || kind !== '' || q !== '';

  const filters = { currency: currency || undefined, kind: kind || undefined, q: q || undefined };
  const operations = useInfiniteQuery({
    queryKey: queryKeyOf(routes.ledger.myOperations, { query: filters }),
    queryFn: ({ pageParam, signal }) =>
      call(routes.ledger.myOperations, { query: { ...filters, limit: PAGE_SIZE, cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval,
  });
  const items = operations.data?.pages.flatMap((page) => page.items) ?? [];

  const loadMore = async () => {
    const result = await operations.fetchNextPage();
    if (result.isFetchNextPageError) toastError(result.error);
  };

  const clearFilters = () => {
    setCurrency('');
    setKind('');
    setSearch('');
  };

  return (
    <div>
      <PageHeader title="Operações Recentes" description="Todo o seu histórico de Méritus e Estelecas" icon={History} />
      <div className="flex flex-col gap-6">
        <Card>
          <div
            className={cn(
              'grid grid-cols-1 gap-4 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]',
              'xl:grid-cols-[minmax(0,18rem)_minmax(0,16rem)_minmax(0,1fr)] xl:items-end',
            )}
          >
            <CurrencyFilter value={currency} onChange={setCurrency} />
            <SelectField
              label="Tipo"
              placeholder="Todos os tipos"
              options={KIND_OPTIONS}
              value={kind}
              onChange={(event) => setKind(event.target.value as Kind | '')}
              className="h-12"
            />
            <div className="md:col-span-2 xl:col-span-1">
              <p className="mb-1.5 text-sm font-medium text-slate-800" aria-hidden="true">
                Buscar
              </p>
              <SearchInput
                value={search}
                onChange={setSearch}
                label="Buscar por descrição, colega ou matrícula"
                placeholder="Descrição ou nome do colega"
              />
            </div>
          </div>
        </Card>

        <Card
          title="Histórico"
          action={
            filtered ? (
              <Button variant="ghost" size="sm" onClick={clearFilters} icon={<FilterX aria-hidden="true" className="size-4" />}>
                Limpar filtros
              </Button>
            ) : undefined
          }
        >
          {operations.isPending ? (
            <div className="flex flex-col gap-3 py-1" aria-hidden="true" data-testid="operations-loading">
              {Array.from({ length: 8 }, (_, index) => (
                <Skeleton key={index} className="h-12 w-full" />
              ))}
            </div>
          ) : operations.isError ? (
            <LoadError
              message="Não foi possível carregar suas operações"
              onRetry={() => void operations.refetch()}
              retrying={operations.isFetching}
            />
          ) : items.length === 0 ? (
            filtered ? (
              <EmptyState
                icon={<SearchX className="size-6" />}
                title="Nenhuma operação encontrada"
                description="Tente outra busca ou outros filtros."
                action={
                  <Button variant="secondary" size="sm" onClick={clearFilters} icon={<ListFilter aria-hidden="true" className="size-4" />}>
                    Limpar filtros
                  </Button>
                }
              />
            ) : (
              <EmptyState
                icon={<History className="size-6" />}
                title="Nenhuma transação recente"
                description="Quando você receber ou enviar Méritus ou Estelecas, elas aparecem aqui."
              />
            )
          ) : (
            // A live update reads the list again in the background: it is said to assistive technology, not by dimming
            // the text (which took it below the contrast it must keep, and flashed at every operation).
            <div className="flex flex-col gap-5" aria-busy={operations.isFetching && !operations.isFetchingNextPage}>
              {groupByDay(items).map((group) => (
                <section key={group.key} aria-label={group.label}>
                  <h3
                    className={cn(
                      'sticky top-16 z-[1] -mx-1 bg-white/95 px-1 py-1 text-xs font-bold',
                      'tracking-wide text-slate-600 uppercase backdrop-blur lg:top-0',
                    )}
                  >
                    {group.label}
                  </h3>
                  <OperationList operations={group.operations} showCurrency label={`Operações de ${group.label}`} />
                </section>
              ))}
              <div className="flex flex-col items-center gap-2 border-t border-slate-100 pt-4">
                <p className="text-sm text-slate-600" aria-live="polite">
                  {countOf(items.length, 'operação', 'operações')}
                  {operations.hasNextPage ? ' carregadas' : ' no total'}
                </p>
                {operations.hasNextPage && (
                  <Button variant="secondary" onClick={() => void loadMore()} loading={operations.isFetchingNextPage}>
                    Carregar mais
                  </Button>
                )}
              </div>
            </div>
          )}
        </Card>
      </div>
    </div>
  );
}
