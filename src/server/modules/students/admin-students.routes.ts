import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { uploadedFile } from '../../multipart.ts';
import { adminOf } from '../../plugins/auth.ts';
import { csvResponse, sendCsv } from '../../csv.ts';
import { PHOTO_MAX_BYTES } from '../../../shared/constants.ts';
import {
  adminStudentsResponse,
  createStudentInput,
  IMPORT_MAX_BYTES,
  importPreview,
  importResult,
  passwordResetResult,
  photoUrlBody,
  studentUuidParam,
  studentWriteResult,
  updateStudentInput,
} from '../../../shared/admin-students.ts';
import { messageResult } from '../../../shared/responses.ts';
import {
  createStudent,
  exportStudentsCsv,
  listAdminStudents,
  removeStudent,
  removeStudentPhoto,
  resetStudentPassword,
  setStudentPhotoUrl,
  updateStudent,
  uploadStudentPhoto,
  type AdminStudentsDeps,
} from './admin-students.service.ts';
import { importStudents, previewImport } from './student-import.service.ts';

export async function adminStudentsRoutes(app: FastifyInstance, { database, events, settings, storage }: AppDeps): Promise<void> {
  const deps: AdminStudentsDeps = { db: database.db, events, storage };

  // Encapsulated, so multipart parsing exists only for these routes.
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: Math.max(PHOTO_MAX_BYTES, IMPORT_MAX_BYTES), files: 1 } });
    const api = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['admin-students'];
    const context = (request: FastifyRequest) => ({ ip: request.ip });

    api.get('/admin/students', { config: { access: 'admin' }, schema: { tags, response: { 200: adminStudentsResponse } } }, async () => listAdminStudents(deps.db));

    api.post(
      '/admin/students',
      { config: { access: 'admin' }, schema: { tags, body: createStudentInput, response: { 201: studentWriteResult } } },
      async (request, reply) => reply.status(201).send(await createStudent(deps, adminOf(request), request.body, context(request))),
    );

    api.patch(
      '/admin/students/:id',
      { config: { access: 'admin' }, schema: { tags, params: studentUuidParam, body: updateStudentInput, response: { 200: studentWriteResult } } },
      async (request) => updateStudent(deps, adminOf(request), request.params.id, request.body, context(request)),
    );

    api.delete(
      '/admin/students/:id',
      { config: { access: 'admin' }, schema: { tags, params: studentUuidParam, response: { 200: messageResult } } },
      async (request) => removeStudent(deps, adminOf(request), request.params.id, context(request)),
    );

    api.post(
      '/admin/students/:id/password',
      { config: { access: 'admin' }, schema: { tags, params: studentUuidParam, response: { 200: passwordResetResult } } },
      async (request, reply) =>
        reply.header('Cache-Control', 'no-store').send(await resetStudentPassword(deps, adminOf(request), request.params.id, context(request))),
    );

    api.post(
      '/admin/students/:id/photo',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          params: studentUuidParam,
          consumes: ['multipart/form-data'],
          description: 'Foto enviada como arquivo (campo "file"): JPG, PNG, GIF ou WebP, até 5 MB.',
          response: { 200: studentWriteResult },
        },
      },
      async (request) => {
        const bytes = await uploadedFile(request, PHOTO_MAX_BYTES, 'photo_too_large');
        return uploadStudentPhoto(deps, adminOf(request), request.params.id, bytes, context(request));
      },
    );

    api.put(
      '/admin/students/:id/photo',
      { config: { access: 'admin' }, schema: { tags, params: studentUuidParam, body: photoUrlBody, response: { 200: studentWriteResult } } },
      async (request) => setStudentPhotoUrl(deps, adminOf(request), request.params.id, request.body.url, context(request)),
    );

    api.delete(
      '/admin/students/:id/photo',
      { config: { access: 'admin' }, schema: { tags, params: studentUuidParam, response: { 200: studentWriteResult } } },
      async (request) => removeStudentPhoto(deps, adminOf(request), request.params.id, context(request)),
    );

    api.post(
      '/admin/students/import/preview',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          consumes: ['multipart/form-data'],
          description: 'Arquivo CSV (campo "file") com matrícula, nome, email, série e data de nascimento. Nada é gravado.',
          response: { 200: importPreview },
        },
      },
      async (request) => previewImport(deps.db, await uploadedFile(request, IMPORT_MAX_BYTES, 'import_too_large')),
    );

    api.post(
      '/admin/students/import',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          consumes: ['multipart/form-data'],
          description: 'Cria, numa só transação, todas as linhas válidas do arquivo, com senhas iniciais geradas (mostradas só nesta resposta).',
          response: { 201: importResult },
        },
      },
      async (request, reply) => {
        const bytes = await uploadedFile(request, IMPORT_MAX_BYTES, 'import_too_large');
        const result = await importStudents(deps, adminOf(request), bytes, context(request));
        return reply.status(201).header('Cache-Control', 'no-store').send(result);
      },
    );

    api.get('/admin/students/export.csv', { config: { access: 'admin' }, schema: { tags, produces: ['text/csv'], response: { 200: csvResponse } } }, async (request, reply) => {
      const { fileName, csv } = await exportStudentsCsv(deps.db, adminOf(request), {
        ...context(request),
        timeZone: (await settings.get()).school.timeZone,
      });
      return sendCsv(reply, fileName, csv);
    });
  });
}
