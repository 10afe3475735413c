import { lazy } from 'react';
import { Bug, Coins, Database, LayoutDashboard, Radio, Server, Sparkles, Trophy, Users } from 'lucide-react';
import { AdminDashboardPage } from '../features/admin-dashboard/admin-dashboard-page.tsx';
import { prefetchAdminDashboard } from '../features/admin-dashboard/dashboard-queries.ts';
import { paths } from '../lib/paths.ts';
import type { AppRoute } from './route-types.ts';

/**
 * Screens of the admin area; the home loads with the area, the others as their own chunks. Add one entry per screen, e.g.
 * `{ path: paths.admin.students, Component: lazy(() => import('../features/admin-students/students-page.tsx')),
 * nav: { label: 'Gerenciar Alunos', icon: Users } }`.
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
  {
    path: paths.admin.students,
    Component: lazy(() => import('../features/admin-students/admin-students-page.tsx')),
    nav: { label: 'Gerenciar Alunos', icon: Users },
  },
  {
    path: paths.admin.meritus,
    Component: lazy(() => import('../features/admin-meritus/admin-meritus-page.tsx')),
    nav: { label: 'Gerenciar M$', icon: Coins },
  },
  {
    path: paths.admin.estelecas,
    Component: lazy(() => import('../features/admin-estelecas/admin-estelecas-page.tsx')),
    nav: { label: 'Estelecas', icon: Sparkles },
  },
  {
    path: paths.admin.ranking,
    Component: lazy(() => import('../features/ranking/admin-ranking-page.tsx')),
    nav: { label: 'Ranking', icon: Trophy },
  },
  {
    path: paths.admin.recentOperations,
    Component: lazy(() => import('../features/live-operations/live-operations-page.tsx')),
    nav: { label: 'Operações em Tempo Real', icon: Radio },
  },
  {
    path: paths.admin.backend,
    Component: lazy(() => import('../features/admin-backend/admin-backend-page.tsx')),
    nav: { label: 'Painel Backend', icon: Server },
  },
  {
    path: paths.admin.database,
    Component: lazy(() => import('../features/admin-archive/admin-archive-page.tsx')),
    nav: { label: 'Data-Base', icon: Database },
  },
  {
    path: paths.admin.debug,
    Component: lazy(() => import('../features/admin-debug/admin-debug-page.tsx')),
    nav: { label: 'Debug & Diagnóstico', icon: Bug },
  },
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
