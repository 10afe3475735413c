import type { ComponentType } from 'react';
import type { LucideIcon } from 'lucide-react';
import type { AppRoute, NavGroup } from './route-types.ts';
import { lazyRetrying } from './route-error.tsx';

/**
 * A screen with a sidebar entry, loaded as its own chunk when first opened; `access`: what it needs beyond its area;
 * `group`: the sidebar heading it is listed under.
 */
export function navScreen(
  path: string,
  label: string,
  icon: LucideIcon,
  load: () => Promise<{ default: ComponentType }>,
  { group, ...access }: Pick<AppRoute, 'permission' | 'listsStudents'> & { group?: NavGroup } = {},
): AppRoute {
  return { path, Component: lazyRetrying(load), nav: { label, icon, ...(group && { group }) }, ...access };
}
