import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { AppError } from '../app-error.ts';
import type { Principal } from '../modules/auth/auth.service.ts';
import { createSessionCache, type SessionCache } from '../modules/auth/session-cache.ts';
import type { EventBus } from '../realtime/event-bus.ts';

/** Who may call a route. Routes under /api/admin default to 'admin', other /api routes to 'signedIn'. */
export type Access = 'public' | 'signedIn' | 'student' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyInstance {
    sessionCache: SessionCache;
  }
  interface FastifyRequest {
    principal: Principal | null;
    sessionToken: string | null;
  }
}

export function sessionCookieName(config: Config): string {
  return config.https ? '__Host-meritus_session' : 'meritus_session';
}

export function setSessionCookie(reply: FastifyReply, config: Config, token: string, expiresAt: Date): void {
  reply.setCookie(sessionCookieName(config), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.https,
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(sessionCookieName(config), { path: '/', httpOnly: true, sameSite: 'lax', secure: config.https });
}

function accessFor(request: FastifyRequest): Access {
  const declared = request.routeOptions.config?.access;
  if (declared) return declared;
  return request.url.startsWith('/api/admin') ? 'admin' : 'signedIn';
}

/** The student behind a student-only route; the guard has already checked the role. */
export function studentOf(request: FastifyRequest): Extract<Principal, { role: 'student' }> {
  if (request.principal?.role !== 'student') throw new AppError('forbidden');
  return request.principal;
}

export function adminOf(request: FastifyRequest): Extract<Principal, { role: 'admin' }> {
  if (request.principal?.role !== 'admin') throw new AppError('forbidden');
  return request.principal;
}

/**
 * Resolves the session cookie on every /api request and enforces each route's access
 * level in one place, so no route can forget its guard.
 */
export async function registerAuth(app: FastifyInstance, config: Config, database: Database, events: EventBus): Promise<void> {
  await app.register(cookie);
  const sessionCache = createSessionCache(database.db, config.sessionCacheMs);
  const unsubscribe = events.subscribe((event) => {
    if (event.type === 'sessions_ended') sessionCache.forget(event);
  });
  app.addHook('onClose', async () => unsubscribe());
  app.decorate('sessionCache', sessionCache);
  app.decorateRequest('principal', null);
  app.decorateRequest('sessionToken', null);

  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const access = accessFor(request);
    if (access === 'public') return;
    const token = request.cookies[sessionCookieName(config)];
    const principal = token ? await sessionCache.resolve(token) : null;
    if (!principal) throw new AppError('unauthenticated');
    request.principal = principal;
    request.sessionToken = token ?? null;
    if (access !== 'signedIn' && principal.role !== access) throw new AppError('forbidden');
  });
}
