import { Heart, Tags } from 'lucide-react';
import type { ActiveTag } from '../../../shared/students.ts';
import { TAG_NAMES } from '../../../shared/constants.ts';
import { latestTagPerKind } from '../../../shared/student-figures.ts';
import { formatNumber, plural } from '../../lib/format.ts';
import { cn } from '../../lib/cn.ts';
import { useActiveTags } from '../../lib/student-queries.ts';
import { Avatar, BadgedAvatar } from '../../ui/avatar.tsx';
import { Card } from '../../ui/card.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { TAG_LOOK, daysLeftText } from '../../ui/weekly-tag.tsx';
import { useToggleTagLike } from './tag-like-queries.ts';

/** The count, read as "3 curtidas". */
function LikeCount({ likes }: { likes: number }) {
  return (
    <span className="pr-3">
      <span data-testid="like-count">{formatNumber(likes)}</span>
      <span className="sr-only"> {plural(likes, 'curtida', 'curtidas')}</span>
    </span>
  );
}

/** One's own tag shows its likes without a heart to press: the server refuses a like of one's own tag. */
function OwnTagLikes({ likes }: { likes: number }) {
  return (
    <div className="flex min-h-11 shrink-0 items-center rounded-xl bg-white text-sm font-semibold text-slate-700 tabular-nums ring-1 ring-slate-200">
      <span className="flex size-11 items-center justify-center">
        <Heart aria-hidden="true" className="size-5" />
      </span>
      <LikeCount likes={likes} />
    </div>
  );
}

/**
 * The heart toggles the like; the count beside it is not part of the button's name, so what a screen reader calls
 * the button ("Curtir …", pressed or not) is what it does, and the count is read as "3 curtidas".
 */
function LikeButton({ tag }: { tag: ActiveTag }) {
  const toggle = useToggleTagLike();
  const liked = tag.likedByMe;
  return (
    <div
      className={cn(
        'flex min-h-11 shrink-0 items-center rounded-xl text-sm font-semibold tabular-nums ring-1 transition-colors',
        liked ? 'bg-rose-50 text-rose-700 ring-rose-200' : 'bg-white text-slate-700 ring-slate-200',
      )}
    >
      <button
        type="button"
        aria-pressed={liked}
        aria-label={`Curtir ${TAG_NAMES[tag.kind]} de ${tag.student.name}`}
        onClick={() => toggle.mutate({ tagId: tag.id, like: !liked })}
        className={cn(
          'flex size-11 items-center justify-center rounded-xl transition-colors',
          liked ? 'hover:bg-rose-100' : 'hover:bg-slate-50',
        )}
      >
        <Heart aria-hidden="true" className={cn('size-5', liked && 'fill-current')} />
      </button>
      <LikeCount likes={tag.likes} />
    </div>
  );
}

function TagItem({ tag, own }: { tag: ActiveTag; own: boolean }) {
  const look = TAG_LOOK[tag.kind];
  return (
    <li className="flex min-w-0 flex-col gap-3 rounded-2xl border border-slate-200 p-3" data-testid="active-tag">
      <div className="flex min-w-0 items-center gap-3">
        <BadgedAvatar
          className="shrink-0"
          avatar={<Avatar name={tag.student.name} src={tag.student.photo} size="md" />}
          badgeClassName={cn('-right-2 -bottom-2 size-5', look.iconBox)}
          badge={<look.icon className="size-3" />}
        />
        <div className="min-w-0">
          <p className="text-sm font-bold text-slate-900">{TAG_NAMES[tag.kind]}</p>
          <p className="text-sm wrap-anywhere text-slate-700">{tag.student.name}</p>
          <p className="text-xs text-slate-600">{tag.student.grade}</p>
        </div>
      </div>
      <div className="flex items-center justify-between gap-2">
        <span className={cn('rounded-full px-2.5 py-1 text-xs font-semibold ring-1 ring-inset', look.chip)}>
          {daysLeftText(tag.expiresAt)}
        </span>
        {own ? <OwnTagLikes likes={tag.likes} /> : <LikeButton tag={tag} />}
      </div>
    </li>
  );
}

/** The weekly tags of the school: the newest holder of each kind, with likes kept on the server. `viewerId`: the signed-in student's id. */
export function ActiveTagsPanel({ fallbackMs, viewerId }: { fallbackMs: number; viewerId: string }) {
  const tags = useActiveTags(fallbackMs);
  const shown = tags.data ? latestTagPerKind(tags.data) : [];
  return (
    <Card title="Tags Ativas">
      {tags.isPending ? (
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-2 xl:grid-cols-3" aria-hidden="true">
          <Skeleton className="h-24 w-full rounded-2xl" />
          <Skeleton className="h-24 w-full rounded-2xl" />
          <Skeleton className="h-24 w-full rounded-2xl" />
        </div>
      ) : tags.isError ? (
        <LoadError message="Não foi possível carregar as tags" onRetry={() => void tags.refetch()} retrying={tags.isFetching} />
      ) : shown.length === 0 ? (
        <EmptyState icon={<Tags className="size-6" />} title="Nenhuma tag ativa no momento" className="py-6" />
      ) : (
        <ul aria-label="Tags ativas" className="grid grid-cols-1 gap-2 sm:grid-cols-2 xl:grid-cols-3">
          {shown.map((tag) => (
            <TagItem key={tag.id} tag={tag} own={tag.student.id === viewerId} />
          ))}
        </ul>
      )}
    </Card>
  );
}
