import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { principalOf, studentOf } from '../../plugins/auth.ts';
import { rankingPage, transferDirectory } from './students.service.ts';

export async function studentsRoutes(app: FastifyInstance, { database, ranking }: AppDeps): Promise<void> {
  route(app, routes.students.ranking, async (request) => rankingPage(await ranking.current(), principalOf(request), request.query));

  route(app, routes.students.directory, async (request) => transferDirectory(database.db, studentOf(request).id, request.query));
}
