import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { adminOf, sessionOf } from '../../plugins/auth.ts';
import { hashToken } from '../auth/auth.service.ts';
import { createStaffMember, listStaff, resetStaffPassword, updateStaffMember, type StaffDeps } from './staff.service.ts';

export async function staffRoutes(app: FastifyInstance, { database, events, settings }: AppDeps): Promise<void> {
  const deps: StaffDeps = { db: database.db, events, settings };
  const contract = routes.staff;

  route(app, contract.list, async () => listStaff(deps.db));

  route(app, contract.create, async (request, reply) => {
    const { adminId: _, ...created } = await createStaffMember(deps, adminOf(request), request.body, { ip: request.ip });
    return reply.status(201).send(created);
  });

  route(app, contract.update, async (request) =>
    updateStaffMember(deps, adminOf(request), request.params.id, request.body, { ip: request.ip }),
  );

  route(app, contract.resetPassword, async (request) =>
    resetStaffPassword(deps, adminOf(request), request.params.id, request.body ?? {}, {
      ip: request.ip,
      keepSessionHash: hashToken(sessionOf(request).token),
    }),
  );
}
