import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { Config } from '../config.ts';
import { AppError } from '../app-error.ts';
import { isApiRoute } from './auth.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function isAllowedOrigin(request: FastifyRequest, origin: string, allowed: string[]): boolean {
  if (allowed.includes(origin)) return true;
  const host = request.headers.host;
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
}

/** Security headers, CSRF defence for state-changing requests, and the API request limits (per user, or per address without a session). */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  // Built once: @fastify/helmet rebuilt every header (parsing the CSP) on each request.
  const setSecurityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        ...(config.https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: config.https || config.env === 'production' ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) =>
    setSecurityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)),
  );

  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || request.routeOptions.config.crossSite) return;
    const origin = request.headers.origin;
    if (origin !== undefined) {
      if (!isAllowedOrigin(request, origin, config.allowedOrigins)) throw new AppError('csrf');
    } else if (request.headers['sec-fetch-site'] === 'cross-site') {
      throw new AppError('csrf');
    }
  });

  const limits = config.apiRateLimit;
  if (limits) {
    // The session is resolved by a root hook before this per-route one, so a signed-in
    // user spends their own budget wherever they are; only requests without one share
    // their address's (IPv6 by /64, as the library does when it keys by address).
    await app.register(rateLimit, {
      timeWindow: limits.windowMs,
      keyGenerator: (request) => (request.principal ? `user:${request.principal.role}:${request.principal.id}` : normalizeIP(request.ip)),
      max: (request) => (request.principal ? limits.signedIn : limits.anonymous),
      allowList: (request) => !isApiRoute(request),
      // The library has already set Retry-After.
      errorResponseBuilder: () => new AppError('rate_limited'),
    });
  }
}
