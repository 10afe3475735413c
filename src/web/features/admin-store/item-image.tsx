import { useState } from 'react';
import { Gift, Package, Sparkles, Users } from 'lucide-react';
import { urlOf } from '../../../shared/contract/route.ts';
import { routes } from '../../../shared/contract/routes.ts';
import type { StoreCategory } from '../../../shared/store.ts';
import { cn } from '../../lib/cn.ts';

const CATEGORY_ICONS = { privilege: Sparkles, material: Package, experience: Gift, turma: Users } as const;

/**
 * An item's picture, decorative (its name is written beside it): its Data-Base image as the store serves it, or its
 * category's icon where it has none or the image fails. The image's id in the address makes a new image a new address.
 */
export function ItemImage({
  item,
  className,
}: {
  item: { id: string; imageId: string | null; category: StoreCategory };
  className?: string;
}) {
  const src = item.imageId ? `${urlOf(routes.store.itemImage, { params: { id: item.id } })}?v=${item.imageId}` : null;
  const [failed, setFailed] = useState<string | null>(null);
  if (src && failed !== src)
    return (
      <div className={cn('overflow-hidden bg-slate-100', className)}>
        <img src={src} alt="" loading="lazy" decoding="async" onError={() => setFailed(src)} className="size-full object-cover" />
      </div>
    );
  const Icon = CATEGORY_ICONS[item.category];
  return (
    <div aria-hidden="true" className={cn('flex items-center justify-center bg-indigo-50 text-indigo-500', className)}>
      <Icon className="size-1/2 max-h-8 max-w-8" />
    </div>
  );
}
