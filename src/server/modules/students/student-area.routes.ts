import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { studentOf } from '../../plugins/auth.ts';
import { studentSummary as studentSummarySchema } from '../../../shared/student-area.ts';
import { studentSummary } from './student-summary.service.ts';

/** The student area's own endpoint: the summary figures. */
export async function studentAreaRoutes(app: FastifyInstance, { database, settings }: AppDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/me/summary', { config: { access: 'student' }, schema: { tags: ['students'], response: { 200: studentSummarySchema } } }, async (request) =>
    studentSummary(database.db, studentOf(request).id, (await settings.get()).rules.meritusGoal),
  );
}
