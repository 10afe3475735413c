import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { studentOf } from '../../plugins/auth.ts';
import { studentSummary as studentSummarySchema, tagLikeParams, tagLikeState } from '../../../shared/student-area.ts';
import { studentSummary } from './student-summary.service.ts';
import { setTagLike } from '../tags/tag-likes.service.ts';

/** The student area's own endpoints: the summary figures and liking weekly tags. */
export async function studentAreaRoutes(app: FastifyInstance, { database, events }: AppDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const student = { access: 'student' } as const;

  api.get('/me/summary', { config: student, schema: { tags: ['students'], response: { 200: studentSummarySchema } } }, async (request) =>
    studentSummary(database.db, studentOf(request).id),
  );

  for (const [method, liked] of [['PUT', true], ['DELETE', false]] as const) {
    api.route({
      method,
      url: '/tags/:tagId/like',
      config: student,
      schema: { tags: ['tags'], params: tagLikeParams, response: { 200: tagLikeState } },
      handler: async (request) => setTagLike({ db: database.db, events }, studentOf(request), request.params.tagId, liked),
    });
  }
}
