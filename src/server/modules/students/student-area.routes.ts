import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { studentOf } from '../../plugins/auth.ts';
import { rankingPrivacyOf } from '../../views/student-privacy.ts';
import { setStoreGoal } from './store-goal.service.ts';
import { studentSummary } from './student-summary.service.ts';

/** The student area's own endpoints: the summary figures, and the Loja's item the student chose as their goal. */
export async function studentAreaRoutes(app: FastifyInstance, { database, settings, ranking }: AppDeps): Promise<void> {
  route(app, routes.students.summary, async (request) => {
    const { rules } = await settings.get();
    return studentSummary(database.db, ranking, studentOf(request).id, rules.meritusGoal, rankingPrivacyOf(rules));
  });
  route(app, routes.students.storeGoal, async (request) => ({
    storeGoal: await setStoreGoal(database.db, studentOf(request).id, request.body.itemId),
  }));
}
