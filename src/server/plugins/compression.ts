import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * On-the-fly compression (Brotli or gzip, as the client accepts) for the answers of the
 * routes registered in `scope` after this call. Hashed assets are not served through it:
 * the build writes their .br and .gz once. The event stream is never compressed: it
 * hijacks its reply (no onSend hook sees it) and text/event-stream is not a compressible
 * type here either, so each event still leaves as soon as it is written. Request bodies
 * are not decompressed, so the body limit keeps counting the bytes that were sent.
 */
export async function registerCompression(scope: FastifyInstance): Promise<void> {
  await scope.register(compress, {
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    globalDecompression: false,
  });
}
