import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { adminLoginInput, sessionUser, studentLoginInput } from '../../../shared/auth.ts';
import { clearSessionCookie, principalOf, sessionOf, setSessionCookie } from '../../plugins/auth.ts';
import { currentUser, hashToken, loginAdmin, loginStudent, logout, type RequestContext } from './auth.service.ts';

export function requestContext(request: FastifyRequest): RequestContext {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

export async function authRoutes(app: FastifyInstance, { config, database, events }: AppDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];

  api.post(
    '/auth/student/login',
    { config: { access: 'public' }, schema: { tags, body: studentLoginInput, response: { 200: sessionUser } } },
    async (request, reply) => {
      const result = await loginStudent(database.db, request.body, requestContext(request));
      setSessionCookie(reply, config, result.token, result.expiresAt);
      return result.user;
    },
  );

  api.post(
    '/auth/admin/login',
    { config: { access: 'public' }, schema: { tags, body: adminLoginInput, response: { 200: sessionUser } } },
    async (request, reply) => {
      const result = await loginAdmin(database.db, request.body, requestContext(request));
      setSessionCookie(reply, config, result.token, result.expiresAt);
      return result.user;
    },
  );

  api.post('/auth/logout', { config: { access: 'signedIn' }, schema: { tags, response: { 204: z.null() } } }, async (request, reply) => {
    const { principal, token } = sessionOf(request);
    await logout(database.db, events, token, principal, requestContext(request));
    // Other instances forget the session when the event arrives; this one at once.
    app.sessionCache.forget({ type: 'sessions_ended', tokenHash: hashToken(token) });
    clearSessionCookie(reply, config);
    return reply.status(204).send(null);
  });

  api.get('/auth/me', { config: { access: 'signedIn' }, schema: { tags, response: { 200: sessionUser } } }, async (request) =>
    currentUser(database.db, principalOf(request)),
  );
}
