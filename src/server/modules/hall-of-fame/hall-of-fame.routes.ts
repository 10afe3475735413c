import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { principalOf } from '../../plugins/auth.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { sendFile } from '../../send-file.ts';
import { honourCertificatePdf, readHallOfFame } from './hall-of-fame.service.ts';

/** The Hall da Fama (issue 38, decision 035). */
export async function hallOfFameRoutes(app: FastifyInstance, { database, settings, storage }: AppDeps): Promise<void> {
  const deps = { db: database.db, settings, storage };
  route(app, routes.hallOfFame.read, async (request) => readHallOfFame(deps, principalOf(request), request.query));
  route(app, routes.hallOfFame.certificate, async (request, reply) =>
    sendFile(reply, await honourCertificatePdf(deps, principalOf(request), request.params.id, { ip: request.ip })),
  );
}
