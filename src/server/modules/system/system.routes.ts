import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { pingDatabase } from '../../db/client.ts';
import { AppError } from '../../app-error.ts';
import { systemAdminRoutes } from './system-admin.routes.ts';

export async function systemRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { database } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/health',
    {
      config: { access: 'public' },
      schema: { tags: ['system'], response: { 200: z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) }) } },
    },
    async () => {
      try {
        await pingDatabase(database.db);
      } catch {
        throw new AppError('internal', { status: 503 });
      }
      return { status: 'ok' as const, database: database.kind };
    },
  );

  api.get('/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());

  await systemAdminRoutes(app, deps);
}
