import { Crown, HandHeart, Lightbulb, type LucideIcon } from 'lucide-react';
import { TAG_NAMES, type TagKind } from '../../shared/constants.ts';
import { countOf, daysRemaining, plural } from '../../shared/format.ts';
import { cn } from '../lib/cn.ts';

export const TAG_LOOK: Record<TagKind, { icon: LucideIcon; chip: string; iconBox: string }> = {
  leader: { icon: Crown, chip: 'bg-amber-50 text-amber-900 ring-amber-200', iconBox: 'bg-amber-100 text-amber-700' },
  counselor: { icon: Lightbulb, chip: 'bg-sky-50 text-sky-900 ring-sky-200', iconBox: 'bg-sky-100 text-sky-700' },
  angel: { icon: HandHeart, chip: 'bg-rose-50 text-rose-900 ring-rose-200', iconBox: 'bg-rose-100 text-rose-700' },
};

/** "Falta 1 dia", "Faltam 5 dias": the days left rounded up, as the spec shows them. */
export function daysLeftText(expiresAt: string, now: Date = new Date()): string {
  const days = daysRemaining(expiresAt, now);
  return `${plural(days, 'Falta', 'Faltam')} ${countOf(days, 'dia', 'dias')}`;
}

/** A weekly tag as a chip: icon, name and the days left. */
export function TagBadge({ kind, expiresAt, className }: { kind: TagKind; expiresAt: string; className?: string }) {
  const look = TAG_LOOK[kind];
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-3 py-1 text-xs font-semibold ring-1 ring-inset',
        look.chip,
        className,
      )}
    >
      <look.icon aria-hidden="true" className="size-3.5" />
      {TAG_NAMES[kind]}
      <span className="font-medium opacity-80">· {daysLeftText(expiresAt)}</span>
    </span>
  );
}
