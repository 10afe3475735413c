import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { pingDatabase } from '../../db/client.ts';
import { serviceUnavailable } from '../../app-error.ts';

export async function systemRoutes(app: FastifyInstance, { database }: AppDeps): Promise<void> {
  route(app, routes.system.health, async () => {
    try {
      await pingDatabase(database.db);
    } catch {
      throw serviceUnavailable();
    }
    return { status: 'ok' as const, database: database.kind };
  });

  route(app, routes.system.openApi, async () => app.swagger());
}
