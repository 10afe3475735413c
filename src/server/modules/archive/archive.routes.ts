import fs from 'node:fs/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../app-error.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { adminOf } from '../../plugins/auth.ts';
import { sendStoredObject } from '../../storage/serve-object.ts';
import { ARCHIVE_MAX_FILE_BYTES, ARCHIVE_MAX_FILES_PER_UPLOAD } from '../../../shared/archive.ts';
import type { ArchiveDeps } from './archive-rows.ts';
import { archiveSummary, getImage, listImages } from './archive-listing.service.ts';
import {
  bulkImages,
  countUsage,
  createShareLink,
  deleteImage,
  editImage,
  revokeShareLink,
  selectImage,
  setFavourite,
  sharedImage,
} from './archive-edits.service.ts';
import { fileToServe } from './archive-serve.service.ts';
import { uploadImages, type IncomingFile } from './archive-uploads.service.ts';
import { archiveStagingDir, stageUpload } from './archive-files.ts';
import { multipartFailure } from '../../multipart.ts';
import { renderSharePage } from './share-page.ts';

/**
 * Reads a multipart upload: each file streams to a staging file (never whole in memory),
 * text fields are collected whichever order they come in. On a refusal of the request as a
 * whole, the staging files already written are removed.
 */
async function receiveUpload(
  request: FastifyRequest,
  stagingDir: string,
): Promise<{ files: IncomingFile[]; fields: Record<string, string> }> {
  if (!request.isMultipart()) throw new AppError('file_missing');
  const files: IncomingFile[] = [];
  const fields: Record<string, string> = {};
  try {
    const parts = request.parts({
      limits: {
        fileSize: ARCHIVE_MAX_FILE_BYTES,
        files: ARCHIVE_MAX_FILES_PER_UPLOAD,
        fields: 20,
        fieldSize: 4096,
        parts: ARCHIVE_MAX_FILES_PER_UPLOAD + 20,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        const stream = part.file;
        const staged = await stageUpload(stream, stagingDir, () => stream.truncated);
        files.push({ fileName: part.filename, staged });
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    await Promise.all(files.map(({ staged }) => fs.rm(staged.path, { force: true })));
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') throw new AppError('archive_too_many_files');
    throw multipartFailure(error);
  }
  if (files.length === 0) throw new AppError('file_missing');
  return { files, fields };
}

/** Whatever a file route sends, it is never run as a page: no script, no plugins, its own origin sandboxed. */
const FILE_CSP = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";

async function serveFile(
  request: FastifyRequest,
  reply: FastifyReply,
  params: { key: string; variant?: string | undefined },
  deps: ArchiveDeps,
): Promise<FastifyReply> {
  const { objectKey, imageId, ...file } = await fileToServe(deps.db, params.key, params.variant, request.principal);
  const sent = await sendStoredObject(request, reply, deps.storage, objectKey, {
    ...file,
    headers: { 'Content-Security-Policy': FILE_CSP, 'Cross-Origin-Resource-Policy': 'same-origin' },
  });
  if (!sent) {
    deps.warn({ imageId, objectKey }, 'archive record without its file');
    throw new AppError('archive_image_not_found', { status: 404 });
  }
  return reply;
}

export async function archiveRoutes(app: FastifyInstance, { config, database, events, settings, storage }: AppDeps): Promise<void> {
  const deps: ArchiveDeps = { db: database.db, storage, events, warn: (details, message) => app.log.warn(details, message) };
  const stagingDir = archiveStagingDir(config.dataDir);
  const archive = routes.archive;
  /** The school's rules, which say what a member's role may do (read through the settings cache). */
  const rules = async () => (await settings.get()).rules;

  await app.register(async (scope) => {
    // A file over the limit is cut and reported as that file's error; the other files of the request go on.
    await scope.register(multipart, { throwFileSizeLimit: false });

    route(scope, archive.list, async (request) => listImages(deps.db, adminOf(request), request.query));

    route(scope, archive.summary, async () => archiveSummary(deps.db));

    route(scope, archive.upload, async (request) => {
      const { files, fields } = await receiveUpload(request, stagingDir);
      return uploadImages(deps, adminOf(request), files, fields);
    });

    route(scope, archive.bulk, async (request) => bulkImages(deps, adminOf(request), await rules(), request.body));

    route(scope, archive.get, async (request) => getImage(deps.db, adminOf(request), request.params.id));

    route(scope, archive.edit, async (request) => editImage(deps, adminOf(request), await rules(), request.params.id, request.body));

    route(scope, archive.remove, async (request) => deleteImage(deps, adminOf(request), await rules(), request.params.id));

    route(scope, archive.favourite, async (request) => setFavourite(deps.db, adminOf(request), request.params.id, request.body.favourite));

    route(scope, archive.copyLink, async (request) => countUsage(deps.db, request.params.id));

    route(scope, archive.select, async (request) =>
      selectImage(deps, adminOf(request), request.params.id, request.body?.studentId, await rules(), { ip: request.ip }),
    );

    route(scope, archive.share, async (request) => createShareLink(deps.db, request.params.id));

    route(scope, archive.unshare, async (request) => revokeShareLink(deps.db, adminOf(request), await rules(), request.params.id));

    // Files: declared public; each answer is decided by the image's access level (fileToServe).
    route(scope, archive.file, (request, reply) => serveFile(request, reply, request.params, deps));
    route(scope, archive.fileVariant, (request, reply) => serveFile(request, reply, request.params, deps));
  });
}

/** GET /share/image/{token}: a small page outside the API (no session needed), for public active images only. */
export async function sharePageRoutes(app: FastifyInstance, { database }: AppDeps): Promise<void> {
  app.get('/share/image/:token', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const row = await sharedImage(database.db, token);
    return reply
      .status(row ? 200 : 404)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header(
        'Content-Security-Policy',
        "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      )
      .send(renderSharePage(row));
  });
}
