import { memo } from 'react';
import {
  Copy,
  Download,
  Eye,
  Heart,
  Pencil,
  Share2,
  Star,
  Trash2,
  UserRoundCheck,
  Lock,
  Download as DownloadCount,
  MousePointerClick,
} from 'lucide-react';
import { ARCHIVE_TAGS_SHOWN, ARCHIVE_TEXTS, categoryLabel, type ArchiveItem } from '../../../shared/archive.ts';
import { cn } from '../../lib/cn.ts';
import { formatDate, formatNumber, formatSize } from '../../lib/format.ts';
import { ArchiveThumbnail } from '../../ui/archive-thumbnail.tsx';
import { Badge } from '../../ui/badge.tsx';
import { IconButton } from '../../ui/icon-button.tsx';

export type ItemActions = {
  onFavourite: (item: ArchiveItem) => void;
  onShare: (item: ArchiveItem) => void;
  onCopyLink: (item: ArchiveItem) => void;
  onDownload: (item: ArchiveItem) => void;
  onView: (item: ArchiveItem) => void;
  onEdit: (item: ArchiveItem) => void;
  onDelete: (item: ArchiveItem) => void;
  /** Absent for a member who may not change students' photos. */
  onSelectForStudent?: ((item: ArchiveItem) => void) | undefined;
  onToggleSelected: (item: ArchiveItem) => void;
  /** Whether the member may edit, delete or select for bulk changes this image (a teacher: only the ones they uploaded). */
  mayChange: (item: ArchiveItem) => boolean;
};

/** Who sent the file: name, else email, else 'Desconhecido' (spec 2.7). */
export function uploaderLabel(item: ArchiveItem): string {
  return item.uploader.name ?? item.uploader.email ?? ARCHIVE_TEXTS.uploaderUnknown;
}

function Tags({ tags, shown }: { tags: string[]; shown: number }) {
  if (tags.length === 0) return null;
  const rest = tags.length - shown;
  return (
    <ul aria-label="Tags" className="flex flex-wrap gap-1">
      {tags.slice(0, shown).map((tag) => (
        <li key={tag} className="rounded-md bg-slate-100 px-1.5 py-0.5 text-xs break-all text-slate-700">
          #{tag}
        </li>
      ))}
      {rest > 0 && (
        <li className="rounded-md bg-slate-100 px-1.5 py-0.5 text-xs font-semibold text-slate-700" aria-label={`mais ${rest}`}>
          +{rest}
        </li>
      )}
    </ul>
  );
}

function Badges({ item }: { item: ArchiveItem }) {
  return (
    <>
      {item.isFeatured && (
        <Badge tone="amber" icon={<Star aria-hidden="true" className="size-3" />}>
          {ARCHIVE_TEXTS.statusFeatured}
        </Badge>
      )}
      {!item.isPublic && (
        <Badge tone="slate" icon={<Lock aria-hidden="true" className="size-3" />}>
          {ARCHIVE_TEXTS.statusPrivate}
        </Badge>
      )}
      {!item.isActive && <Badge tone="rose">{ARCHIVE_TEXTS.statusInactive}</Badge>}
    </>
  );
}

function Counts({ item }: { item: ArchiveItem }) {
  return (
    <span className="inline-flex items-center gap-3 text-xs text-slate-600 tabular-nums">
      <span className="inline-flex items-center gap-1" title="Usos">
        <MousePointerClick aria-hidden="true" className="size-3.5" />
        <span className="sr-only">Usos: </span>
        {formatNumber(item.usageCount)}
      </span>
      <span className="inline-flex items-center gap-1" title="Downloads">
        <DownloadCount aria-hidden="true" className="size-3.5" />
        <span className="sr-only">Downloads: </span>
        {formatNumber(item.downloadCount)}
      </span>
    </span>
  );
}

/** The actions of a card or row, each named with the file: eight for an image the member may change, fewer on others'. */
function Actions({ item, actions, className }: { item: ArchiveItem; actions: ItemActions; className?: string }) {
  const name = item.fileName;
  const { onSelectForStudent } = actions;
  const mayChange = actions.mayChange(item);
  return (
    <div className={cn('flex flex-wrap items-center', className)}>
      <IconButton
        size="sm"
        label={item.isFavourite ? `Remover ${name} dos favoritos` : `Favoritar ${name}`}
        aria-pressed={item.isFavourite}
        icon={<Heart aria-hidden="true" className={cn('size-4', item.isFavourite && 'fill-rose-500 text-rose-500')} />}
        onClick={() => actions.onFavourite(item)}
      />
      <IconButton
        size="sm"
        label={`Compartilhar ${name}`}
        icon={<Share2 aria-hidden="true" className="size-4" />}
        onClick={() => actions.onShare(item)}
      />
      <IconButton
        size="sm"
        label={`Copiar link de ${name}`}
        icon={<Copy aria-hidden="true" className="size-4" />}
        onClick={() => actions.onCopyLink(item)}
      />
      <IconButton
        size="sm"
        label={`Baixar ${name}`}
        icon={<Download aria-hidden="true" className="size-4" />}
        onClick={() => actions.onDownload(item)}
      />
      <IconButton
        size="sm"
        label={`Ver detalhes de ${name}`}
        icon={<Eye aria-hidden="true" className="size-4" />}
        onClick={() => actions.onView(item)}
      />
      {mayChange && (
        <IconButton
          size="sm"
          label={`Editar ${name}`}
          icon={<Pencil aria-hidden="true" className="size-4" />}
          onClick={() => actions.onEdit(item)}
        />
      )}
      {onSelectForStudent && (
        <IconButton
          size="sm"
          label={`Selecionar ${name} para estudante`}
          icon={<UserRoundCheck aria-hidden="true" className="size-4" />}
          onClick={() => onSelectForStudent(item)}
        />
      )}
      {mayChange && (
        <IconButton
          size="sm"
          label={`Excluir ${name}`}
          className="text-rose-600! hover:bg-rose-50 hover:text-rose-700!"
          icon={<Trash2 aria-hidden="true" className="size-4" />}
          onClick={() => actions.onDelete(item)}
        />
      )}
    </div>
  );
}

/** The box that adds the image to a bulk change (shown only on images the member may change). */
function SelectBox({ item, selected, actions }: { item: ArchiveItem; selected: boolean; actions: ItemActions }) {
  return (
    <input
      type="checkbox"
      checked={selected}
      onChange={() => actions.onToggleSelected(item)}
      aria-label={`Selecionar ${item.fileName}`}
      className="size-5 shrink-0 cursor-pointer accent-indigo-600"
    />
  );
}

type ItemProps = { item: ArchiveItem; selected: boolean; actions: ItemActions };

/** A card of the grid: thumbnail, badges, counts, name, description, tags (3), category, size, uploader, date, actions. */
export const ArchiveCard = memo(function ArchiveCard({ item, selected, actions }: ItemProps) {
  return (
    <article
      className={cn(
        'flex h-full flex-col overflow-hidden rounded-2xl border bg-white shadow-sm',
        selected ? 'border-indigo-500 ring-2 ring-indigo-500' : 'border-slate-200',
      )}
    >
      <div className="relative">
        {/* A click on the picture opens the details too; keyboards use the 'Ver detalhes' button. */}
        <div onClick={() => actions.onView(item)} className="cursor-zoom-in">
          <ArchiveThumbnail file={item} className="aspect-[4/3] w-full" />
        </div>
        {actions.mayChange(item) && (
          <div className="absolute top-2 left-2 rounded-lg bg-white/90 p-1 shadow-sm">
            <SelectBox item={item} selected={selected} actions={actions} />
          </div>
        )}
        <div className="absolute top-2 right-2 flex flex-col items-end gap-1">
          <Badges item={item} />
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-1.5 p-3">
        <h3 className="text-sm leading-snug font-semibold wrap-anywhere text-slate-900">{item.fileName}</h3>
        {item.description && <p className="text-xs wrap-anywhere text-slate-600">{item.description}</p>}
        <Tags tags={item.tags} shown={ARCHIVE_TAGS_SHOWN.grid} />
        <p className="text-xs text-slate-600">
          <span className="font-medium text-indigo-700">{categoryLabel(item.category)}</span> · {formatSize(item.fileSize)}
        </p>
        <p className="text-xs wrap-anywhere text-slate-600">
          {uploaderLabel(item)} · {formatDate(item.createdAt)}
        </p>
        <Counts item={item} />
      </div>
      <Actions item={item} actions={actions} className="justify-center border-t border-slate-100 px-1 py-1" />
    </article>
  );
});

/** A row of the list: the same facts side by side, tags (5). */
export const ArchiveRow = memo(function ArchiveRow({ item, selected, actions }: ItemProps) {
  return (
    <article
      className={cn(
        'flex flex-col gap-3 rounded-2xl border bg-white p-3 shadow-sm md:flex-row md:items-center',
        selected ? 'border-indigo-500 ring-2 ring-indigo-500' : 'border-slate-200',
      )}
    >
      <div className="flex min-w-0 flex-1 items-start gap-3">
        {actions.mayChange(item) && <SelectBox item={item} selected={selected} actions={actions} />}
        <ArchiveThumbnail file={item} className="size-16 shrink-0 rounded-xl" iconClassName="size-7" />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <div className="flex flex-wrap items-center gap-1.5">
            <h3 className="text-sm font-semibold wrap-anywhere text-slate-900">{item.fileName}</h3>
            <Badges item={item} />
          </div>
          {item.description && <p className="text-xs wrap-anywhere text-slate-600">{item.description}</p>}
          <Tags tags={item.tags} shown={ARCHIVE_TAGS_SHOWN.list} />
          <p className="flex flex-wrap items-center gap-x-2 text-xs text-slate-600">
            <span className="font-medium text-indigo-700">{categoryLabel(item.category)}</span>
            <span>{formatSize(item.fileSize)}</span>
            <span className="wrap-anywhere">{uploaderLabel(item)}</span>
            <span>{formatDate(item.createdAt)}</span>
            <Counts item={item} />
          </p>
        </div>
      </div>
      <Actions item={item} actions={actions} className="justify-end" />
    </article>
  );
});
