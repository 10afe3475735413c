import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { uploadedFile } from '../../multipart.ts';
import { adminOf } from '../../plugins/auth.ts';
import { PHOTO_MAX_BYTES } from '../../../shared/constants.ts';
import { SIGN_IN_PROVIDERS } from '../../../shared/school-accounts.ts';
import {
  createTurma,
  deleteTurma,
  getPublicSettings,
  listAdminTurmas,
  removeSchoolLogo,
  setSchoolLogo,
  updateRules,
  updateSchoolInfo,
  updateTurma,
  type SettingsDeps,
} from './settings.service.ts';

export async function settingsRoutes(app: FastifyInstance, { config, database, events, settings, storage }: AppDeps): Promise<void> {
  const deps: SettingsDeps = { db: database.db, events, settings, storage };
  const context = (request: FastifyRequest) => ({ ip: request.ip });

  // Encapsulated, so multipart parsing exists only for the logo.
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: PHOTO_MAX_BYTES, files: 1 } });
    const contract = routes.settings;

    const signInProviders = SIGN_IN_PROVIDERS.filter((provider) => config.signInProviders[provider]);
    route(scope, contract.public, async () => getPublicSettings(settings, { demo: config.demo, signInProviders }));

    route(scope, contract.read, async () => settings.get());

    route(scope, contract.saveSchool, async (request) => updateSchoolInfo(deps, adminOf(request), request.body, context(request)));

    route(scope, contract.uploadLogo, async (request) =>
      setSchoolLogo(deps, adminOf(request), await uploadedFile(request, PHOTO_MAX_BYTES, 'photo_too_large'), context(request)),
    );

    route(scope, contract.removeLogo, async (request) => removeSchoolLogo(deps, adminOf(request), context(request)));

    route(scope, contract.saveRules, async (request) => updateRules(deps, adminOf(request), request.body, context(request)));

    route(scope, contract.turmas, async (request) => listAdminTurmas(deps.db, adminOf(request)));

    route(scope, contract.createTurma, async (request, reply) =>
      reply.status(201).send(await createTurma(deps, adminOf(request), request.body, context(request))),
    );

    route(scope, contract.updateTurma, async (request) =>
      updateTurma(deps, adminOf(request), request.params.id, request.body, context(request)),
    );

    route(scope, contract.deleteTurma, async (request) => deleteTurma(deps, adminOf(request), request.params.id, context(request)));
  });
}
