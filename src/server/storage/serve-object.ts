import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ByteRange, FileStorage } from './file-storage.ts';

/**
 * The one range a Range header asks for ("bytes=0-99", "bytes=100-", "bytes=-500"), 'unsatisfiable'
 * when it lies outside the object, or null to send the whole object (no header, several ranges,
 * or a unit other than bytes: RFC 9110 lets a server ignore those).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

export type ServeOptions = {
  contentType: string;
  /** Known size (from the database) saves asking the storage first. */
  size?: number;
  cacheControl: string;
  /** The object never changes under its key, so its key is its validator. */
  etag?: string;
  /** 'attachment' sends it as a download under this name. */
  disposition?: { type: 'inline' | 'attachment'; fileName: string };
  headers?: Record<string, string>;
};

/** RFC 6266 / 5987: an ASCII fallback name plus the UTF-8 one. */
export function contentDisposition(type: 'inline' | 'attachment', fileName: string): string {
  // One '_' per character (the u flag): an emoji is one character, not its two UTF-16 halves. NFKD reads 'º' as 'o'.
  const ascii = fileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\]/gu, '_');
  // RFC 5987 allows fewer characters than encodeURIComponent leaves as they are: ' ( ) * are encoded too.
  const utf8 = encodeURIComponent(fileName).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

/**
 * Sends a stored object with ranges (video seeking) and conditional requests: true once sent, false when the
 * storage has no such object (the caller answers 404 in its own words). A boolean, not the reply: a reply is a
 * thenable that an async function's caller would await to undefined, taking a sent file for a missing one.
 */
export async function sendStoredObject(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: FileStorage,
  key: string,
  options: ServeOptions,
): Promise<boolean> {
  reply.header('Cache-Control', options.cacheControl).header('Accept-Ranges', 'bytes').header('X-Content-Type-Options', 'nosniff');
  for (const [name, value] of Object.entries(options.headers ?? {})) reply.header(name, value);
  if (options.disposition) reply.header('Content-Disposition', contentDisposition(options.disposition.type, options.disposition.fileName));
  if (options.etag) {
    reply.header('ETag', options.etag);
    if (request.headers['if-none-match'] === options.etag) {
      reply.status(304).send();
      return true;
    }
  }
  let size = options.size;
  const rangeHeader = request.headers.range;
  if (rangeHeader && size === undefined) {
    const stat = await storage.stat(key);
    if (!stat) return false;
    size = stat.size;
  }
  const range = size === undefined ? null : parseRange(rangeHeader, size);
  if (range === 'unsatisfiable') {
    reply.status(416).header('Content-Range', `bytes */${size}`).send();
    return true;
  }
  const object = await storage.read(key, range ?? undefined);
  if (!object) return false;
  reply.type(options.contentType);
  if (range) {
    reply
      .status(206)
      .header('Content-Range', `bytes ${range.start}-${range.end}/${object.size}`)
      .header('Content-Length', range.end - range.start + 1);
  } else {
    reply.header('Content-Length', object.size);
  }
  if (request.method === 'HEAD') {
    object.body.destroy();
    reply.send();
  } else {
    reply.send(object.body);
  }
  return true;
}
