import { Copy, Download, Link2, Link2Off, Share2 } from 'lucide-react';
import { ARCHIVE_TEXTS, type ArchiveItem } from '../../../shared/archive.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { absoluteUrl, copyToClipboard } from '../../lib/clipboard.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { IconButton } from '../../ui/icon-button.tsx';
import { Modal } from '../../ui/modal.tsx';
import { useShareLink } from './archive-queries.ts';

function LinkLine({ label, url, copyLabel, onCopy }: { label: string; url: string; copyLabel: string; onCopy: () => void }) {
  return (
    <div className="flex flex-col gap-1">
      <p className="text-sm font-medium text-slate-800">{label}</p>
      <div className="flex items-center gap-2">
        <p className="min-w-0 flex-1 rounded-lg bg-slate-50 px-2 py-2 font-mono text-xs break-all text-slate-800 ring-1 ring-slate-200">
          {url}
        </p>
        <IconButton label={copyLabel} icon={<Copy aria-hidden="true" className="size-4" />} onClick={onCopy} />
      </div>
    </div>
  );
}

/** 'Compartilhar Imagem': direct link, the public share page's link, download, and the device's share sheet (copy when there is none). */
export function ShareModal({
  item,
  mayRevoke,
  onClose,
  onCopyLink,
  onDownload,
}: {
  item: ArchiveItem;
  /** Ending the link changes the image: only for those who may change it (a teacher: their own images). */
  mayRevoke: boolean;
  onClose: () => void;
  onCopyLink: (item: ArchiveItem) => void;
  onDownload: (item: ArchiveItem) => void;
}) {
  const share = useShareLink();
  const shareUrl = item.shareUrl ? absoluteUrl(item.shareUrl) : null;
  const canShare = item.isPublic && item.isActive;

  const copyShareUrl = async (url: string) => {
    if (await copyToClipboard(url)) toast.success(ARCHIVE_TEXTS.shareLinkCopied);
    else toast.error(ARCHIVE_TEXTS.clipboardError);
  };
  const nativeShare = async () => {
    const url = shareUrl ?? absoluteUrl(item.fileUrl);
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: item.fileName, text: item.description, url });
        return;
      } catch (error) {
        // The person closed the share sheet: nothing to do.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    await copyShareUrl(url);
  };
  const changeLink = (revoke: boolean) =>
    share.mutate({ item, revoke }, { onSuccess: (result) => toast.success(result.message), onError: (error) => toastError(error) });

  return (
    <Modal
      open
      onClose={onClose}
      title={ARCHIVE_TEXTS.shareTitle}
      description={item.fileName}
      footer={
        <>
          <Button variant="secondary" icon={<Download aria-hidden="true" className="size-4" />} onClick={() => onDownload(item)}>
            Baixar
          </Button>
          <Button icon={<Share2 aria-hidden="true" className="size-4" />} onClick={() => void nativeShare()}>
            Compartilhar
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-4">
        <LinkLine label="Link direto" url={absoluteUrl(item.fileUrl)} copyLabel="Copiar link direto" onCopy={() => onCopyLink(item)} />
        {shareUrl ? (
          <>
            <LinkLine
              label="Link compartilhável"
              url={shareUrl}
              copyLabel="Copiar link compartilhável"
              onCopy={() => void copyShareUrl(shareUrl)}
            />
            {mayRevoke && (
              <Button
                variant="ghost"
                size="sm"
                className="self-start text-rose-700!"
                loading={share.isPending}
                icon={<Link2Off aria-hidden="true" className="size-4" />}
                onClick={() => changeLink(true)}
              >
                Revogar link
              </Button>
            )}
          </>
        ) : canShare ? (
          <Button
            variant="secondary"
            className="self-start"
            loading={share.isPending}
            icon={<Link2 aria-hidden="true" className="size-4" />}
            onClick={() => changeLink(false)}
          >
            Criar link compartilhável
          </Button>
        ) : (
          <p className="rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
            {ERROR_MESSAGES.archive_share_unavailable}
          </p>
        )}
      </div>
    </Modal>
  );
}
