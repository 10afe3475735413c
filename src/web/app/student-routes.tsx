import { ArrowLeftRight, History, Landmark, LayoutDashboard, Lightbulb, ShoppingBag, Sparkles, Trophy, UserRound } from 'lucide-react';
import StudentDashboardPage from '../features/student-dashboard/student-dashboard-page.tsx';
import { prefetchStudentDashboard } from '../lib/student-queries.ts';
import { paths } from '../lib/paths.ts';
import { navScreen } from './nav-screen.ts';
import { lazyRetrying } from './route-error.tsx';
import type { AppRoute } from './route-types.ts';

/**
 * Screens of the student area; the home loads with the area, the others as their own chunks. Add one entry per screen, e.g.
 * `navScreen(paths.student.ranking, 'Top Ranking', Trophy, () => import('../features/ranking/student-ranking-page.tsx'))`.
 * The sidebar lists the entries with `nav`, in the spec's order (navOrder in paths.ts).
 */
export const studentRoutes: AppRoute[] = [
  {
    path: paths.student.home,
    Component: StudentDashboardPage,
    nav: { label: 'Dashboard', icon: LayoutDashboard },
    prefetch: prefetchStudentDashboard,
  },
  navScreen(paths.student.profile, 'Meu Perfil', UserRound, () => import('../features/student-profile/student-profile-page.tsx')),
  navScreen(
    paths.student.transfer,
    'Transferir M$',
    ArrowLeftRight,
    () => import('../features/student-transfer/student-transfer-page.tsx'),
  ),
  navScreen(paths.student.estelecas, 'Estelecas', Sparkles, () => import('../features/student-estelecas/student-estelecas-page.tsx')),
  navScreen(paths.student.store, 'Loja', ShoppingBag, () => import('../features/student-store/student-store-page.tsx')),
  navScreen(paths.student.ranking, 'Top Ranking', Trophy, () => import('../features/ranking/student-ranking-page.tsx')),
  navScreen(
    paths.student.recentOperations,
    'Operações Recentes',
    History,
    () => import('../features/student-operations/student-operations-page.tsx'),
  ),
  navScreen(paths.student.howToEarn, 'Como ganhar', Lightbulb, () => import('../features/student-how-to-earn/how-to-earn-page.tsx')),
  navScreen(paths.student.hallOfFame, 'Hall da Fama', Landmark, () => import('../features/hall-of-fame/hall-of-fame-page.tsx')),
  {
    path: paths.student.receipt,
    title: 'Comprovante',
    Component: lazyRetrying(() => import('../features/student-receipt/student-receipt-page.tsx')),
  },
];
