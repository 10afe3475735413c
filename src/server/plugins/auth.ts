import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import cookie from '@fastify/cookie';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { AppError } from '../app-error.ts';
import type { AdminActor, GuardianActor, Principal, StudentActor } from '../modules/auth/actor.ts';
import { createSessionCache, type SessionCache } from '../modules/auth/session-cache.ts';
import { endedByPasswordReset, passwordChangeDue, type PasswordRules, type RequestContext } from '../modules/auth/auth.service.ts';
import { isSessionsEnded, type EventBus } from '../realtime/event-bus.ts';
import type { SettingsStore } from '../modules/settings/settings.service.ts';
import { ACCESS_LEVELS, type Access } from '../../shared/contract/route.ts';
import { routes } from '../../shared/contract/routes.ts';
import { hasPermission, type PermissionRules } from '../../shared/permissions.ts';

/** A registered route as the guard knows it (the authorization tests walk this table). */
export type DeclaredRoute = { method: string; url: string; options: RouteOptions };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (declared on every route; an API route's comes from its definition in the contract). */
    access?: Access;
    /**
     * A write other sites may send (a mail reader's one-click opt-out, RFC 8058): exempt from the CSRF check. Only for a
     * public route that reads no session and carries its own proof (a signature in its address).
     */
    crossSite?: true;
  }
  interface FastifyInstance {
    sessionCache: SessionCache;
    /** Every route registered, in order, HEAD twins included. */
    declaredRoutes: DeclaredRoute[];
  }
  interface FastifyRequest {
    principal: Principal | null;
    sessionToken: string | null;
    /** The request's session cookie names a session a reset of the student's password ended (its 401 says so). */
    sessionEndedByReset: boolean;
  }
}

/** Session tokens are 32 random bytes in base64url; anything else is not looked up. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

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

/** Who sent a request, as the sign-in limits and the audit record it. */
export function requestContext(request: FastifyRequest): RequestContext {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

/** The student behind a student-only route; the guard has already checked the role. */
export function studentOf(request: FastifyRequest): StudentActor {
  if (request.principal?.role !== 'student') throw new AppError('forbidden');
  return request.principal;
}

/** The guardian behind a family route; the guard has already checked the role. */
export function guardianOf(request: FastifyRequest): GuardianActor {
  if (request.principal?.role !== 'guardian') throw new AppError('forbidden');
  return request.principal;
}

export function adminOf(request: FastifyRequest): AdminActor {
  if (request.principal?.role !== 'admin') throw new AppError('forbidden');
  return request.principal;
}

/** Whoever is signed in on a route declared 'signedIn' or narrower. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('unauthenticated');
  return request.principal;
}

/** The signed-in principal with the session token that proved it. */
export function sessionOf(request: FastifyRequest): { principal: Principal; token: string } {
  if (!request.principal || !request.sessionToken) throw new AppError('unauthenticated');
  return { principal: request.principal, token: request.sessionToken };
}

/** Whether the route a request reached is part of the API (its registered pattern, never the raw URL). */
export function isApiRoute(request: FastifyRequest): boolean {
  return request.routeOptions.url?.startsWith('/api/') ?? false;
}

/**
 * Refuses a request unless its route's declared access admits the principal: a staff route, by the permission the
 * member's role has under the school's rules (read through the settings cache). Judged from
 * the route the router matched, so no spelling of a path (percent-encoding, doubled or
 * trailing slashes) can reach a route without its guard; a route with no declaration is
 * refused here and stops the start-up in `checkDeclarations`.
 */
/**
 * What a student who must choose their own password (passwordChangeDue) may still call: who they are, the settings every
 * screen formats with, the live stream, signing out and the change itself.
 */
const OPEN_BEFORE_PASSWORD_CHANGE: ReadonlySet<string> = new Set(
  [routes.auth.me, routes.auth.logout, routes.auth.changePassword, routes.settings.read, routes.events.stream].map((r) => r.path),
);

function guardWith(rules: () => Promise<PermissionRules & PasswordRules>) {
  return async function guard(request: FastifyRequest): Promise<void> {
    const access = request.routeOptions.config.access;
    if (access === 'public') return;
    if (!access) throw new AppError('forbidden');
    const { principal } = request;
    if (!principal) throw new AppError(request.sessionEndedByReset ? 'session_password_reset' : 'unauthenticated');
    if (
      principal.role === 'student' &&
      principal.temporaryPassword &&
      !OPEN_BEFORE_PASSWORD_CHANGE.has(request.routeOptions.url ?? '') &&
      passwordChangeDue(true, await rules())
    )
      throw new AppError('password_change_required');
    if (access === 'signedIn') return;
    if (access === 'student') {
      if (principal.role !== 'student') throw new AppError('forbidden');
      return;
    }
    if (access === 'guardian') {
      if (principal.role !== 'guardian') throw new AppError('forbidden');
      return;
    }
    if (principal.role !== 'admin' || !hasPermission(principal.staffRole, await rules(), access)) throw new AppError('forbidden');
  };
}

function checkDeclarations(routes: DeclaredRoute[]): void {
  const undeclared = routes.filter(({ options }) => !ACCESS_LEVELS.includes(options.config?.access as Access));
  if (undeclared.length > 0) {
    const list = undeclared.map(({ method, url }) => `${method} ${url}`).join(', ');
    throw new Error(`Rotas sem declaração de acesso (config.access): ${list}`);
  }
}

/**
 * Resolves the session cookie on API routes and enforces each route's declared access in
 * one place. Must be registered before any route, and after the rate limiter, whose
 * per-route hook then runs between the session lookup (it keys signed-in users by
 * account) and the guard.
 */
export async function registerAuth(
  app: FastifyInstance,
  config: Config,
  database: Database,
  events: EventBus,
  settings: SettingsStore,
): Promise<void> {
  const guard = guardWith(async () => (await settings.get()).rules);
  await app.register(cookie);
  const sessionCache = createSessionCache(database.db, config.sessionCacheMs);
  const unsubscribe = events.subscribe((event) => {
    if (isSessionsEnded(event)) sessionCache.forget(event);
    if (event.type === 'resync') sessionCache.forgetAll();
  });
  app.addHook('onClose', async () => unsubscribe());
  app.decorate('sessionCache', sessionCache);
  app.decorate('declaredRoutes', [] as DeclaredRoute[]);
  app.decorateRequest('principal', null);
  app.decorateRequest('sessionToken', null);
  app.decorateRequest('sessionEndedByReset', false);

  app.addHook('onRoute', (options) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    for (const method of methods) app.declaredRoutes.push({ method, url: options.url, options });
    const onRequest = options.onRequest ?? [];
    options.onRequest = [...(Array.isArray(onRequest) ? onRequest : [onRequest]), guard];
  });
  // Scopes may declare access for routes a plugin registers (static files), so the check waits until every route exists.
  app.addHook('onReady', async () => checkDeclarations(app.declaredRoutes));

  app.addHook('onRequest', async (request) => {
    if (!isApiRoute(request)) return;
    const token = request.cookies[sessionCookieName(config)];
    if (!token || !TOKEN_SHAPE.test(token)) return;
    const principal = await sessionCache.resolve(token);
    if (!principal) {
      request.sessionEndedByReset = await endedByPasswordReset(database.db, token);
      return;
    }
    request.principal = principal;
    request.sessionToken = token;
  });
}
