import type { ComponentType, LazyExoticComponent } from 'react';
import type { LucideIcon } from 'lucide-react';

/**
 * One screen of an area. `path` is absolute (from paths.ts); `Component` is lazy so
 * each screen is its own chunk; `nav` makes it a sidebar entry (ordered by navOrder).
 */
export type AppRoute = {
  path: string;
  Component: LazyExoticComponent<ComponentType>;
  nav?: { label: string; icon: LucideIcon };
};
