import type { ComponentType } from 'react';
import type { LucideIcon } from 'lucide-react';
import type { AppRoute } from './route-types.ts';
import { lazyRetrying } from './route-error.tsx';

/** A screen with a sidebar entry, loaded as its own chunk when first opened; `access`: what it needs beyond its area. */
export function navScreen(
  path: string,
  label: string,
  icon: LucideIcon,
  load: () => Promise<{ default: ComponentType }>,
  access: Pick<AppRoute, 'permission' | 'listsStudents'> = {},
): AppRoute {
  return { path, Component: lazyRetrying(load), nav: { label, icon }, ...access };
}
