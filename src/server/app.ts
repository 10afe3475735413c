import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { AppError } from './app-error.ts';
import { registerSecurity } from './plugins/security.ts';
import { registerAuth } from './plugins/auth.ts';
import { issueCode } from '../shared/validation.ts';
import { ERROR_MESSAGES, type ApiErrorBody, type ErrorCode } from '../shared/errors.ts';
import { createEventBus, type EventBus } from './realtime/event-bus.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { eventsRoutes } from './realtime/events.routes.ts';
import { ledgerRoutes } from './modules/ledger/ledger.routes.ts';
import { studentsRoutes } from './modules/students/students.routes.ts';
import { tagsRoutes } from './modules/tags/tags.routes.ts';
import { adminStudentsRoutes } from './modules/students/admin-students.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { reasonPresetsRoutes } from './modules/reason-presets/reason-presets.routes.ts';
import { studentAreaRoutes } from './modules/students/student-area.routes.ts';

/** What every module's routes receive. */
export type AppDeps = { config: Config; database: Database; events: EventBus };

function errorBody(code: ErrorCode, fields?: Record<string, string>): ApiErrorBody {
  return { error: { code, message: ERROR_MESSAGES[code], ...(fields ? { fields } : {}) } };
}

/** Builds the whole application without listening; tests drive it with app.inject. */
export async function buildApp(config: Config, database: Database): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, redact: ['req.headers.cookie', 'req.headers.authorization'] },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send(errorBody(error.code));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '') || 'body';
        fields[field] ??= ERROR_MESSAGES[issueCode(issue)];
      }
      const first = error.validation[0];
      return reply.status(400).send(errorBody(first ? issueCode(first) : 'validation', fields));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
      return reply.status(500).send(errorBody('internal'));
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.status(429).send(errorBody('rate_limited'));
    if (status >= 400 && status < 500) return reply.status(status).send(errorBody('bad_request'));
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send(errorBody('internal'));
  });

  const events = await createEventBus(database, app.log);
  app.addHook('onClose', async () => events.close());
  const deps: AppDeps = { config, database, events };

  await registerSecurity(app, config);
  await registerAuth(app, config, database, events);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Méritus API', version: '1.0.0', description: 'API do portal Méritus' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'meritus_session' } } },
    },
    transform: jsonSchemaTransform,
  });

  await app.register(
    async (api) => {
      await authRoutes(api, deps);
      await systemRoutes(api, deps);
      await eventsRoutes(api, deps);
      await ledgerRoutes(api, deps);
      await studentsRoutes(api, deps);
      await tagsRoutes(api, deps);
      await adminStudentsRoutes(api, deps);
      await dashboardRoutes(api, deps);
      await reasonPresetsRoutes(api, deps);
      await studentAreaRoutes(api, deps);
    },
    { prefix: '/api' },
  );

  fs.mkdirSync(config.uploadsDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: config.uploadsDir,
    prefix: '/uploads/',
    decorateReply: false,
    maxAge: '365d',
    immutable: true,
  });
  await registerWeb(app, config);

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/')) {
      return reply.status(request.principal ? 404 : 401).send(errorBody(request.principal ? 'not_found' : 'unauthenticated'));
    }
    return reply.status(404).send(errorBody('not_found'));
  });

  return app;
}

/**
 * Serves the built front end with a fallback to index.html for client routes. The
 * demo flag is written into the page so the login screen knows whether to show the
 * demonstration credentials without an extra anonymous API call.
 */
async function registerWeb(app: FastifyInstance, config: Config): Promise<void> {
  const dist = config.webDist;
  const indexPath = dist ? path.join(dist, 'index.html') : undefined;
  if (!dist || !indexPath || !fs.existsSync(indexPath)) return;
  const index = fs
    .readFileSync(indexPath, 'utf8')
    .replace('<meta name="meritus-demo" content="off"', `<meta name="meritus-demo" content="${config.demo ? 'on' : 'off'}"`);

  await app.register(fastifyStatic, {
    root: dist,
    prefix: '/',
    index: false,
    wildcard: false,
    setHeaders: (reply, filePath) => {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) reply.header('Cache-Control', 'public, max-age=31536000, immutable');
    },
  });
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    if (request.url.startsWith('/api/') || request.url.startsWith('/uploads/')) {
      return reply.callNotFound();
    }
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(index);
  });
}
