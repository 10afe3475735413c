import { useQuery } from '@tanstack/react-query';
import { Gift, Package, Sparkles, Users } from 'lucide-react';
import { routes } from '../../../shared/contract/routes.ts';
import type { StoreCategory } from '../../../shared/store.ts';
import { readOf } from '../../lib/query-keys.ts';
import { cn } from '../../lib/cn.ts';
import { ArchiveThumbnail } from '../../ui/archive-thumbnail.tsx';

const CATEGORY_ICONS = { privilege: Sparkles, material: Package, experience: Gift, turma: Users } as const;

/** The icon of an item's category, where it has no image (or while it loads). */
function CategoryIcon({ category, className }: { category: StoreCategory; className?: string | undefined }) {
  const Icon = CATEGORY_ICONS[category];
  return (
    <div aria-hidden="true" className={cn('flex items-center justify-center bg-indigo-50 text-indigo-500', className)}>
      <Icon className="size-1/2 max-h-8 max-w-8" />
    </div>
  );
}

/** An item's picture: its Data-Base image's thumbnail (read once, cached with the archive's reads), else its category's icon. Decorative. */
export function ItemImage({ imageId, category, className }: { imageId: string | null; category: StoreCategory; className?: string }) {
  const image = useQuery({
    ...readOf(routes.archive.get, { params: { id: imageId ?? '' } }),
    enabled: imageId !== null,
    staleTime: 5 * 60_000,
  });
  if (!imageId || !image.data) return <CategoryIcon category={category} className={className} />;
  return <ArchiveThumbnail file={image.data} className={className} iconClassName="size-6" />;
}
