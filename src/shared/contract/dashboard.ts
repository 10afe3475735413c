import { defineRoutes } from './route.ts';

export const dashboard = defineRoutes(['dashboard'], {
  summary: {
    method: 'GET',
    path: '/api/admin/dashboard',
    access: 'staffArea',
    schemas: (s) => ({ query: s.dashboardQuery, response: { 200: s.dashboardSummary } }),
  },
  updateGoal: {
    method: 'PUT',
    path: '/api/admin/dashboard/goals/:id',
    access: 'manageSchool',
    schemas: (s) => ({ params: s.goalParams, body: s.updateGoalInput, response: { 200: s.goalTarget } }),
  },
});
