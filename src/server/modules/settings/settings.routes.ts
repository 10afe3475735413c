import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { adminOf, sessionOf } from '../../plugins/auth.ts';
import { uploadedFile } from '../../multipart.ts';
import { hashToken } from '../auth/auth.service.ts';
import { PHOTO_MAX_BYTES } from '../../../shared/constants.ts';
import {
  adminAccount,
  adminParams,
  adminPasswordInput,
  adminTurma,
  adminWriteResult,
  createAdminInput,
  createTurmaInput,
  publicSettings,
  schoolInfoInput,
  schoolRulesInput,
  schoolSettings,
  turmaParams,
  turmaWriteResult,
  updateTurmaInput,
} from '../../../shared/settings.ts';
import { messageResult } from '../../../shared/responses.ts';
import { createAdmin, listAdmins, removeAdmin, resetAdminPassword } from '../auth/admin-accounts.service.ts';
import {
  createTurma,
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
    const api = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['settings'];

    api.get('/settings/public', { config: { access: 'public' }, schema: { tags, response: { 200: publicSettings } } }, async () =>
      getPublicSettings(settings, config.demo),
    );

    api.get('/settings', { config: { access: 'signedIn' }, schema: { tags, response: { 200: schoolSettings } } }, async () => settings.get());

    api.put(
      '/admin/settings/school',
      { config: { access: 'admin' }, schema: { tags, body: schoolInfoInput, response: { 200: schoolSettings } } },
      async (request) => updateSchoolInfo(deps, adminOf(request), request.body, context(request)),
    );

    api.post(
      '/admin/settings/logo',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          consumes: ['multipart/form-data'],
          description: 'Logo enviado como arquivo (campo "file"): JPG, PNG, GIF ou WebP, até 5 MB.',
          response: { 200: schoolSettings },
        },
      },
      async (request) => setSchoolLogo(deps, adminOf(request), await uploadedFile(request, PHOTO_MAX_BYTES, 'photo_too_large'), context(request)),
    );

    api.delete('/admin/settings/logo', { config: { access: 'admin' }, schema: { tags, response: { 200: schoolSettings } } }, async (request) =>
      removeSchoolLogo(deps, adminOf(request), context(request)),
    );

    api.put(
      '/admin/settings/rules',
      { config: { access: 'admin' }, schema: { tags, body: schoolRulesInput, response: { 200: schoolSettings } } },
      async (request) => updateRules(deps, adminOf(request), request.body, context(request)),
    );

    api.get('/admin/turmas', { config: { access: 'admin' }, schema: { tags, response: { 200: z.array(adminTurma) } } }, async () => listAdminTurmas(deps.db));

    api.post(
      '/admin/turmas',
      { config: { access: 'admin' }, schema: { tags, body: createTurmaInput, response: { 201: turmaWriteResult } } },
      async (request, reply) => reply.status(201).send(await createTurma(deps, adminOf(request), request.body, context(request))),
    );

    api.patch(
      '/admin/turmas/:id',
      { config: { access: 'admin' }, schema: { tags, params: turmaParams, body: updateTurmaInput, response: { 200: turmaWriteResult } } },
      async (request) => updateTurma(deps, adminOf(request), request.params.id, request.body, context(request)),
    );

    api.get('/admin/admins', { config: { access: 'admin' }, schema: { tags, response: { 200: z.array(adminAccount) } } }, async () => listAdmins(deps.db));

    api.post(
      '/admin/admins',
      { config: { access: 'admin' }, schema: { tags, body: createAdminInput, response: { 201: adminWriteResult } } },
      async (request, reply) => reply.status(201).send(await createAdmin(deps, adminOf(request), request.body, context(request))),
    );

    api.delete(
      '/admin/admins/:id',
      { config: { access: 'admin' }, schema: { tags, params: adminParams, response: { 200: messageResult } } },
      async (request) => removeAdmin(deps, adminOf(request), request.params.id, context(request)),
    );

    api.post(
      '/admin/admins/:id/password',
      { config: { access: 'admin' }, schema: { tags, params: adminParams, body: adminPasswordInput.optional(), response: { 200: adminWriteResult } } },
      async (request) =>
        resetAdminPassword(deps, adminOf(request), request.params.id, request.body ?? {}, {
          ...context(request),
          keepSessionHash: hashToken(sessionOf(request).token),
        }),
    );
  });
}
