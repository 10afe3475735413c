import { lazy } from 'react';
import { ArrowLeftRight, History, LayoutDashboard, Sparkles, Trophy, UserRound } from 'lucide-react';
import StudentDashboardPage from '../features/student-dashboard/student-dashboard-page.tsx';
import { prefetchStudentDashboard } from '../lib/student-queries.ts';
import { paths } from '../lib/paths.ts';
import type { AppRoute } from './route-types.ts';

/**
 * Screens of the student area; the home loads with the area, the others as their own chunks. Add one entry per screen, e.g.
 * `{ path: paths.student.ranking, Component: lazy(() => import('../features/ranking/ranking-page.tsx')), nav: { label: 'Top Ranking', icon: Trophy } }`.
 * The sidebar lists the entries with `nav`, in the spec's order (navOrder in paths.ts).
 */
export const studentRoutes: AppRoute[] = [
  {
    path: paths.student.home,
    Component: StudentDashboardPage,
    nav: { label: 'Dashboard', icon: LayoutDashboard },
    prefetch: prefetchStudentDashboard,
  },
  {
    path: paths.student.profile,
    Component: lazy(() => import('../features/student-profile/student-profile-page.tsx')),
    nav: { label: 'Meu Perfil', icon: UserRound },
  },
  {
    path: paths.student.transfer,
    Component: lazy(() => import('../features/student-transfer/student-transfer-page.tsx')),
    nav: { label: 'Transferir M$', icon: ArrowLeftRight },
  },
  {
    path: paths.student.estelecas,
    Component: lazy(() => import('../features/student-estelecas/student-estelecas-page.tsx')),
    nav: { label: 'Estelecas', icon: Sparkles },
  },
  {
    path: paths.student.ranking,
    Component: lazy(() => import('../features/ranking/student-ranking-page.tsx')),
    nav: { label: 'Top Ranking', icon: Trophy },
  },
  {
    path: paths.student.recentOperations,
    Component: lazy(() => import('../features/student-operations/student-operations-page.tsx')),
    nav: { label: 'Operações Recentes', icon: History },
  },
];
