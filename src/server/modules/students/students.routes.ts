import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { studentOf } from '../../plugins/auth.ts';
import { ranking, transferDirectory } from './students.service.ts';

export async function studentsRoutes(app: FastifyInstance, { database }: AppDeps): Promise<void> {
  route(app, routes.students.ranking, async () => ranking(database.db));

  route(app, routes.students.directory, async (request) => transferDirectory(database.db, studentOf(request).id, request.query));
}
