import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.ts';
import { activeTagsResponse } from '../../../shared/students.ts';
import { listActiveTags } from './tags.service.ts';

export async function tagsRoutes(app: FastifyInstance, { database }: AppDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/tags/active', { schema: { tags: ['tags'], response: { 200: activeTagsResponse } } }, async (request) =>
    listActiveTags(database.db, request.principal!),
  );
}
