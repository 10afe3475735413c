import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { adminOf, principalOf, studentOf } from '../../plugins/auth.ts';
import { tagLikeParams, tagLikeState } from '../../../shared/student-area.ts';
import { setTagLike } from './tag-likes.service.ts';
import { activeTagsResponse } from '../../../shared/students.ts';
import { studentTagParams, tagChangeResult, tagDaysInput, tagExpiryInput } from '../../../shared/admin-students.ts';
import { giveTag, listActiveTags, moveTagExpiry, takeTag } from './tags.service.ts';

export async function tagsRoutes(app: FastifyInstance, { database, events, settings }: AppDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps = { db: database.db, events };
  const tags = ['tags'];
  api.get('/tags/active', { config: { access: 'signedIn' }, schema: { tags, response: { 200: activeTagsResponse } } }, async (request) =>
    listActiveTags(database.db, principalOf(request)),
  );

  api.put(
    '/admin/students/:id/tags/:kind',
    { config: { access: 'admin' }, schema: { tags, params: studentTagParams, body: tagDaysInput.optional(), response: { 200: tagChangeResult } } },
    async (request) => {
      const { rules, school } = await settings.get();
      const days = request.body?.days ?? rules.defaultTagDays;
      return giveTag(deps, adminOf(request), request.params.id, request.params.kind, days, { ip: request.ip, timeZone: school.timeZone });
    },
  );

  api.patch(
    '/admin/students/:id/tags/:kind',
    { config: { access: 'admin' }, schema: { tags, params: studentTagParams, body: tagExpiryInput, response: { 200: tagChangeResult } } },
    async (request) =>
      moveTagExpiry(deps, adminOf(request), request.params.id, request.params.kind, new Date(request.body.expiresAt), {
        ip: request.ip,
        timeZone: (await settings.get()).school.timeZone,
      }),
  );

  api.delete(
    '/admin/students/:id/tags/:kind',
    { config: { access: 'admin' }, schema: { tags, params: studentTagParams, response: { 200: tagChangeResult } } },
    async (request) => takeTag(deps, adminOf(request), request.params.id, request.params.kind, { ip: request.ip }),
  );

  // Students like weekly tags; the likes follow them across devices.
  for (const [method, liked] of [['PUT', true], ['DELETE', false]] as const) {
    api.route({
      method,
      url: '/tags/:tagId/like',
      config: { access: 'student' },
      schema: { tags, params: tagLikeParams, response: { 200: tagLikeState } },
      handler: async (request) => setTagLike(deps, studentOf(request), request.params.tagId, liked),
    });
  }
}
