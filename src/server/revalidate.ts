import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/*
 * Reads every screen repeats (a route of the contract with `revalidate`, decision 018) answer with a weak ETag of their
 * content, and 304 without a body when the client already holds that answer. The tag is the content's hash, so it does
 * not depend on who asks or which instance answers: a 304 only ever confirms what the asker already has. The answer is
 * still computed (from memory, for the ranking); what an unchanged one saves is its bytes and the client's work.
 */

/** The weak ETag of an answer: equal answers have equal tags. */
export function weakEtagOf(answer: unknown): string {
  return `W/"${createHash('sha1').update(JSON.stringify(answer)).digest('base64url')}"`;
}

/** Whether an If-None-Match header names the tag (the weak comparison: a W/ prefix aside), or is `*`. */
export function ifNoneMatchNames(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === opaque;
  });
}

/**
 * Sends the answer with its ETag, or a bare 304 when the request's If-None-Match names it. `private, no-cache`: a browser
 * may keep it but asks again every time, and no shared cache keeps one user's answer for another.
 */
export function sendRevalidated(request: FastifyRequest, reply: FastifyReply, answer: unknown): FastifyReply | unknown {
  const etag = weakEtagOf(answer);
  reply.header('ETag', etag).header('Cache-Control', 'private, no-cache');
  if (ifNoneMatchNames(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return answer;
}
