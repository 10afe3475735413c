import type { AppRoute } from './route-types.ts';

/**
 * Screens of the student area. Add one entry per screen, e.g.
 * `{ path: paths.student.ranking, Component: lazy(() => import('../features/ranking/ranking-page.tsx')), nav: { label: 'Top Ranking', icon: Trophy } }`.
 * The sidebar lists the entries with `nav`, in the spec's order (navOrder in paths.ts).
 */
export const studentRoutes: AppRoute[] = [];
