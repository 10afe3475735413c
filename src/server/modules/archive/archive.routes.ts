import path from 'node:path';
import fs from 'node:fs/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../app-error.ts';
import { adminOf } from '../../plugins/auth.ts';
import { sendStoredObject } from '../../storage/serve-object.ts';
import { setStudentPhotoUrl } from '../students/admin-students.service.ts';
import {
  ARCHIVE_MAX_FILE_BYTES,
  ARCHIVE_MAX_FILES_PER_UPLOAD,
  ARCHIVE_TEXTS,
  ARCHIVE_UPLOAD_FILE_FIELD,
  archiveBulkInput,
  archiveBulkResult,
  archiveCounters,
  archiveEditInput,
  archiveEditResult,
  archiveFavouriteInput,
  archiveFavouriteResult,
  archiveIdParam,
  archiveItem,
  archiveListQuery,
  archivePage,
  archiveSelectInput,
  archiveSelectResult,
  archiveShareResult,
  archiveSummary as archiveSummarySchema,
  archiveUploadFields,
  archiveUploadResult,
  type ArchiveUploadFileResult,
  type ArchiveUploadResult,
} from '../../../shared/archive.ts';
import { messageResult } from '../../../shared/responses.ts';
import { issueCode, issueFields } from '../../../shared/validation.ts';
import {
  archiveSummary,
  bulkImages,
  countDownload,
  countUsage,
  createShareLink,
  decideServe,
  deleteImage,
  editImage,
  getImage,
  listImages,
  photoCandidate,
  photoUrlOf,
  revokeShareLink,
  setFavourite,
  sharedImage,
  storageKey,
  storeUploads,
  type ArchiveDeps,
  type IncomingFile,
} from './archive.service.ts';
import { archiveStagingDir, stageUpload } from './archive-files.ts';
import { multipartFailure } from '../../multipart.ts';
import { renderSharePage } from './share-page.ts';

/** Thumbnails fill a page of cards: files get a budget of their own, above the API's per-user one. */
const FILE_RATE_LIMIT = { max: 3000, timeWindow: 60_000 };
/** A few uploads a minute per administrator is plenty; each may carry 50 files. */
const UPLOAD_RATE_LIMIT = { max: 30, timeWindow: 60_000 };

/**
 * Reads a multipart upload: each file streams to a staging file (never whole in memory),
 * text fields are collected whichever order they come in. On a refusal of the request as a
 * whole, the staging files already written are removed.
 */
async function receiveUpload(request: FastifyRequest, stagingDir: string): Promise<{ files: IncomingFile[]; fields: Record<string, string> }> {
  if (!request.isMultipart()) throw new AppError('file_missing');
  const files: IncomingFile[] = [];
  const fields: Record<string, string> = {};
  try {
    const parts = request.parts({
      limits: { fileSize: ARCHIVE_MAX_FILE_BYTES, files: ARCHIVE_MAX_FILES_PER_UPLOAD, fields: 20, fieldSize: 4096, parts: ARCHIVE_MAX_FILES_PER_UPLOAD + 20 },
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

function uploadAnswer(results: ArchiveUploadFileResult[]): ArchiveUploadResult {
  const uploaded = results.filter((result) => result.ok).length;
  const failed = results.length - uploaded;
  const message = [uploaded > 0 ? ARCHIVE_TEXTS.uploaded(uploaded) : null, failed > 0 ? ARCHIVE_TEXTS.uploadErrors(failed) : null].filter(Boolean).join(' ');
  return { message, uploaded, failed, results };
}

const FILE_VARIANTS = ['thumb', 'preview', 'download'] as const;
type FileVariant = (typeof FILE_VARIANTS)[number];
const isFileVariant = (value: string): value is FileVariant => (FILE_VARIANTS as readonly string[]).includes(value);

// Any variant name reaches the route, so an unknown one is a missing file (404) like any other.
const fileParams = z.object({ key: z.string().max(64), variant: z.string().max(20).optional() });

/** Whatever a file route sends, it is never run as a page: no script, no plugins, its own origin sandboxed. */
const FILE_CSP = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";

async function serveFile(request: FastifyRequest<{ Params: z.infer<typeof fileParams> }>, reply: FastifyReply, deps: ArchiveDeps): Promise<FastifyReply> {
  const variant = request.params.variant;
  if (variant !== undefined && !isFileVariant(variant)) throw new AppError('archive_image_not_found', { status: 404 });
  const decision = await decideServe(deps.db, request.params.key, request.principal);
  if (!decision.ok) throw new AppError(decision.code, { status: decision.code === 'unauthenticated' ? 401 : 404 });
  const { row } = decision;
  const isVariant = variant === 'thumb' || variant === 'preview';
  if (isVariant && !row.hasVariants) throw new AppError('archive_image_not_found', { status: 404 });
  if (variant === 'download') await countDownload(deps.db, row.id);
  // SVG is a document that can carry script: its original only ever leaves as a download.
  const attachment = variant === 'download' || (!isVariant && row.mimeType === 'image/svg+xml');
  const sent = await sendStoredObject(request, reply, deps.storage, storageKey(row.fileKey, isVariant ? variant : 'original'), {
    contentType: isVariant ? 'image/webp' : row.mimeType,
    ...(isVariant ? {} : { size: row.fileSize }),
    // Revalidated on every use, so a change of access level takes effect at once. The size is in the validator: the
    // one-time metadata removal (stored-metadata-job.ts) rewrites an original under its key.
    cacheControl: row.accessLevel === 'public' && row.isActive ? 'public, no-cache' : 'private, no-cache',
    ...(variant === 'download' ? {} : { etag: `"${row.fileKey}-${variant ?? 'original'}-${row.fileSize}"` }),
    disposition: { type: attachment ? 'attachment' : 'inline', fileName: isVariant ? `${path.parse(row.fileName).name}.webp` : row.fileName },
    headers: { 'Content-Security-Policy': FILE_CSP, 'Cross-Origin-Resource-Policy': 'same-origin' },
  });
  if (!sent) {
    deps.warn({ imageId: row.id, fileKey: row.fileKey, variant }, 'archive record without its file');
    throw new AppError('archive_image_not_found', { status: 404 });
  }
  return reply;
}

export async function archiveRoutes(app: FastifyInstance, { config, database, events, storage }: AppDeps): Promise<void> {
  const deps: ArchiveDeps = { db: database.db, storage, events, warn: (details, message) => app.log.warn(details, message) };
  const stagingDir = archiveStagingDir(config.dataDir);
  const studentDeps = { db: database.db, events, storage };
  const tags = ['archive'];

  await app.register(async (scope) => {
    // A file over the limit is cut and reported as that file's error; the other files of the request go on.
    await scope.register(multipart, { throwFileSizeLimit: false });
    const api = scope.withTypeProvider<ZodTypeProvider>();
    const admin = { access: 'admin' } as const;

    api.get('/admin/archive/images', { config: admin, schema: { tags, querystring: archiveListQuery, response: { 200: archivePage } } }, async (request) =>
      listImages(deps.db, adminOf(request), request.query),
    );

    api.get('/admin/archive/summary', { config: admin, schema: { tags, response: { 200: archiveSummarySchema } } }, async () => archiveSummary(deps.db));

    api.post(
      '/admin/archive/images',
      {
        config: { ...admin, rateLimit: UPLOAD_RATE_LIMIT },
        schema: {
          tags,
          consumes: ['multipart/form-data'],
          description: `Arquivos no campo "${ARCHIVE_UPLOAD_FILE_FIELD}" (até 50 por envio, 50 MB cada) e os campos de texto de archiveUploadFields.`,
          response: { 200: archiveUploadResult },
        },
      },
      async (request) => {
        const { files, fields } = await receiveUpload(request, stagingDir);
        const parsed = archiveUploadFields.safeParse(fields);
        if (!parsed.success) {
          await Promise.all(files.map(({ staged }) => fs.rm(staged.path, { force: true })));
          throw new AppError(issueCode(parsed.error.issues[0]!), { fields: issueFields(parsed.error.issues) });
        }
        const answer = uploadAnswer(await storeUploads(deps, adminOf(request), files, parsed.data));
        if (answer.uploaded === 0) throw new AppError('archive_upload_failed', { message: answer.message, details: answer });
        return answer;
      },
    );

    api.post('/admin/archive/images/bulk', { config: admin, schema: { tags, body: archiveBulkInput, response: { 200: archiveBulkResult } } }, async (request) =>
      bulkImages(deps, request.body),
    );

    api.get('/admin/archive/images/:id', { config: admin, schema: { tags, params: archiveIdParam, response: { 200: archiveItem } } }, async (request) =>
      getImage(deps.db, adminOf(request), request.params.id),
    );

    api.patch(
      '/admin/archive/images/:id',
      { config: admin, schema: { tags, params: archiveIdParam, body: archiveEditInput, response: { 200: archiveEditResult } } },
      async (request) => editImage(deps, adminOf(request), request.params.id, request.body),
    );

    api.delete('/admin/archive/images/:id', { config: admin, schema: { tags, params: archiveIdParam, response: { 200: messageResult } } }, async (request) =>
      deleteImage(deps, request.params.id),
    );

    api.put(
      '/admin/archive/images/:id/favourite',
      { config: admin, schema: { tags, params: archiveIdParam, body: archiveFavouriteInput, response: { 200: archiveFavouriteResult } } },
      async (request) => setFavourite(deps.db, adminOf(request), request.params.id, request.body.favourite),
    );

    api.post('/admin/archive/images/:id/copy-link', { config: admin, schema: { tags, params: archiveIdParam, response: { 200: archiveCounters } } }, async (request) => {
      const { usageCount, downloadCount, lastAccessedAt } = await countUsage(deps.db, request.params.id);
      return { usageCount, downloadCount, lastAccessedAt };
    });

    api.post(
      '/admin/archive/images/:id/select',
      { config: admin, schema: { tags, params: archiveIdParam, body: archiveSelectInput.optional(), response: { 200: archiveSelectResult } } },
      async (request) => {
        const row = await photoCandidate(deps.db, request.params.id);
        const photoUrl = photoUrlOf(row)!;
        const studentId = request.body?.studentId;
        const message = studentId
          ? (await setStudentPhotoUrl(studentDeps, adminOf(request), studentId, photoUrl, { ip: request.ip })).message
          : ARCHIVE_TEXTS.selected;
        const { usageCount, downloadCount, lastAccessedAt } = await countUsage(deps.db, row.id);
        return { photoUrl, message, usageCount, downloadCount, lastAccessedAt };
      },
    );

    api.post('/admin/archive/images/:id/share', { config: admin, schema: { tags, params: archiveIdParam, response: { 200: archiveShareResult } } }, async (request) =>
      createShareLink(deps.db, request.params.id),
    );

    api.delete('/admin/archive/images/:id/share', { config: admin, schema: { tags, params: archiveIdParam, response: { 200: messageResult } } }, async (request) =>
      revokeShareLink(deps.db, request.params.id),
    );

    // Files: declared public; each answer is decided by the image's access level (decideServe).
    const fileRoute = { access: 'public', rateLimit: FILE_RATE_LIMIT } as const;
    api.get('/archive/files/:key', { config: fileRoute, schema: { tags, params: fileParams } }, (request, reply) => serveFile(request, reply, deps));
    api.get('/archive/files/:key/:variant', { config: fileRoute, schema: { tags, params: fileParams } }, (request, reply) => serveFile(request, reply, deps));
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
      .header('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
      .send(renderSharePage(row));
  });
}
