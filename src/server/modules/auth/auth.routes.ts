import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { AppError } from '../../app-error.ts';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { urlOf } from '../../../shared/contract/route.ts';
import { signInRefusedPath, type SignInProvider } from '../../../shared/school-accounts.ts';
import { clearSessionCookie, principalOf, requestContext, sessionOf, setSessionCookie, studentOf } from '../../plugins/auth.ts';
import { changeOwnPassword, currentUser, hashToken, loginAdmin, loginStudent, logout } from './auth.service.ts';
import { finishSignIn, startSignIn, type SignInRefused } from './school-accounts.service.ts';

export async function authRoutes(app: FastifyInstance, { config, database, events, settings }: AppDeps): Promise<void> {
  route(app, routes.auth.studentLogin, async (request, reply) => {
    const result = await loginStudent(database.db, request.body, (await settings.get()).rules, requestContext(request));
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

  route(app, routes.auth.changePassword, async (request) => {
    const { token } = sessionOf(request);
    const result = await changeOwnPassword(database.db, events, studentOf(request), token, request.body, requestContext(request));
    // This instance reads the session again (no longer temporary); others within their cache's few seconds.
    app.sessionCache.forget({ type: 'sessions_ended', tokenHash: hashToken(token) });
    return result;
  });

  // Sign-in with the school's accounts: the browser leaves for the provider and comes back to the callback (decision 024).
  const providerOf = (provider: SignInProvider) => {
    const configured = config.signInProviders[provider];
    if (!configured) throw new AppError('not_found');
    return configured;
  };
  const refused = (request: FastifyRequest, reply: FastifyReply, refusal: SignInRefused) => {
    // A provider out of reach is the operator's to look at; the other refusals are people's, and in the audit log.
    const level = refusal.reason === 'provider_unreachable' ? 'warn' : 'info';
    request.log[level]({ reason: refusal.reason, detail: refusal.detail }, 'sign-in with a school account refused');
    return reply.redirect(signInRefusedPath(refusal.refused));
  };

  route(app, routes.auth.oidcStart, async (request, reply) => {
    const { provider } = request.params;
    const started = await startSignIn(database.db, provider, providerOf(provider));
    if ('refused' in started) return refused(request, reply, started);
    const cookie = stateCookie(config, provider);
    reply.setCookie(cookie.name, started.state, { ...cookie.options, expires: started.expiresAt });
    return reply.redirect(started.location);
  });

  route(app, routes.auth.oidcCallback, async (request, reply) => {
    const { provider } = request.params;
    const configured = providerOf(provider);
    const cookie = stateCookie(config, provider);
    reply.clearCookie(cookie.name, cookie.options);
    const finished = await finishSignIn(
      database.db,
      provider,
      configured,
      // The address the provider redirected to, as openid-client reads it: the registered redirect URI with this query.
      { url: new URL(request.url, configured.redirectUri), browserState: request.cookies[cookie.name] },
      requestContext(request),
    );
    if ('refused' in finished) return refused(request, reply, finished);
    setSessionCookie(reply, config, finished.token, finished.expiresAt);
    return reply.redirect(`/${finished.area}`);
  });
}

/**
 * The cookie that holds a sign-in's state while the browser is at the provider, sent back to that provider's callback
 * only. Lax: the provider sends the browser back with a top-level GET from its own site, which carries a Lax cookie.
 */
function stateCookie(config: Config, provider: SignInProvider) {
  return {
    name: config.https ? '__Secure-meritus_oidc_state' : 'meritus_oidc_state',
    options: {
      path: urlOf(routes.auth.oidcCallback, { params: { provider } }),
      httpOnly: true,
      sameSite: 'lax',
      secure: config.https,
    } as const,
  };
}
