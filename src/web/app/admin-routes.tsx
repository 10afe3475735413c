import {
  BarChart3,
  Bug,
  Coins,
  Database,
  Landmark,
  LayoutDashboard,
  Radio,
  Server,
  Settings,
  ShoppingBag,
  Sparkles,
  Trophy,
  Users,
} from 'lucide-react';
import { AdminDashboardPage } from '../features/admin-dashboard/admin-dashboard-page.tsx';
import { prefetchAdminDashboard } from '../features/admin-dashboard/dashboard-queries.ts';
import { paths } from '../lib/paths.ts';
import { navScreen } from './nav-screen.ts';
import type { AppRoute } from './route-types.ts';
import { useSession } from '../lib/session.ts';
import { mayOpen } from './screen-access.tsx';
import { lazyRetrying } from './route-error.tsx';

/**
 * Screens of the admin area; the home loads with the area, the others as their own chunks. Add one entry per screen, e.g.
 * `navScreen(paths.admin.students, 'Gerenciar Alunos', Users, () => import('../features/admin-students/admin-students-page.tsx'))`.
 * The sidebar lists the entries with `nav`, in the order of navOrder (paths.ts), the technical screens under 'Sistema'.
 */
function AdminHome() {
  const { user } = useSession();
  // A quick action leads only to a screen that exists and that the member may open.
  const isAvailable = (path: string) => adminRoutes.some((route) => route.path === path && mayOpen(user, route));
  return <AdminDashboardPage isAvailable={isAvailable} />;
}

export const adminRoutes: AppRoute[] = [
  {
    path: paths.admin.home,
    Component: AdminHome,
    nav: { label: 'Dashboard', icon: LayoutDashboard },
    prefetch: prefetchAdminDashboard,
  },
  navScreen(paths.admin.students, 'Gerenciar Alunos', Users, () => import('../features/admin-students/admin-students-page.tsx'), {
    listsStudents: true,
  }),
  navScreen(paths.admin.meritus, 'Gerenciar M$', Coins, () => import('../features/admin-meritus/admin-meritus-page.tsx'), {
    permission: 'award',
    listsStudents: true,
  }),
  navScreen(paths.admin.estelecas, 'Estelecas', Sparkles, () => import('../features/admin-estelecas/admin-estelecas-page.tsx'), {
    permission: 'award',
    listsStudents: true,
  }),
  // Every member of the staff: a teacher reads the catalogue and handles their turmas' orders; writing it is the coordination's.
  navScreen(paths.admin.store, 'Loja', ShoppingBag, () => import('../features/admin-store/admin-store-page.tsx')),
  navScreen(paths.admin.ranking, 'Ranking', Trophy, () => import('../features/ranking/admin-ranking-page.tsx'), { listsStudents: true }),
  navScreen(
    paths.admin.recentOperations,
    'Operações em Tempo Real',
    Radio,
    () => import('../features/live-operations/live-operations-page.tsx'),
    { listsStudents: true },
  ),
  navScreen(paths.admin.reports, 'Relatórios', BarChart3, () => import('../features/admin-reports/admin-reports-page.tsx'), {
    listsStudents: true,
  }),
  navScreen(paths.admin.hallOfFame, 'Hall da Fama', Landmark, () => import('../features/hall-of-fame/hall-of-fame-page.tsx')),
  navScreen(paths.admin.settings, 'Configurações', Settings, () => import('../features/admin-settings/admin-settings-page.tsx'), {
    permission: 'manageSchool',
  }),
  navScreen(paths.admin.backend, 'Painel Backend', Server, () => import('../features/admin-backend/admin-backend-page.tsx'), {
    permission: 'manageSchool',
    group: 'Sistema',
  }),
  navScreen(paths.admin.database, 'Data-Base', Database, () => import('../features/admin-archive/admin-archive-page.tsx'), {
    group: 'Sistema',
  }),
  navScreen(paths.admin.debug, 'Debug & Diagnóstico', Bug, () => import('../features/admin-debug/admin-debug-page.tsx'), {
    permission: 'manageSchool',
    group: 'Sistema',
  }),
  {
    path: paths.admin.yearRollover,
    title: 'Virada do ano',
    permission: 'manageSchool',
    Component: lazyRetrying(() => import('../features/admin-settings/year-rollover-page.tsx')),
  },
  {
    path: paths.admin.profile,
    title: 'Meu perfil',
    Component: lazyRetrying(() => import('../features/admin-profile/admin-profile-page.tsx')),
  },
];
