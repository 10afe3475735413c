import type { FastifyReply } from 'fastify';
import { contentDisposition } from './storage/serve-object.ts';

/** Sends a generated file (a report, a certificate) as a download that no cache keeps. */
export function sendFile(reply: FastifyReply, file: { fileName: string; contentType: string; body: Buffer | string }) {
  return reply
    .type(file.contentType)
    .header('Content-Disposition', contentDisposition('attachment', file.fileName))
    .header('Cache-Control', 'no-store')
    .send(file.body);
}
