import { defineRoutes } from './route.ts';

export const dashboard = defineRoutes(
  { tags: ['dashboard'], load: () => import('../dashboard.ts') },
  {
    summary: { method: 'GET', path: '/api/admin/dashboard', access: 'admin', schemas: (dashboard) => ({ response: { 200: dashboard.dashboardSummary } }) },
    updateGoal: {
      method: 'PUT',
      path: '/api/admin/dashboard/goals/:id',
      access: 'admin',
      schemas: (dashboard) => ({ params: dashboard.goalParams, body: dashboard.updateGoalInput, response: { 200: dashboard.goalTarget } }),
    },
  },
);
