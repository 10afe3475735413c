import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { adminOf } from '../../plugins/auth.ts';
import { dashboardSummary, goalParams, goalTarget, updateGoalInput } from '../../../shared/dashboard.ts';
import { dashboardSummary as computeSummary, updateGoalTarget } from './dashboard.service.ts';

export async function dashboardRoutes(app: FastifyInstance, { database, settings }: AppDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['dashboard'];

  api.get('/admin/dashboard', { config: { access: 'admin' }, schema: { tags, response: { 200: dashboardSummary } } }, async () =>
    computeSummary(database.db, (await settings.get()).school.timeZone),
  );

  api.put(
    '/admin/dashboard/goals/:id',
    { config: { access: 'admin' }, schema: { tags, params: goalParams, body: updateGoalInput, response: { 200: goalTarget } } },
    async (request) => updateGoalTarget(database.db, adminOf(request), request.params.id, request.body, { ip: request.ip }),
  );
}
