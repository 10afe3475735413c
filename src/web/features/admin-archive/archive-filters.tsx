import type { ReactNode } from 'react';
import { useId, useState } from 'react';
import { ArrowDownWideNarrow, ArrowUpNarrowWide, ChevronDown, Globe, SlidersHorizontal, Star, X } from 'lucide-react';
import {
  ARCHIVE_ACCESS_LABELS,
  ARCHIVE_CATEGORIES,
  ARCHIVE_CATEGORY_LABELS,
  ARCHIVE_SORT_LABELS,
  ARCHIVE_SORTS,
  ARCHIVE_TEXTS,
  type ArchiveAccessLevel,
  type ArchiveCategory,
  type ArchiveFacets,
  type ArchiveSort,
} from '../../../shared/archive.ts';
import { cn } from '../../lib/cn.ts';
import { formatNumber } from '../../lib/format.ts';
import { Button } from '../../ui/button.tsx';
import { SearchInput } from '../../ui/search-input.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { NO_FILTERS, type ArchiveFilters } from './archive-queries.ts';
import { ACCESS_OPTIONS } from './edit-modal.tsx';

function Toggle({ pressed, onClick, icon, children }: { pressed: boolean; onClick: () => void; icon: ReactNode; children: string }) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={onClick}
      className={cn(
        'inline-flex h-11 items-center gap-2 rounded-xl border px-3 text-sm font-semibold whitespace-nowrap transition-colors',
        pressed ? 'border-indigo-600 bg-indigo-600 text-white' : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50',
      )}
    >
      {icon}
      {children}
    </button>
  );
}

type Chip = { key: string; label: string; clear: Partial<ArchiveFilters> };

function activeChips(filters: ArchiveFilters, facets: ArchiveFacets | undefined): Chip[] {
  const chips: Chip[] = [];
  if (filters.q.trim()) chips.push({ key: 'q', label: `Busca: ${filters.q.trim()}`, clear: { q: '' } });
  if (filters.featured) chips.push({ key: 'featured', label: 'Destaque', clear: { featured: false } });
  if (filters.publicOnly) chips.push({ key: 'public', label: 'Público', clear: { publicOnly: false } });
  if (filters.category)
    chips.push({ key: 'category', label: `Categoria: ${ARCHIVE_CATEGORY_LABELS[filters.category]}`, clear: { category: '' } });
  if (filters.uploader) {
    const uploader = facets?.uploaders.find((entry) => entry.id === filters.uploader);
    chips.push({
      key: 'uploader',
      label: `Uploader: ${uploader?.name ?? uploader?.email ?? ARCHIVE_TEXTS.uploaderUnknown}`,
      clear: { uploader: '' },
    });
  }
  if (filters.accessLevel)
    chips.push({ key: 'access', label: `Acesso: ${ARCHIVE_ACCESS_LABELS[filters.accessLevel]}`, clear: { accessLevel: '' } });
  return chips;
}

/** Search, the Destaque and Público toggles, the collapsible Filtros panel and the active-filters line. */
export function ArchiveFiltersBar({
  filters,
  onChange,
  facets,
}: {
  filters: ArchiveFilters;
  onChange: (patch: Partial<ArchiveFilters>) => void;
  facets: ArchiveFacets | undefined;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const chips = activeChips(filters, facets);
  const categoryOptions = [
    { value: '', label: 'Todas as categorias' },
    // Every category, those without files too (0), so the list does not shift as files come and go.
    ...ARCHIVE_CATEGORIES.map((category) => ({
      value: category,
      label: `${ARCHIVE_CATEGORY_LABELS[category]} (${formatNumber(facets?.categories.find((entry) => entry.category === category)?.count ?? 0)})`,
    })),
  ];
  const uploaderOptions = [
    { value: '', label: 'Todos os uploaders' },
    ...(facets?.uploaders ?? []).map((entry) => ({
      value: entry.id,
      label: `${entry.name ?? entry.email ?? ARCHIVE_TEXTS.uploaderUnknown} (${formatNumber(entry.count)})`,
    })),
  ];
  const sortOptions = ARCHIVE_SORTS.map((sort) => ({ value: sort, label: ARCHIVE_SORT_LABELS[sort] }));
  const ascending = filters.order === 'asc';

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-2 md:flex-row md:items-center">
        <SearchInput
          className="md:flex-1"
          label="Buscar por nome, descrição, tags ou uploader"
          placeholder="Buscar imagens"
          value={filters.q}
          onChange={(q) => onChange({ q })}
        />
        <div className="flex flex-wrap gap-2 [&>*]:flex-auto md:[&>*]:flex-none">
          <Toggle
            pressed={filters.featured}
            onClick={() => onChange({ featured: !filters.featured })}
            icon={<Star aria-hidden="true" className="size-4" />}
          >
            Destaque
          </Toggle>
          <Toggle
            pressed={filters.publicOnly}
            onClick={() => onChange({ publicOnly: !filters.publicOnly })}
            icon={<Globe aria-hidden="true" className="size-4" />}
          >
            Público
          </Toggle>
          <button
            type="button"
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => setOpen((value) => !value)}
            className={cn(
              'inline-flex h-11 items-center justify-center gap-2 rounded-xl border border-slate-300 bg-white px-3',
              'text-sm font-semibold whitespace-nowrap text-slate-800 shadow-sm hover:bg-slate-50',
            )}
          >
            <SlidersHorizontal aria-hidden="true" className="size-4" />
            {ARCHIVE_TEXTS.filters}
            <ChevronDown aria-hidden="true" className={cn('size-4 transition-transform', open && 'rotate-180')} />
          </button>
        </div>
      </div>
      {open && (
        <div id={panelId} className="grid gap-3 rounded-2xl bg-slate-50 p-3 ring-1 ring-slate-200 sm:grid-cols-2 xl:grid-cols-4">
          <SelectField
            label="Categoria"
            options={categoryOptions}
            value={filters.category}
            onChange={(event) => onChange({ category: event.target.value as ArchiveCategory | '' })}
            className="h-11"
          />
          <SelectField
            label="Uploader"
            options={uploaderOptions}
            value={filters.uploader}
            onChange={(event) => onChange({ uploader: event.target.value })}
            className="h-11"
          />
          <SelectField
            label="Nível de Acesso"
            options={[{ value: '', label: 'Todos os níveis' }, ...ACCESS_OPTIONS]}
            value={filters.accessLevel}
            onChange={(event) => onChange({ accessLevel: event.target.value as ArchiveAccessLevel | '' })}
            className="h-11"
          />
          <div className="flex items-end gap-2">
            <SelectField
              label="Ordenar por"
              options={sortOptions}
              value={filters.sort}
              onChange={(event) => onChange({ sort: event.target.value as ArchiveSort })}
              containerClassName="flex-1"
              className="h-11"
            />
            <Button
              variant="secondary"
              aria-label={ascending ? 'Ordem crescente' : 'Ordem decrescente'}
              title={ascending ? 'Crescente' : 'Decrescente'}
              onClick={() => onChange({ order: ascending ? 'desc' : 'asc' })}
              icon={
                ascending ? (
                  <ArrowUpNarrowWide aria-hidden="true" className="size-4" />
                ) : (
                  <ArrowDownWideNarrow aria-hidden="true" className="size-4" />
                )
              }
            />
          </div>
        </div>
      )}
      {chips.length > 0 && (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-medium text-slate-700">Filtros ativos:</span>
          {chips.map((chip) => (
            <button
              key={chip.key}
              type="button"
              onClick={() => onChange(chip.clear)}
              aria-label={`${chip.label} (remover filtro)`}
              className={cn(
                'inline-flex min-h-8 items-center gap-1 rounded-full bg-indigo-50 px-2.5 py-1 text-xs',
                'font-semibold wrap-anywhere text-indigo-800 ring-1 ring-indigo-200 hover:bg-indigo-100',
              )}
            >
              {chip.label}
              <X aria-hidden="true" className="size-3.5 shrink-0" />
            </button>
          ))}
          <Button variant="ghost" size="sm" onClick={() => onChange({ ...NO_FILTERS, sort: filters.sort, order: filters.order })}>
            {ARCHIVE_TEXTS.clearFilters}
          </Button>
        </div>
      )}
    </div>
  );
}
