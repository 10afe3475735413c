import { useState } from 'react';
import { Gift, Package, ShoppingBag, Ticket, UsersRound, type LucideIcon } from 'lucide-react';
import type { StoreCategory } from '../../../shared/store.ts';
import { cn } from '../../lib/cn.ts';

const CATEGORY_ICONS: Record<StoreCategory, LucideIcon> = { privilege: Gift, material: Package, experience: Ticket, turma: UsersRound };

/**
 * An item's picture filling its box (size it with className), or its category's icon when it has none or it fails to
 * load. Decorative: the item's name is always written beside it.
 */
export function ItemImage({
  src,
  category,
  dimmed = false,
  className,
}: {
  src: string | null;
  /** Its icon stands in for a missing picture; without one, a shopping bag. */
  category?: StoreCategory;
  dimmed?: boolean;
  className?: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const shown = src && failed !== src ? src : null;
  const Icon = category ? CATEGORY_ICONS[category] : ShoppingBag;
  return (
    <div className={cn('flex items-center justify-center overflow-hidden bg-gradient-to-br from-indigo-50 to-violet-100', className)}>
      {shown ? (
        <img
          src={shown}
          alt=""
          loading="lazy"
          decoding="async"
          onError={() => setFailed(shown)}
          className={cn('size-full object-cover', dimmed && 'opacity-60 grayscale')}
        />
      ) : (
        <Icon aria-hidden="true" className={cn('size-1/3 max-h-14 max-w-14 text-indigo-400', dimmed && 'text-slate-400')} />
      )}
    </div>
  );
}
