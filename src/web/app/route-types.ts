import type { ComponentType } from 'react';
import type { LucideIcon } from 'lucide-react';
import type { QueryClient } from '@tanstack/react-query';

/**
 * One screen of an area. `path` is absolute (from paths.ts); `Component` is lazy so each
 * screen is its own chunk, except the area's home, which loads with the area (one round trip
 * fewer on the page people open first); `nav` makes it a sidebar entry (ordered by navOrder); `prefetch` fetches what
 * the screen reads as it opens, when a page load starts on it (signed-in-app.tsx, prepareArea), so its first render is whole.
 */
export type AppRoute = {
  path: string;
  Component: ComponentType;
  nav?: { label: string; icon: LucideIcon };
  /** The screen's name where it has no sidebar entry (the band at the top of wide screens shows it). */
  title?: string;
  prefetch?: (client: QueryClient) => Promise<unknown>;
};
