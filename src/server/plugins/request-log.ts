import { randomFillSync } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { REQUEST_ID_HEADER } from '../../shared/request-id.ts';

/** Crockford's base32: no I, L, O or U, so an id read out over the phone is not misheard. */
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A proxy's id is kept only if it is short and plain: it lands in logs and in a response header. */
const SANE_INCOMING_ID = /^[A-Za-z0-9._-]{4,64}$/;

/** Random bytes drawn 4 KB at a time: one call into the system's generator per 819 ids, not one per request (bench:bank's profile). */
const randomPool = Buffer.alloc(5 * 819);
let randomOffset = randomPool.length;

/** Eight base32 characters (40 random bits): unique enough among a day's requests, short enough to read out. */
export function newRequestId(): string {
  if (randomOffset === randomPool.length) {
    randomFillSync(randomPool);
    randomOffset = 0;
  }
  let value = randomPool.readUIntBE(randomOffset, 5);
  randomOffset += 5;
  let id = '';
  for (let i = 0; i < 8; i++) {
    id = BASE32[value % 32]! + id;
    value = Math.floor(value / 32);
  }
  return id;
}

/** Fastify's genReqId: the trusted proxy's id when it has a sane shape (one id across proxy and server logs), else a new one. */
export function requestIdGenerator(config: Pick<Config, 'trustProxy'>): (request: IncomingMessage) => string {
  return (request) => {
    const incoming = request.headers[REQUEST_ID_HEADER.toLowerCase()];
    if (config.trustProxy && typeof incoming === 'string' && SANE_INCOMING_ID.test(incoming)) return incoming;
    return newRequestId();
  };
}

/**
 * The one log line of a request: its id (bound by Fastify as reqId), the route pattern
 * (never the URL, whose query may hold a name), the status, the time taken and who asked
 * by role and id only: no name, email, cookie or token ever reaches the logs from here.
 */
export function logRequest(request: FastifyRequest, reply: FastifyReply, status: number): void {
  const principal = request.principal;
  const line = {
    method: request.method,
    route: request.routeOptions.url ?? null,
    status,
    ms: Math.round(reply.elapsedTime * 10) / 10,
    role: principal?.role ?? null,
    actor: principal?.id ?? null,
  };
  if (status >= 500) request.log.error(line, 'requisição');
  else request.log.info(line, 'requisição');
}

/**
 * Gives every answer its request id and logs each request once, when it is answered (the
 * event stream logs itself when it ends: its reply is hijacked). Registered before the
 * other hooks, so a request they refuse still carries its id.
 */
export async function registerRequestLog(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', async (request, reply) => {
    // On the raw response, so a hijacked reply (the event stream) sends it too.
    reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    logRequest(request, reply, reply.statusCode);
  });
}
