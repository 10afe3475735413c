import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { studentOf } from '../../plugins/auth.ts';
import { studentSummary } from './student-summary.service.ts';

/** The student area's own endpoint: the summary figures. */
export async function studentAreaRoutes(app: FastifyInstance, { database, settings, ranking }: AppDeps): Promise<void> {
  route(app, routes.students.summary, async (request) =>
    studentSummary(database.db, ranking, studentOf(request).id, (await settings.get()).rules.meritusGoal),
  );
}
