import type { ComponentType } from 'react';
import type { LucideIcon } from 'lucide-react';
import type { QueryClient } from '@tanstack/react-query';
import type { Permission } from '../../shared/permissions.ts';

/** The sidebar's headings. */
export type NavGroup = 'Sistema';

/**
 * One screen of an area. `path` is absolute (from paths.ts); `Component` is lazy so each
 * screen is its own chunk, except the area's home, which loads with the area (one round trip
 * fewer on the page people open first); `nav` makes it a sidebar entry (ordered by navOrder); `prefetch` fetches what
 * the screen reads as it opens, when a page load starts on it (signed-in-app.tsx, prepareArea), so its first render is whole.
 */
export type AppRoute = {
  path: string;
  Component: ComponentType;
  /** `group`: the heading the entry is listed under, after the ungrouped entries (the technical screens: 'Sistema'). */
  nav?: { label: string; icon: LucideIcon; group?: NavGroup };
  /** The screen's name where it has no sidebar entry (the band at the top of wide screens shows it). */
  title?: string;
  prefetch?: (client: QueryClient) => Promise<unknown>;
  /**
   * The permission a member of the staff needs for the screen, where the area's own ('staffArea') is not enough: without
   * it the sidebar and the quick actions leave the screen out, and its address shows 'Sem permissão' (screen-access.tsx).
   */
  permission?: Permission;
  /** The screen lists students: a teacher without turmas sees why it is empty, and whom to ask, in its place. */
  listsStudents?: true;
};
