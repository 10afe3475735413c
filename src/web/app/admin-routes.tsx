import type { AppRoute } from './route-types.ts';

/**
 * Screens of the admin area. Add one entry per screen, e.g.
 * `{ path: paths.admin.students, Component: lazy(() => import('../features/admin-students/students-page.tsx')), nav: { label: 'Gerenciar Alunos', icon: Users } }`.
 * The sidebar lists the entries with `nav`, in the spec's order (navOrder in paths.ts).
 */
export const adminRoutes: AppRoute[] = [];
