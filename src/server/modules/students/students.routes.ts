import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { directoryResponse, rankingResponse } from '../../../shared/students.ts';
import { studentOf } from '../../plugins/auth.ts';
import { ranking, transferDirectory } from './students.service.ts';

export async function studentsRoutes(app: FastifyInstance, { database }: AppDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['students'];

  api.get('/ranking', { config: { access: 'signedIn' }, schema: { tags, response: { 200: rankingResponse } } }, async () => ranking(database.db));

  api.get(
    '/students/directory',
    { config: { access: 'student' }, schema: { tags, response: { 200: directoryResponse } } },
    async (request) => transferDirectory(database.db, studentOf(request).id),
  );
}
