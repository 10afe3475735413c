import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { clearSessionCookie, principalOf, sessionOf, setSessionCookie } from '../../plugins/auth.ts';
import { currentUser, hashToken, loginAdmin, loginStudent, logout, type RequestContext } from './auth.service.ts';

export function requestContext(request: FastifyRequest): RequestContext {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

export async function authRoutes(app: FastifyInstance, { config, database, events, settings }: AppDeps): Promise<void> {
  route(app, routes.auth.studentLogin, async (request, reply) => {
    const result = await loginStudent(database.db, request.body, requestContext(request));
    setSessionCookie(reply, config, result.token, result.expiresAt);
    return result.user;
  });

  route(app, routes.auth.adminLogin, async (request, reply) => {
    const result = await loginAdmin(database.db, request.body, (await settings.get()).rules, requestContext(request));
    setSessionCookie(reply, config, result.token, result.expiresAt);
    return result.user;
  });

  route(app, routes.auth.logout, async (request, reply) => {
    const { principal, token } = sessionOf(request);
    await logout(database.db, events, token, principal, requestContext(request));
    // Other instances forget the session when the event arrives; this one at once.
    app.sessionCache.forget({ type: 'sessions_ended', tokenHash: hashToken(token) });
    clearSessionCookie(reply, config);
    return reply.status(204).send(null);
  });

  route(app, routes.auth.me, async (request) => currentUser(database.db, principalOf(request), (await settings.get()).rules));
}
