import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { adminOf, guardianOf, requestContext, setSessionCookie } from '../../plugins/auth.ts';
import {
  addChild,
  createGuardianCode,
  familyChildren,
  familyChildSummary,
  loginGuardian,
  setChildImageConsent,
  signupGuardian,
  studentGuardians,
  unlinkGuardian,
} from './families.service.ts';
import { guardianLettersPdf } from './guardian-letters.service.ts';
import { sendPdf } from '../../pdf.ts';

/** Responsáveis (decision 037): the school's codes and links, the guardian's account and the family area. */
export async function familiesRoutes(app: FastifyInstance, { config, database, events, ranking, settings }: AppDeps): Promise<void> {
  route(app, routes.families.createCode, async (request, reply) =>
    reply.status(201).send(await createGuardianCode(database.db, adminOf(request), request.params.id, requestContext(request))),
  );

  route(app, routes.families.letters, async (request, reply) => {
    // The address printed and in the QR code: the configured one, or the one this page was opened at (as the access cards).
    const portalUrl = config.publicUrl ?? `${request.protocol}://${request.host}`;
    const { fileName, body } = await guardianLettersPdf({ db: database.db, settings }, adminOf(request), request.body, {
      ...requestContext(request),
      portalUrl,
    });
    return sendPdf(reply, fileName, body);
  });

  route(app, routes.families.studentGuardians, async (request) => studentGuardians(database.db, adminOf(request), request.params.id));

  route(app, routes.families.unlink, async (request) =>
    unlinkGuardian({ db: database.db, events }, adminOf(request), request.params.id, request.params.studentId, requestContext(request)),
  );

  route(app, routes.families.signup, async (request, reply) => {
    const result = await signupGuardian(database.db, request.body, requestContext(request));
    setSessionCookie(reply, config, result.token, result.expiresAt);
    return reply.status(201).send(result.user);
  });

  route(app, routes.auth.guardianLogin, async (request, reply) => {
    const result = await loginGuardian(database.db, request.body, requestContext(request));
    setSessionCookie(reply, config, result.token, result.expiresAt);
    return result.user;
  });

  route(app, routes.families.addChild, async (request, reply) =>
    reply.status(201).send(await addChild({ db: database.db, events }, guardianOf(request), request.body, requestContext(request))),
  );

  route(app, routes.families.children, async (request) => familyChildren(database.db, guardianOf(request)));

  route(app, routes.families.imageConsent, async (request) =>
    setChildImageConsent(
      { db: database.db, events },
      guardianOf(request),
      request.params.id,
      request.body.consent,
      requestContext(request),
    ),
  );

  route(app, routes.families.childSummary, async (request) =>
    familyChildSummary(database.db, guardianOf(request), request.params.id, (await settings.get()).rules, ranking),
  );
}
