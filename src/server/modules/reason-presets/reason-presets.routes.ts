import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { adminOf } from '../../plugins/auth.ts';
import { createReasonPreset, deleteReasonPreset, listReasonPresets } from './reason-presets.service.ts';

export async function reasonPresetsRoutes(app: FastifyInstance, { database }: AppDeps): Promise<void> {
  route(app, routes.reasonPresets.list, async () => listReasonPresets(database.db));

  route(app, routes.reasonPresets.create, async (request, reply) =>
    reply.status(201).send(await createReasonPreset(database.db, adminOf(request), request.body, { ip: request.ip })),
  );

  route(app, routes.reasonPresets.remove, async (request, reply) => {
    await deleteReasonPreset(database.db, adminOf(request), request.params.id, { ip: request.ip });
    return reply.status(204).send(null);
  });
}
