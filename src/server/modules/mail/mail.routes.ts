import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { adminOf, guardianOf, requestContext } from '../../plugins/auth.ts';
import { emailGuardianLetter } from './letter-email.service.ts';
import { familyMailPreferences, setFamilyMailPreferences, unsubscribe } from './mail-preferences.service.ts';

/** Email (decision 038): whether it is on, the letter by email, the weekly summary's switch and its one-click opt-out. */
export async function mailRoutes(app: FastifyInstance, { config, database, settings }: AppDeps): Promise<void> {
  const enabled = config.smtp !== null;

  route(app, routes.mail.status, async () => ({ enabled }));

  route(app, routes.mail.letterEmail, async (request, reply) =>
    reply
      .status(201)
      .send(
        await emailGuardianLetter(
          { db: database.db, settings, mailEnabled: enabled, publicUrl: config.smtp?.publicUrl },
          adminOf(request),
          request.params.id,
          request.body,
          requestContext(request),
        ),
      ),
  );

  route(app, routes.mail.familyPreferences, async (request) => familyMailPreferences(database.db, guardianOf(request), enabled));

  route(app, routes.mail.setFamilyPreferences, async (request) =>
    setFamilyMailPreferences(database.db, guardianOf(request), request.body.weeklySummary, enabled, requestContext(request)),
  );

  route(app, routes.mail.unsubscribe, async (request) => unsubscribe(database.db, request.body, requestContext(request)));
}
