import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { adminOf } from '../../plugins/auth.ts';
import { IDEMPOTENCY_HEADER } from '../../../shared/ledger.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { createSchoolYear, listSchoolYears, updateSchoolYear } from './school-year.service.ts';
import { applyRollover, previewRollover, type RolloverDeps } from './rollover.service.ts';

/** The school year and the rollover (issue 38, decision 031). */
export async function schoolYearRoutes(
  app: FastifyInstance,
  { config, database, events, settings, beforeStudentRemoval }: AppDeps,
): Promise<void> {
  const deps: RolloverDeps = { db: database.db, events, settings, config, database, beforeStudentRemoval };
  const contract = routes.schoolYear;

  route(app, contract.list, async () => listSchoolYears(deps));

  route(app, contract.create, async (request, reply) =>
    reply.status(201).send(await createSchoolYear(deps, adminOf(request), request.body, { ip: request.ip })),
  );

  route(app, contract.update, async (request) =>
    updateSchoolYear(deps, adminOf(request), request.params.id, request.body, { ip: request.ip }),
  );

  route(app, contract.rolloverPreview, async (request) => previewRollover(deps, request.body));

  route(app, contract.rolloverApply, async (request) =>
    applyRollover(deps, adminOf(request), request.body, { ip: request.ip, idempotencyKey: request.headers[IDEMPOTENCY_HEADER] }),
  );
}
