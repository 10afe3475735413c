import type { ReactNode } from 'react';
import { Copy } from 'lucide-react';
import { ARCHIVE_ACCESS_LABELS, ARCHIVE_KIND_LABELS, ARCHIVE_TEXTS, categoryLabel, type ArchiveItem } from '../../../shared/archive.ts';
import { absoluteUrl } from '../../lib/clipboard.ts';
import { formatDateTime, formatNumber, formatSize } from '../../lib/format.ts';
import { ArchiveThumbnail } from '../../ui/archive-thumbnail.tsx';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { IconButton } from '../../ui/icon-button.tsx';
import { Modal } from '../../ui/modal.tsx';
import { uploaderLabel } from './archive-item.tsx';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      <dd className="text-sm wrap-anywhere text-slate-900">{children}</dd>
    </div>
  );
}

/** Everything the archive knows about one file (spec 2.7, Details). */
export function DetailsModal({
  item,
  onClose,
  onCopyLink,
  onEdit,
}: {
  item: ArchiveItem;
  onClose: () => void;
  onCopyLink: (item: ArchiveItem) => void;
  /** Absent on an image the member may not change. */
  onEdit?: ((item: ArchiveItem) => void) | undefined;
}) {
  return (
    <Modal
      open
      onClose={onClose}
      size="lg"
      title={item.fileName}
      description="Detalhes da imagem"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Fechar
          </Button>
          {onEdit && <Button onClick={() => onEdit(item)}>{ARCHIVE_TEXTS.editTitle}</Button>}
        </>
      }
    >
      <div className="flex flex-col gap-4">
        {item.previewUrl ? (
          <img
            src={item.previewUrl}
            alt={item.description || item.fileName}
            className="max-h-80 w-full rounded-xl bg-slate-100 object-contain"
          />
        ) : (
          <ArchiveThumbnail file={item} className="h-48 w-full rounded-xl" iconClassName="size-16" />
        )}
        <div className="flex items-end gap-2">
          <div className="min-w-0 flex-1">
            <p className="text-xs font-medium text-slate-600">URL</p>
            <p className="rounded-lg bg-slate-50 px-2 py-1.5 font-mono text-xs break-all text-slate-800 ring-1 ring-slate-200">
              {absoluteUrl(item.fileUrl)}
            </p>
          </div>
          <IconButton label="Copiar URL" icon={<Copy aria-hidden="true" className="size-4" />} onClick={() => onCopyLink(item)} />
        </div>
        <div className="flex flex-wrap gap-1.5">
          <Badge tone={item.isActive ? 'emerald' : 'rose'}>
            {item.isActive ? ARCHIVE_TEXTS.statusActive : ARCHIVE_TEXTS.statusInactive}
          </Badge>
          <Badge tone={item.isPublic ? 'sky' : 'slate'}>{item.isPublic ? ARCHIVE_TEXTS.statusPublic : ARCHIVE_TEXTS.statusPrivate}</Badge>
          {item.isFeatured && <Badge tone="amber">{ARCHIVE_TEXTS.statusFeatured}</Badge>}
        </div>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3">
          <Fact label="Categoria">{categoryLabel(item.category)}</Fact>
          <Fact label="Tamanho">{formatSize(item.fileSize)}</Fact>
          <Fact label="Tipo">
            {ARCHIVE_KIND_LABELS[item.kind]} ({item.mimeType})
          </Fact>
          <Fact label="Usos">{formatNumber(item.usageCount)}</Fact>
          <Fact label="Downloads">{formatNumber(item.downloadCount)}</Fact>
          <Fact label="Nível de acesso">{ARCHIVE_ACCESS_LABELS[item.accessLevel]}</Fact>
          <Fact label="Dimensões">{item.width && item.height ? ARCHIVE_TEXTS.dimensions(item.width, item.height) : '—'}</Fact>
          <Fact label="Enviado por">{uploaderLabel(item)}</Fact>
          <Fact label="Álbum">{item.albumName ?? '—'}</Fact>
          <Fact label="Criado em">{formatDateTime(item.createdAt)}</Fact>
          <Fact label="Atualizado em">{formatDateTime(item.updatedAt)}</Fact>
          <Fact label="Último acesso">{item.lastAccessedAt ? formatDateTime(item.lastAccessedAt) : '—'}</Fact>
        </dl>
        {/* In a list of their own, as a term and its description are only inside one (axe: dlitem). */}
        <dl className="flex flex-col gap-4">
          <Fact label="Descrição">{item.description || '—'}</Fact>
          <Fact label="Tags">{item.tags.length > 0 ? item.tags.map((tag) => `#${tag}`).join(' ') : '—'}</Fact>
        </dl>
      </div>
    </Modal>
  );
}
