import { lazy } from 'react';
import { Bug, Coins, Database, LayoutDashboard, Radio, Server, Sparkles, Trophy, Users } from 'lucide-react';
import { AdminDashboardPage } from '../features/admin-dashboard/admin-dashboard-page.tsx';
import { prefetchAdminDashboard } from '../features/admin-dashboard/dashboard-queries.ts';
import { paths } from '../lib/paths.ts';
import { navScreen } from './nav-screen.ts';
import type { AppRoute } from './route-types.ts';

/**
 * Screens of the admin area; the home loads with the area, the others as their own chunks. Add one entry per screen, e.g.
 * `navScreen(paths.admin.students, 'Gerenciar Alunos', Users, () => import('../features/admin-students/admin-students-page.tsx'))`.
 * The sidebar lists the entries with `nav`, in the spec's order (navOrder in paths.ts).
 */
function AdminHome() {
  return <AdminDashboardPage isAvailable={isAdminScreen} />;
}

export const adminRoutes: AppRoute[] = [
  {
    path: paths.admin.home,
    Component: AdminHome,
    nav: { label: 'Dashboard', icon: LayoutDashboard },
    prefetch: prefetchAdminDashboard,
  },
  navScreen(paths.admin.students, 'Gerenciar Alunos', Users, () => import('../features/admin-students/admin-students-page.tsx')),
  navScreen(paths.admin.meritus, 'Gerenciar M$', Coins, () => import('../features/admin-meritus/admin-meritus-page.tsx')),
  navScreen(paths.admin.estelecas, 'Estelecas', Sparkles, () => import('../features/admin-estelecas/admin-estelecas-page.tsx')),
  navScreen(paths.admin.ranking, 'Ranking', Trophy, () => import('../features/ranking/admin-ranking-page.tsx')),
  navScreen(
    paths.admin.recentOperations,
    'Operações em Tempo Real',
    Radio,
    () => import('../features/live-operations/live-operations-page.tsx'),
  ),
  navScreen(paths.admin.backend, 'Painel Backend', Server, () => import('../features/admin-backend/admin-backend-page.tsx')),
  navScreen(paths.admin.database, 'Data-Base', Database, () => import('../features/admin-archive/admin-archive-page.tsx')),
  navScreen(paths.admin.debug, 'Debug & Diagnóstico', Bug, () => import('../features/admin-debug/admin-debug-page.tsx')),
  { path: paths.admin.reports, title: 'Relatórios', Component: lazy(() => import('../features/admin-reports/admin-reports-page.tsx')) },
  {
    path: paths.admin.settings,
    title: 'Configurações',
    Component: lazy(() => import('../features/admin-settings/admin-settings-page.tsx')),
  },
];

/** Whether an admin path has a screen, so the dashboard's quick actions never lead to a dead page. */
function isAdminScreen(path: string): boolean {
  return adminRoutes.some((route) => route.path === path);
}
