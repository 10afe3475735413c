import { useState } from 'react';
import { FileAudio, FileImage, FileText, FileVideo } from 'lucide-react';
import type { ArchiveKind } from '../../shared/archive.ts';
import { cn } from '../lib/cn.ts';

/** The type icon shown where a file has no thumbnail (video, audio, documents, or an image that failed to load). */
export function FileKindIcon({ kind, className }: { kind: ArchiveKind; className?: string }) {
  const props = { 'aria-hidden': true, className: cn('text-slate-400', className) } as const;
  if (kind === 'image') return <FileImage {...props} />;
  if (kind === 'video') return <FileVideo {...props} />;
  if (kind === 'audio') return <FileAudio {...props} />;
  return <FileText {...props} />;
}

export type ThumbnailSource = { thumbnailUrl: string | null; kind: ArchiveKind; fileName: string };

/**
 * An archive file's thumbnail filling its box (size it with className), or its type icon when
 * it has none or the thumbnail fails to load. Decorative: the file name is always written beside it.
 */
export function ArchiveThumbnail({
  file,
  className,
  iconClassName,
}: {
  file: ThumbnailSource;
  className?: string;
  iconClassName?: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const src = file.thumbnailUrl && failed !== file.thumbnailUrl ? file.thumbnailUrl : null;
  return (
    <div className={cn('flex items-center justify-center overflow-hidden bg-slate-100', className)}>
      {src ? (
        <img src={src} alt="" loading="lazy" decoding="async" onError={() => setFailed(src)} className="size-full object-cover" />
      ) : (
        <FileKindIcon kind={file.kind} className={iconClassName ?? 'size-10'} />
      )}
    </div>
  );
}
