import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { uploadedFile } from '../../multipart.ts';
import { adminOf } from '../../plugins/auth.ts';
import { sendCsv } from '../../csv.ts';
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
import { importStudents, previewImport } from './student-import.service.ts';
import { accessCardsPdf } from './access-cards.service.ts';
import { sendPdf } from '../../pdf.ts';

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

    route(scope, students.importPreview, async (request) =>
      previewImport(deps.db, adminOf(request), await uploadedFile(request, IMPORT_MAX_BYTES, 'import_too_large')),
    );

    route(scope, students.import, async (request, reply) => {
      const bytes = await uploadedFile(request, IMPORT_MAX_BYTES, 'import_too_large');
      const result = await importStudents(deps, adminOf(request), bytes, context(request));
      return reply.status(201).header('Cache-Control', 'no-store').send(result);
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
