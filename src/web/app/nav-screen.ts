import { lazy, type ComponentType } from 'react';
import type { LucideIcon } from 'lucide-react';
import type { AppRoute } from './route-types.ts';

/** A screen with a sidebar entry, loaded as its own chunk when first opened; `access`: what it needs beyond its area. */
export function navScreen(
  path: string,
  label: string,
  icon: LucideIcon,
  load: () => Promise<{ default: ComponentType }>,
  access: Pick<AppRoute, 'permission' | 'listsStudents'> = {},
): AppRoute {
  return { path, Component: lazy(load), nav: { label, icon }, ...access };
}
