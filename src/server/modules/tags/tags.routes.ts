import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { adminOf, principalOf, studentOf } from '../../plugins/auth.ts';
import { setTagLike } from './tag-likes.service.ts';
import { giveTag, listActiveTags, moveTagExpiry, takeTag } from './tags.service.ts';

export async function tagsRoutes(app: FastifyInstance, { database, events, settings }: AppDeps): Promise<void> {
  const deps = { db: database.db, events };
  route(app, routes.tags.active, async (request) => listActiveTags(database.db, principalOf(request)));

  route(app, routes.tags.give, async (request) => {
    const { rules, school } = await settings.get();
    const days = request.body?.days ?? rules.defaultTagDays;
    return giveTag(deps, adminOf(request), request.params.id, request.params.kind, days, { ip: request.ip, timeZone: school.timeZone });
  });

  route(app, routes.tags.moveExpiry, async (request) =>
    moveTagExpiry(deps, adminOf(request), request.params.id, request.params.kind, new Date(request.body.expiresAt), {
      ip: request.ip,
      timeZone: (await settings.get()).school.timeZone,
    }),
  );

  route(app, routes.tags.take, async (request) => takeTag(deps, adminOf(request), request.params.id, request.params.kind, { ip: request.ip }));

  // Students like weekly tags; the likes follow them across devices.
  route(app, routes.tags.like, async (request) => setTagLike(deps, studentOf(request), request.params.tagId, true));
  route(app, routes.tags.unlike, async (request) => setTagLike(deps, studentOf(request), request.params.tagId, false));
}
