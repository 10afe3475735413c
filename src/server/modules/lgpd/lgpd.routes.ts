import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { adminOf } from '../../plugins/auth.ts';
import { contentDisposition } from '../../storage/serve-object.ts';
import { eraseStudentData, type EraseDeps } from './erase.service.ts';
import { exportPersonalData } from './personal-data-export.ts';
import { readPersonalData, setImageConsent, studentAccessLog } from './personal-data.service.ts';
import { privacyPage, readPrivacy, retentionPreview, savePrivacy } from './retention.service.ts';

export async function lgpdRoutes(
  app: FastifyInstance,
  { database, events, settings, storage, beforeStudentRemoval }: AppDeps,
): Promise<void> {
  const db = database.db;
  const deps: EraseDeps = { db, events, storage, beforeRemoval: beforeStudentRemoval };
  const contract = routes.lgpd;
  const context = (request: FastifyRequest) => ({ ip: request.ip });

  route(app, contract.personalData, async (request, reply) =>
    reply.header('Cache-Control', 'no-store').send(await readPersonalData(db, adminOf(request), request.params.id, context(request))),
  );

  route(app, contract.export, async (request, reply) => {
    const { fileName, body } = await exportPersonalData({ db, settings, storage }, adminOf(request), request.params.id, context(request));
    return reply
      .type('application/zip')
      .header('Content-Disposition', contentDisposition('attachment', fileName))
      .header('Cache-Control', 'no-store')
      .send(body);
  });

  route(app, contract.erase, async (request) =>
    eraseStudentData(deps, adminOf(request), request.params.id, request.body, context(request)),
  );

  route(app, contract.accessLog, async (request) => studentAccessLog(db, request.params.id));

  route(app, contract.imageConsent, async (request) =>
    setImageConsent({ db, events }, adminOf(request), request.params.id, request.body.consent, context(request)),
  );

  route(app, contract.privacySettings, async () => readPrivacy(db));

  route(app, contract.savePrivacySettings, async (request) => savePrivacy(db, adminOf(request), request.body, context(request)));

  route(app, contract.retentionPreview, async (request) => retentionPreview(db, request.query.months));

  route(app, contract.privacyPage, async () => privacyPage(db, settings));
}
