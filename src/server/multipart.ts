import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';

/** busboy refuses a malformed body (no boundary, a body cut short) with errors that carry no code, only these messages. */
const MALFORMED_BODY = [/^Multipart: Boundary not found$/, /^Boundary required$/, /unexpected end of multipart data$/i];
const BAD_REQUEST_CODES = new Set(['FST_PROTO_VIOLATION', 'FST_INVALID_MULTIPART_CONTENT_TYPE', 'FST_FIELDS_LIMIT']);

/**
 * What a failure while reading a multipart request means: a malformed body or a parser limit
 * is the request's fault (400 'Dados inválidos'), never a server error. Anything else (a full
 * disk, a defect) is returned as it came.
 */
export function multipartFailure(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && BAD_REQUEST_CODES.has(code)) return new AppError('bad_request');
  if (code === undefined && error instanceof Error && MALFORMED_BODY.some((pattern) => pattern.test(error.message)))
    return new AppError('bad_request');
  return error;
}

/**
 * The single file of a multipart request, read into memory up to `maxBytes`, with the text fields sent before it
 * (each at most `maxFieldBytes`). Anything bigger is refused with the given code as soon as the limit is crossed.
 */
export async function uploadedForm(
  request: FastifyRequest,
  maxBytes: number,
  tooLarge: 'photo_too_large' | 'import_too_large',
  maxFieldBytes?: number,
): Promise<{ bytes: Buffer; fields: Record<string, string> }> {
  if (!request.isMultipart()) throw new AppError('file_missing');
  try {
    const file = await request.file({
      limits: { fileSize: maxBytes, files: 1, fields: 5, parts: 6, ...(maxFieldBytes === undefined ? {} : { fieldSize: maxFieldBytes }) },
    });
    if (!file) throw new AppError('file_missing');
    const bytes = await file.toBuffer();
    if (bytes.length === 0) throw new AppError('file_empty');
    const fields: Record<string, string> = {};
    for (const [name, field] of Object.entries(file.fields)) {
      // A field cut at the size limit is no value at all.
      if (field && !Array.isArray(field) && field.type === 'field' && typeof field.value === 'string' && !field.valueTruncated)
        fields[name] = field.value;
    }
    return { bytes, fields };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(tooLarge, { status: 413 });
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') throw new AppError('bad_request');
    throw multipartFailure(error);
  }
}

/** The single file of a multipart request (uploadedForm without fields). */
export async function uploadedFile(
  request: FastifyRequest,
  maxBytes: number,
  tooLarge: 'photo_too_large' | 'import_too_large',
): Promise<Buffer> {
  return (await uploadedForm(request, maxBytes, tooLarge)).bytes;
}
