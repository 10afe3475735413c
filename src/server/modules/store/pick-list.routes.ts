import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { adminOf } from '../../plugins/auth.ts';
import { sendPdf } from '../../pdf.ts';
import { pickListPdf } from './pick-list.service.ts';

/** GET /api/admin/store/orders/pick-list.pdf: a turma's 'Lista de entrega'. */
export async function pickListRoutes(app: FastifyInstance, { database, settings }: AppDeps): Promise<void> {
  route(app, routes.store.pickList, async (request, reply) => {
    const file = await pickListPdf({ db: database.db, settings }, adminOf(request), request.query.turma, { ip: request.ip });
    return sendPdf(reply, file.fileName, file.body);
  });
}
