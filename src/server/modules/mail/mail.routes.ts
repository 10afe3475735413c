import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { adminOf, guardianOf, requestContext } from '../../plugins/auth.ts';
import { emailGuardianLetter } from './letter-email.service.ts';
import { familyMailPreferences, setFamilyMailPreferences, unsubscribe, unsubscribePageOf } from './mail-preferences.service.ts';

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

  route(app, routes.mail.oneClickUnsubscribePage, async (request, reply) => reply.redirect(unsubscribePageOf(request.query), 303));

  // A mail reader's button posts a form (RFC 8058: either encoding, body 'List-Unsubscribe=One-Click'). The signed address
  // is the whole check, so the body is read and set aside; only this route takes a form, so no other route receives
  // one a foreign page could send without the browser asking first.
  await app.register(async (oneClick) => {
    oneClick.removeAllContentTypeParsers();
    oneClick.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data'],
      { parseAs: 'buffer' },
      (_request, _body, done) => done(null, undefined),
    );
    // Some readers post from the page the message is read in, another site: the signature, not the origin, is the proof.
    route(oneClick, routes.mail.oneClickUnsubscribe, { crossSite: true }, async (request) =>
      unsubscribe(database.db, request.query, requestContext(request), 'mail_reader'),
    );
  });
}
