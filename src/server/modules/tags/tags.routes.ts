import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { adminOf, principalOf, studentOf } from '../../plugins/auth.ts';
import { rankingPrivacyOf } from '../../views/student-privacy.ts';
import { setTagLike } from './tag-likes.service.ts';
import { giveTag, listActiveTags, moveTagExpiry, takeTag } from './tags.service.ts';

export async function tagsRoutes(app: FastifyInstance, { database, events, settings }: AppDeps): Promise<void> {
  const deps = { db: database.db, events, settings };
  route(app, routes.tags.active, async (request) =>
    listActiveTags(database.db, principalOf(request), rankingPrivacyOf((await settings.get()).rules)),
  );

  route(app, routes.tags.give, async (request) =>
    giveTag(deps, adminOf(request), request.params.id, request.params.kind, request.body?.days, { ip: request.ip }),
  );

  route(app, routes.tags.moveExpiry, async (request) =>
    moveTagExpiry(deps, adminOf(request), request.params.id, request.params.kind, new Date(request.body.expiresAt), { ip: request.ip }),
  );

  route(app, routes.tags.take, async (request) =>
    takeTag(deps, adminOf(request), request.params.id, request.params.kind, { ip: request.ip }),
  );

  // Students like weekly tags; the likes follow them across devices.
  route(app, routes.tags.like, async (request) => setTagLike(deps, studentOf(request), request.params.tagId, true));
  route(app, routes.tags.unlike, async (request) => setTagLike(deps, studentOf(request), request.params.tagId, false));
}
