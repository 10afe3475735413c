import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { adminOf } from '../../plugins/auth.ts';
import { createReasonPresetInput, reasonPreset, reasonPresetParams } from '../../../shared/reason-presets.ts';
import { createReasonPreset, deleteReasonPreset, listReasonPresets } from './reason-presets.service.ts';

export async function reasonPresetsRoutes(app: FastifyInstance, { database }: AppDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['reason-presets'];

  api.get('/admin/reason-presets', { config: { access: 'admin' }, schema: { tags, response: { 200: z.array(reasonPreset) } } }, async () =>
    listReasonPresets(database.db),
  );

  api.post(
    '/admin/reason-presets',
    { config: { access: 'admin' }, schema: { tags, body: createReasonPresetInput, response: { 201: reasonPreset } } },
    async (request, reply) =>
      reply.status(201).send(await createReasonPreset(database.db, adminOf(request), request.body, { ip: request.ip })),
  );

  api.delete(
    '/admin/reason-presets/:id',
    { config: { access: 'admin' }, schema: { tags, params: reasonPresetParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await deleteReasonPreset(database.db, adminOf(request), request.params.id, { ip: request.ip });
      return reply.status(204).send(null);
    },
  );
}
