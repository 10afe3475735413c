import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { adminOf, principalOf, sessionOf } from '../../plugins/auth.ts';
import { currentUser, hashToken } from '../auth/auth.service.ts';
import { createStaffMember, listStaff, resetStaffPassword, updateOwnProfile, updateStaffMember, type StaffDeps } from './staff.service.ts';

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

  route(app, contract.updateOwnProfile, async (request) => {
    const actor = adminOf(request);
    await updateOwnProfile(deps, actor, request.body, { ip: request.ip });
    // Other instances drop the member's sessions when the event arrives; this one at once, so the next operation carries the new name.
    app.sessionCache.forget({ type: 'staff_changed', adminId: actor.id });
    return currentUser(deps.db, principalOf(request), (await settings.get()).rules);
  });
}
