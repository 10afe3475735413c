import { useDeferredValue, useState } from 'react';
import { CheckCircle2, Image, LayoutPanelTop, Images } from 'lucide-react';
import { ARCHIVE_TEXTS, type ArchiveItem } from '../../shared/archive.ts';
import { usePickerImages, type PickerTab } from '../lib/archive-picker.ts';
import { cn } from '../lib/cn.ts';
import { ArchiveThumbnail } from './archive-thumbnail.tsx';
import { Button } from './button.tsx';
import { EmptyState } from './empty-state.tsx';
import { LoadError } from './load-error.tsx';
import { SearchInput } from './search-input.tsx';
import { Skeleton } from './skeleton.tsx';
import { Tabs } from './tabs.tsx';

type GridProps = { tab: PickerTab; search: string; selectedId: string | null; onSelect: (item: ArchiveItem) => void; disabled: boolean };

function PickerGrid({ tab, search, selectedId, onSelect, disabled }: GridProps) {
  const images = usePickerImages(tab, search);
  if (images.isPending) {
    return (
      <div aria-hidden="true" className="grid grid-cols-3 gap-2 sm:grid-cols-4">
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} className="aspect-square rounded-xl" />
        ))}
      </div>
    );
  }
  if (images.isError)
    return <LoadError message={ARCHIVE_TEXTS.loadError} onRetry={() => void images.refetch()} retrying={images.isFetching} />;
  const items = images.data.pages.flatMap((page) => page.items);
  if (items.length === 0)
    return (
      <EmptyState
        title={search.trim() ? ARCHIVE_TEXTS.emptyFilteredTitle : ARCHIVE_TEXTS.emptyTitle}
        description={search.trim() ? ARCHIVE_TEXTS.emptyFilteredHint : undefined}
      />
    );
  return (
    <div className="flex flex-col gap-3">
      <ul aria-label="Imagens" className="grid max-h-[45dvh] grid-cols-3 gap-2 overflow-y-auto p-0.5 sm:grid-cols-4">
        {items.map((item) => {
          const selected = item.id === selectedId;
          return (
            <li key={item.id} className="min-w-0">
              <button
                type="button"
                aria-pressed={selected}
                disabled={disabled}
                onClick={() => onSelect(item)}
                className={cn(
                  'group relative flex w-full flex-col overflow-hidden rounded-xl text-left ring-1 transition',
                  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:cursor-wait',
                  selected ? 'ring-2 ring-indigo-600' : 'ring-slate-200 hover:ring-indigo-300',
                )}
              >
                <ArchiveThumbnail file={item} className="aspect-square w-full" iconClassName="size-8" />
                <span className="px-1.5 py-1 text-xs leading-tight wrap-anywhere text-slate-800">{item.fileName}</span>
                {selected && (
                  <span className="absolute top-1 right-1 rounded-full bg-white text-indigo-600">
                    <CheckCircle2 aria-hidden="true" className="size-5" />
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
      {images.hasNextPage && (
        <Button
          variant="secondary"
          size="sm"
          className="self-center"
          loading={images.isFetchingNextPage}
          onClick={() => void images.fetchNextPage()}
        >
          Carregar mais imagens
        </Button>
      )}
    </div>
  );
}

export type ArchiveImagePickerProps = {
  selectedId: string | null;
  onSelect: (item: ArchiveItem) => void;
  /** While a selection is being sent. */
  disabled?: boolean;
};

/** The tabs Fotos de Perfil, Banners and Todas over the archive's active images, with a search; a click selects one. */
export function ArchiveImagePicker({ selectedId, onSelect, disabled = false }: ArchiveImagePickerProps) {
  const [tab, setTab] = useState<PickerTab>('profile');
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const grid = <PickerGrid tab={tab} search={deferredSearch} selectedId={selectedId} onSelect={onSelect} disabled={disabled} />;
  // Icons from sm up: on a phone the three labels fit one line only without them.
  const icon = 'hidden size-4 shrink-0 sm:block';
  return (
    <div className="flex flex-col gap-3">
      <SearchInput value={search} onChange={setSearch} label="Buscar imagem" placeholder="Buscar imagem" />
      <Tabs<PickerTab>
        label="Tipo de imagem"
        value={tab}
        onChange={setTab}
        listClassName="flex-wrap"
        items={[
          { id: 'profile', label: ARCHIVE_TEXTS.pickerTabs.profile, icon: <Image aria-hidden="true" className={icon} />, panel: grid },
          {
            id: 'banner',
            label: ARCHIVE_TEXTS.pickerTabs.banner,
            icon: <LayoutPanelTop aria-hidden="true" className={icon} />,
            panel: grid,
          },
          { id: 'all', label: ARCHIVE_TEXTS.pickerTabs.all, icon: <Images aria-hidden="true" className={icon} />, panel: grid },
        ]}
      />
    </div>
  );
}
