import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import {
  CheckCircle2,
  Database,
  Download,
  Eye,
  FolderInput,
  Globe,
  HardDrive,
  ImageIcon,
  MousePointerClick,
  RefreshCw,
  Star,
  Upload,
  UserRoundCheck,
} from 'lucide-react';
import { ARCHIVE_TEXTS, mayChangeArchiveImage, type ArchiveItem, type ArchiveStats } from '../../../shared/archive.ts';
import { useSession } from '../../lib/session.ts';
import { absoluteUrl, copyToClipboard } from '../../lib/clipboard.ts';
import { countOf, formatNumber, formatSize } from '../../lib/format.ts';
import { toast, toastError, toastFailure } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StatCard } from '../../ui/stat-card.tsx';
import { ArchiveFiltersBar } from './archive-filters.tsx';
import { ArchiveCard, ArchiveRow, type ItemActions } from './archive-item.tsx';
import {
  failureReason,
  NO_FILTERS,
  useArchiveImages,
  useArchiveSummary,
  useCopyLink,
  useDeleteImage,
  useDownload,
  useFavourite,
  type ArchiveFilters,
} from './archive-queries.ts';
import { BulkBar } from './bulk-bar.tsx';
import { DetailsModal } from './details-modal.tsx';
import { DropOverlay, useFileDrop } from './drop-overlay.tsx';
import { EditModal } from './edit-modal.tsx';
import { SelectStudentModal } from './select-student-modal.tsx';
import { ShareModal } from './share-modal.tsx';
import { UploadModal } from './upload-modal.tsx';
import { CARD_MIN_WIDTH, ViewControls, type CardSize, type ViewMode } from './view-controls.tsx';
import { VirtualResults } from './virtual-results.tsx';
import { isStaffUser } from '../../../shared/areas.ts';
import { hasStaffPermission } from '../../lib/staff.ts';

type Dialog =
  | { kind: 'upload'; files: File[] }
  | { kind: 'details' | 'edit' | 'share' | 'delete'; item: ArchiveItem }
  | { kind: 'select'; item: ArchiveItem | null };

function StatTiles({ stats }: { stats: ArchiveStats | undefined }) {
  const value = (n: number | undefined, format: (n: number) => string = formatNumber) =>
    n === undefined ? <span aria-hidden="true" className="inline-block h-7 w-14 animate-pulse rounded-lg bg-slate-200" /> : format(n);
  const t = ARCHIVE_TEXTS.stats;
  const icon = 'size-5';
  return (
    <div className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
      <StatCard label={t.total} value={value(stats?.total)} icon={<ImageIcon className={icon} />} />
      <StatCard label={t.active} value={value(stats?.active)} icon={<CheckCircle2 className={icon} />} tone="emerald" />
      <StatCard label={t.public} value={value(stats?.public)} icon={<Globe className={icon} />} tone="sky" />
      <StatCard label={t.featured} value={value(stats?.featured)} icon={<Star className={icon} />} tone="amber" />
      <StatCard label={t.usage} value={value(stats?.usage)} icon={<MousePointerClick className={icon} />} tone="violet" />
      <StatCard label={t.downloads} value={value(stats?.downloads)} icon={<Download className={icon} />} tone="indigo" />
      <StatCard
        label={t.totalSize}
        value={value(stats?.totalSize, formatSize)}
        icon={<HardDrive className={icon} />}
        tone="slate"
        className="col-span-2 sm:col-span-1"
      />
    </div>
  );
}

function ResultsSkeleton() {
  return (
    <div role="status" className="flex flex-col items-center gap-3 py-16">
      <Spinner className="size-8" label={ARCHIVE_TEXTS.loading} />
      <p className="text-sm font-medium text-slate-600" aria-hidden="true">
        {ARCHIVE_TEXTS.loading}
      </p>
    </div>
  );
}

function isFiltering(filters: ArchiveFilters): boolean {
  return Boolean(filters.q.trim() || filters.featured || filters.publicOnly || filters.category || filters.uploader || filters.accessLevel);
}

/** /admin/database (Data-Base): the image archive, filtered, sorted and paged by the server. */
export function AdminArchivePage() {
  const { user } = useSession();
  const [mode, setMode] = useState<ViewMode>('grid');
  const [cardSize, setCardSize] = useState<CardSize>('medium');
  const [filters, setFilters] = useState<ArchiveFilters>(NO_FILTERS);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // The box shows each key at once; the server is asked when typing pauses long enough for React.
  const deferredQ = useDeferredValue(filters.q);
  const queryFilters = useMemo(() => ({ ...filters, q: deferredQ }), [filters, deferredQ]);
  const images = useArchiveImages(queryFilters);
  const summary = useArchiveSummary();
  const remove = useDeleteImage();
  const favourite = useFavourite();
  const copyLink = useCopyLink();
  const download = useDownload();

  const loadFailed = images.isError;
  useEffect(() => {
    if (loadFailed) toast.error(ARCHIVE_TEXTS.loadError);
  }, [loadFailed]);

  const dragging = useFileDrop((files) => setDialog({ kind: 'upload', files }), dialog === null);

  const onCopyLink = useCallback(
    async (item: ArchiveItem) => {
      if (!(await copyToClipboard(absoluteUrl(item.fileUrl)))) {
        toast.error(ARCHIVE_TEXTS.clipboardError);
        return;
      }
      toast.success(ARCHIVE_TEXTS.linkCopied(item.fileName));
      // Counting the use is only logged when it fails (spec §8): the link is copied either way.
      copyLink.mutate(item, { onError: (error) => console.warn('copy-link counter', error) });
    },
    [copyLink],
  );
  const onDownload = useCallback(
    (item: ArchiveItem) => {
      download(item);
      toast.success(ARCHIVE_TEXTS.downloadStarted(item.fileName));
    },
    [download],
  );

  const staff = isStaffUser(user) ? user.admin : null;
  const mayPickPhotos = hasStaffPermission(user, 'manageStudents');
  const actions = useMemo<ItemActions>(
    () => ({
      onFavourite: (item) =>
        favourite.mutate(item, {
          onSuccess: (result) => toast.success(result.favourite ? ARCHIVE_TEXTS.favouriteAdded : ARCHIVE_TEXTS.favouriteRemoved),
          onError: (error) => toastError(error),
        }),
      onShare: (item) => setDialog({ kind: 'share', item }),
      onCopyLink: (item) => void onCopyLink(item),
      onDownload,
      onView: (item) => setDialog({ kind: 'details', item }),
      onEdit: (item) => setDialog({ kind: 'edit', item }),
      onDelete: (item) => setDialog({ kind: 'delete', item }),
      onSelectForStudent: mayPickPhotos ? (item) => setDialog({ kind: 'select', item }) : undefined,
      onToggleSelected: (item) =>
        setSelected((current) => {
          const next = new Set(current);
          if (next.has(item.id)) next.delete(item.id);
          else next.add(item.id);
          return next;
        }),
      mayChange: (item) => staff !== null && mayChangeArchiveImage(staff, item.uploader.id),
    }),
    [favourite, onCopyLink, onDownload, staff, mayPickPhotos],
  );

  const items = useMemo(() => images.data?.pages.flatMap((page) => page.items) ?? [], [images.data]);
  const total = images.data?.pages[0]?.total ?? 0;
  // A dialog shows the record as the list has it now (a favourite or a count changed meanwhile).
  const current = (item: ArchiveItem) => items.find((entry) => entry.id === item.id) ?? item;
  const loadMore = useCallback(() => void images.fetchNextPage(), [images]);

  if (!isStaffUser(user)) return null;
  const filtering = isFiltering(filters);
  const openUpload = () => setDialog({ kind: 'upload', files: [] });

  const confirmDelete = (item: ArchiveItem) =>
    remove.mutate(item, {
      onSuccess: (result) => {
        toast.success(result.message);
        setSelected((current) => new Set([...current].filter((id) => id !== item.id)));
        setDialog(null);
      },
      onError: (error) => toastFailure(ARCHIVE_TEXTS.deleteError(failureReason(error)), error),
    });

  return (
    <div>
      <PageHeader
        title={ARCHIVE_TEXTS.title}
        description="Arquivo de imagens e arquivos da escola"
        icon={Database}
        actions={
          <>
            <ViewControls mode={mode} onModeChange={setMode} size={cardSize} onSizeChange={setCardSize} />
            {/* One group, so a narrow header wraps the view controls apart from the buttons, never the Upload alone. */}
            <div className="flex flex-wrap items-center gap-2 sm:justify-end">
              {mayPickPhotos && (
                <Button
                  variant="secondary"
                  icon={<UserRoundCheck aria-hidden="true" className="size-4" />}
                  onClick={() => setDialog({ kind: 'select', item: null })}
                >
                  {ARCHIVE_TEXTS.selectForStudent}
                </Button>
              )}
              <Button
                variant="secondary"
                loading={images.isRefetching || summary.isRefetching}
                icon={<RefreshCw aria-hidden="true" className="size-4" />}
                onClick={() => {
                  void images.refetch();
                  void summary.refetch();
                }}
              >
                {ARCHIVE_TEXTS.refresh}
              </Button>
              <Button icon={<Upload aria-hidden="true" className="size-4" />} onClick={openUpload}>
                {ARCHIVE_TEXTS.upload}
              </Button>
            </div>
          </>
        }
      />
      <StatTiles stats={summary.data?.stats} />
      <div className="mb-4">
        <ArchiveFiltersBar
          filters={filters}
          facets={summary.data?.facets}
          onChange={(patch) => setFilters((current) => ({ ...current, ...patch }))}
        />
      </div>
      {selected.size > 0 && <BulkBar ids={[...selected]} onClear={() => setSelected(new Set())} />}
      {images.isPending ? (
        <ResultsSkeleton />
      ) : loadFailed && !images.data ? (
        <LoadError message={ARCHIVE_TEXTS.loadError} onRetry={() => void images.refetch()} retrying={images.isFetching} />
      ) : items.length === 0 ? (
        filtering ? (
          <EmptyState
            icon={<Eye className="size-6" />}
            title={ARCHIVE_TEXTS.emptyFilteredTitle}
            description={ARCHIVE_TEXTS.emptyFilteredHint}
          />
        ) : (
          <EmptyState
            icon={<FolderInput className="size-6" />}
            title={ARCHIVE_TEXTS.emptyTitle}
            description={ARCHIVE_TEXTS.emptyHint}
            action={
              <Button icon={<Upload aria-hidden="true" className="size-4" />} onClick={openUpload}>
                {ARCHIVE_TEXTS.emptyAction}
              </Button>
            }
          />
        )
      ) : (
        <>
          <p className="mb-3 text-sm text-slate-600" aria-live="polite">
            {countOf(total, 'arquivo encontrado', 'arquivos encontrados')}
          </p>
          <VirtualResults
            key={mode}
            items={items}
            total={total}
            keyOf={(item) => item.id}
            label="Arquivos"
            cardMinWidth={mode === 'grid' ? CARD_MIN_WIDTH[cardSize] : null}
            estimateRowHeight={(width) => (mode === 'grid' ? width * 0.75 + 200 : 110)}
            renderItem={(item) =>
              mode === 'grid' ? (
                <ArchiveCard item={item} selected={selected.has(item.id)} actions={actions} />
              ) : (
                <ArchiveRow item={item} selected={selected.has(item.id)} actions={actions} />
              )
            }
            hasMore={images.hasNextPage}
            loadingMore={images.isFetchingNextPage}
            onLoadMore={loadMore}
          />
        </>
      )}

      {dragging && <DropOverlay />}
      {dialog?.kind === 'upload' && <UploadModal initialFiles={dialog.files} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'details' && (
        <DetailsModal
          item={current(dialog.item)}
          onClose={() => setDialog(null)}
          onCopyLink={actions.onCopyLink}
          onEdit={actions.mayChange(dialog.item) ? (item) => setDialog({ kind: 'edit', item }) : undefined}
        />
      )}
      {dialog?.kind === 'edit' && <EditModal item={current(dialog.item)} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'share' && (
        <ShareModal
          item={current(dialog.item)}
          mayRevoke={actions.mayChange(dialog.item)}
          onClose={() => setDialog(null)}
          onCopyLink={actions.onCopyLink}
          onDownload={onDownload}
        />
      )}
      {dialog?.kind === 'select' && <SelectStudentModal initial={dialog.item} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        title={dialog?.kind === 'delete' ? ARCHIVE_TEXTS.deleteConfirm(dialog.item.fileName) : ''}
        message={ARCHIVE_TEXTS.deleteConfirmDetail}
        confirmLabel="Excluir"
        pending={remove.isPending}
        onConfirm={() => {
          if (dialog?.kind === 'delete') confirmDelete(dialog.item);
        }}
        onCancel={() => setDialog(null)}
      />
    </div>
  );
}

export default AdminArchivePage;
