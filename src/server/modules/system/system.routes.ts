import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { databaseHealthCheck } from './system-health.ts';
import { serviceUnavailable } from '../../app-error.ts';

export async function systemRoutes(app: FastifyInstance, { database }: AppDeps): Promise<void> {
  const databaseAnswers = databaseHealthCheck(database.db);
  route(app, routes.system.health, async () => {
    try {
      await databaseAnswers();
    } catch {
      throw serviceUnavailable();
    }
    return { status: 'ok' as const, database: database.kind };
  });

  route(app, routes.system.openApi, async () => app.swagger());
}
