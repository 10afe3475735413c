import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { adminOf } from '../../plugins/auth.ts';
import { dashboardSummary as computeSummary, updateGoalTarget } from './dashboard.service.ts';

export async function dashboardRoutes(app: FastifyInstance, { database, settings }: AppDeps): Promise<void> {
  route(app, routes.dashboard.summary, async (request) => computeSummary({ db: database.db, settings }, adminOf(request), request.query));

  route(app, routes.dashboard.updateGoal, async (request) =>
    updateGoalTarget(database.db, adminOf(request), request.params.id, request.body, { ip: request.ip }),
  );
}
