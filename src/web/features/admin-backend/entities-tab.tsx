import { useState } from 'react';
import { ChevronLeft, ChevronRight, Download } from 'lucide-react';
import {
  ENTITY_IDS,
  ENTITY_LABELS,
  ENTITY_PAGE_SIZES,
  ENTITY_SEARCH_MAX,
  SYSTEM_TEXTS,
  type EntityId,
  type EntityPage,
} from '../../../shared/system.ts';
import { urlOf } from '../../../shared/contract/route.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { cn } from '../../lib/cn.ts';
import { countOf, formatDateTime, formatNumber } from '../../lib/format.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { SearchInput } from '../../ui/search-input.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { useEntityPage } from './backend-queries.ts';
import { useDebounced } from '../../lib/use-debounced.ts';

/** Typing pauses this long before the search goes to the server. */
const SEARCH_DEBOUNCE_MS = 300;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

type Cell = EntityPage['rows'][number][string];

function formatCell(value: Cell | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Sim' : 'Não';
  if (typeof value === 'number') return formatNumber(value);
  return ISO_INSTANT.test(value) ? formatDateTime(value) : value;
}

function EntityTable({ page, label }: { page: EntityPage; label: string }) {
  return (
    // Scrolls sideways on narrow screens; focusable so the keyboard can scroll it too.
    <div role="region" aria-label={`Tabela: ${label}`} tabIndex={0} className="-mx-4 overflow-x-auto sm:-mx-5">
      <table className="w-full min-w-max text-left text-sm">
        <thead className="border-y border-slate-200 bg-slate-50 text-xs font-semibold text-slate-600">
          <tr>
            {page.columns.map((column) => (
              <th key={column.key} scope="col" className="px-2 py-2.5 whitespace-nowrap first:pl-4 last:pr-4 sm:first:pl-5 sm:last:pr-5">
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {page.rows.map((row, index) => (
            <tr key={index} className="hover:bg-slate-50/70">
              {page.columns.map((column) => (
                <td
                  key={column.key}
                  className="max-w-[22rem] truncate px-2 py-2.5 text-slate-800 first:pl-4 last:pr-4 sm:first:pl-5 sm:last:pr-5"
                  title={formatCell(row[column.key])}
                >
                  {formatCell(row[column.key])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Entidades: a read-only browser of each entity, paged and searched on the server, with its CSV export. */
export function EntitiesTab() {
  const [entity, setEntity] = useState<EntityId>('students');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(ENTITY_PAGE_SIZES[0]);
  const q = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const result = useEntityPage({ entity, page, pageSize, q });
  const label = ENTITY_LABELS[entity];

  // A new search starts from the first page.
  const [lastQ, setLastQ] = useState(q);
  if (q !== lastQ) {
    setLastQ(q);
    setPage(1);
  }

  const data = result.data?.entity === entity ? result.data : undefined;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const exportHref = urlOf(routes.system.entityExport, { params: { entity }, query: { q } });

  return (
    <Card>
      <div className="flex flex-col gap-3 lg:flex-row lg:items-end">
        <SelectField
          label="Entidade"
          containerClassName="lg:w-64"
          value={entity}
          options={ENTITY_IDS.map((id) => ({ value: id, label: ENTITY_LABELS[id] }))}
          onChange={(event) => {
            setEntity(event.target.value as EntityId);
            setPage(1);
          }}
        />
        <SearchInput
          label={`Buscar em ${label}`}
          className="flex-1"
          value={search}
          onChange={(value) => setSearch(value.slice(0, ENTITY_SEARCH_MAX))}
        />
        <a
          href={exportHref}
          download
          className={cn(
            'inline-flex h-11 shrink-0 items-center justify-center gap-2 rounded-xl border border-slate-300',
            'bg-white px-4 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50',
          )}
        >
          <Download aria-hidden="true" className="size-4" />
          Exportar CSV
        </a>
      </div>

      <div className="mt-4">
        {result.isError ? (
          <LoadError message={SYSTEM_TEXTS.loadFailed} onRetry={() => void result.refetch()} retrying={result.isFetching} />
        ) : !data ? (
          <div aria-hidden="true" className="flex flex-col gap-2">
            {[0, 1, 2, 3, 4].map((key) => (
              <Skeleton key={key} className="h-9" />
            ))}
          </div>
        ) : data.rows.length === 0 ? (
          <EmptyState
            title="Nenhum registro encontrado"
            description={q ? `Nada em ${label} corresponde a "${q}".` : `${label} não tem registros.`}
          />
        ) : (
          <div className={cn('transition-opacity', result.isPlaceholderData && 'opacity-60')} aria-busy={result.isFetching}>
            <EntityTable page={data} label={label} />
          </div>
        )}
      </div>

      {data && data.total > 0 && (
        <nav aria-label="Páginas" className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p role="status" className="text-sm text-slate-600">
            Página {formatNumber(data.page)} de {formatNumber(pages)} · {countOf(data.total, 'registro', 'registros')}
          </p>
          <div className="grid grid-cols-2 gap-2 sm:flex sm:items-center">
            <SelectField
              label="Por página"
              hideLabel
              containerClassName="col-span-2 sm:w-40"
              value={String(pageSize)}
              options={ENTITY_PAGE_SIZES.map((size) => ({ value: String(size), label: `${size} / página` }))}
              onChange={(event) => {
                setPageSize(Number(event.target.value));
                setPage(1);
              }}
            />
            <Button
              variant="secondary"
              disabled={page <= 1}
              onClick={() => setPage(page - 1)}
              icon={<ChevronLeft aria-hidden="true" className="size-4" />}
            >
              Anterior
            </Button>
            <Button variant="secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Próxima
              <ChevronRight aria-hidden="true" className="size-4" />
            </Button>
          </div>
        </nav>
      )}
    </Card>
  );
}
