import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { uploadedFile, uploadedForm } from '../../multipart.ts';
import { adminOf } from '../../plugins/auth.ts';
import { sendCsv } from '../../csv.ts';
import { contentDisposition } from '../../storage/serve-object.ts';
import { PHOTO_MAX_BYTES } from '../../../shared/constants.ts';
import { IMPORT_MAX_BYTES } from '../../../shared/admin-students.ts';
import {
  createStudent,
  exportStudentsCsv,
  listAdminStudents,
  removeStudent,
  resetStudentPassword,
  updateStudent,
  type AdminStudentsDeps,
} from './admin-students.service.ts';
import { removeStudentPhoto, setStudentPhotoUrl, uploadStudentPhoto } from './student-photos.service.ts';
import { importStudents, importTemplateFile, previewImport, turmaChoicesOf } from './student-import.service.ts';
import { accessCardsPdf } from './access-cards.service.ts';
import { sendPdf } from '../../pdf.ts';

/** The JSON of confirmed turma suggestions: 200 of them fit easily. */
const IMPORT_CHOICES_MAX_BYTES = 64 * 1024;

export async function adminStudentsRoutes(
  app: FastifyInstance,
  { config, database, events, settings, storage, beforeStudentRemoval }: AppDeps,
): Promise<void> {
  const deps: AdminStudentsDeps = { db: database.db, events, storage, beforeRemoval: beforeStudentRemoval };

  // Encapsulated, so multipart parsing exists only for these routes.
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: Math.max(PHOTO_MAX_BYTES, IMPORT_MAX_BYTES), files: 1 } });
    const students = routes.adminStudents;
    const context = (request: FastifyRequest) => ({ ip: request.ip });

    route(scope, students.list, async (request) => listAdminStudents(deps.db, adminOf(request), request.query));

    route(scope, students.create, async (request, reply) =>
      reply.status(201).send(await createStudent(deps, adminOf(request), request.body, context(request))),
    );

    route(scope, students.update, async (request) =>
      updateStudent(deps, adminOf(request), request.params.id, request.body, context(request)),
    );

    route(scope, students.remove, async (request) => removeStudent(deps, adminOf(request), request.params.id, context(request)));

    route(scope, students.resetPassword, async (request, reply) =>
      reply
        .header('Cache-Control', 'no-store')
        .send(await resetStudentPassword(deps, adminOf(request), request.params.id, context(request))),
    );

    route(scope, students.accessCards, async (request, reply) => {
      // The address printed and in the QR code: the configured one, or the one this page was opened at.
      const portalUrl = config.publicUrl ?? `${request.protocol}://${request.host}`;
      const { fileName, body } = await accessCardsPdf({ db: deps.db, events, settings }, adminOf(request), request.body, {
        ...context(request),
        portalUrl,
      });
      return sendPdf(reply, fileName, body);
    });

    route(scope, students.uploadPhoto, async (request) => {
      const bytes = await uploadedFile(request, PHOTO_MAX_BYTES, 'photo_too_large');
      return uploadStudentPhoto(deps, adminOf(request), request.params.id, bytes, context(request));
    });

    route(scope, students.setPhotoUrl, async (request) =>
      setStudentPhotoUrl(deps, adminOf(request), request.params.id, request.body.url, context(request)),
    );

    route(scope, students.removePhoto, async (request) => removeStudentPhoto(deps, adminOf(request), request.params.id, context(request)));

    // The file, and before it the confirmed turma suggestions (the field "turmas").
    const importUpload = async (request: FastifyRequest) => {
      const { bytes, fields } = await uploadedForm(request, IMPORT_MAX_BYTES, 'import_too_large', IMPORT_CHOICES_MAX_BYTES);
      return { bytes, choices: turmaChoicesOf(fields.turmas) };
    };

    route(scope, students.importPreview, async (request) => {
      const { bytes, choices } = await importUpload(request);
      return previewImport(deps.db, adminOf(request), bytes, choices);
    });

    route(scope, students.import, async (request, reply) => {
      const { bytes, choices } = await importUpload(request);
      const result = await importStudents(deps, adminOf(request), bytes, choices, context(request));
      return reply.status(201).header('Cache-Control', 'no-store').send(result);
    });

    route(scope, students.importTemplate, async (request, reply) => {
      const file = await importTemplateFile(deps.db, adminOf(request), request.query.format);
      return reply.type(file.contentType).header('Content-Disposition', contentDisposition('attachment', file.fileName)).send(file.body);
    });

    route(scope, students.export, async (request, reply) => {
      const { fileName, csv } = await exportStudentsCsv(deps.db, adminOf(request), {
        ...context(request),
        timeZone: (await settings.get()).school.timeZone,
      });
      return sendCsv(reply, fileName, csv);
    });
  });
}
