import fs from 'node:fs';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
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
import { AppError, isDiskFull, serviceUnavailable } from './app-error.ts';
import { isConnectionFailure, sqlState } from './db/sql-state.ts';
import { registerSecurity } from './plugins/security.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { registerCompression } from './plugins/compression.ts';
import { registerRequestLog, requestIdGenerator } from './plugins/request-log.ts';
import { issueCode, issueFields } from '../shared/validation.ts';
import { ERROR_MESSAGES, type ApiErrorBody, type ErrorCode } from '../shared/errors.ts';
import { AREAS, areaOfPath } from '../shared/areas.ts';
import { firstReadsOf } from '../shared/first-reads.ts';
import { BUILD_HEADER, BUILD_META, FIRST_ANSWERS_ID } from '../shared/constants.ts';
import { RETIRED_ASSETS_FILE, webBuildOf } from './web-assets.ts';
import { createEventBus } from './realtime/event-bus.ts';
import { createLiveHub } from './realtime/live-hub.ts';
import { createRankingStore, hearingOwnChanges } from './modules/students/ranking-store.ts';
import { createEarnedBoards } from './modules/reports/earned-boards.ts';
import { rankingPrivacyOf } from './views/student-privacy.ts';
import type { AppDeps } from './deps.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { systemAdminRoutes } from './modules/system/system-admin.routes.ts';
import { eventsRoutes } from './realtime/events.routes.ts';
import { ledgerRoutes } from './modules/ledger/ledger.routes.ts';
import { studentsRoutes } from './modules/students/students.routes.ts';
import { tagsRoutes } from './modules/tags/tags.routes.ts';
import { adminStudentsRoutes } from './modules/students/admin-students.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { reasonPresetsRoutes } from './modules/reason-presets/reason-presets.routes.ts';
import { studentAreaRoutes } from './modules/students/student-area.routes.ts';
import { archiveRoutes, sharePageRoutes } from './modules/archive/archive.routes.ts';
import { createFileStorage } from './storage/storage.ts';
import { keyOfAddress, type FileStorage } from './storage/file-storage.ts';
import { sendStoredObject } from './storage/serve-object.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { pickListRoutes } from './modules/store/pick-list.routes.ts';
import { createSettingsStore } from './modules/settings/settings.service.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { expireGoals } from './modules/store/store-goals.service.ts';
import { staffRoutes } from './modules/staff/staff.routes.ts';
import { storeRoutes } from './modules/store/store.routes.ts';
import { schoolYearRoutes } from './modules/school-year/school-year.routes.ts';
import { lgpdRoutes } from './modules/lgpd/lgpd.routes.ts';
import { hallOfFameRoutes } from './modules/hall-of-fame/hall-of-fame.routes.ts';
import { familiesRoutes } from './modules/families/families.routes.ts';
import { mailRoutes } from './modules/mail/mail.routes.ts';
import { createMailer } from './modules/mail/mailer.ts';
import { sendDueMail } from './modules/mail/outbox.service.ts';
import { queueWeeklySummaries } from './modules/mail/weekly-summary.service.ts';
import { guardStudentPhotos } from './modules/lgpd/photo-access.ts';
import { sweepRetention } from './modules/lgpd/retention.service.ts';
import { refuseOrdersOfRemovedStudent } from './modules/store/store.service.ts';
import { API_PREFIX, checkContract, loadRouteSchemas } from './contract-routes.ts';

/** The request body limit; a bigger body is refused with 413 and a message naming it. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

function errorBody(
  code: ErrorCode,
  extra: { fields?: Record<string, string>; message?: string; details?: Record<string, unknown> } = {},
): ApiErrorBody {
  const { fields, message, details } = extra;
  return { error: { code, message: message ?? ERROR_MESSAGES[code], ...(fields ? { fields } : {}), ...(details ? { details } : {}) } };
}

/**
 * PostgreSQL data errors a request can provoke with values its schema let through (text
 * the database cannot store, a date out of its range): the request is bad, not the server.
 */
const BAD_INPUT_SQLSTATES = new Set(['22P05', '22021', '22008', '22007', '22P02', '22003', '54000']);

/** A path as the router would read it: decoded, slashes collapsed, lower case (for deciding what it is, never for access). */
function normalisedPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Left as sent: a malformed escape cannot spell a route.
  }
  return decoded.replace(/\/+/g, '/').toLowerCase();
}

/** Builds the whole application without listening; tests drive it with app.inject (and may read its log lines from `logStream`). */
export async function buildApp(
  config: Config,
  database: Database,
  options: { logStream?: { write(line: string): void }; storage?: FileStorage } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.cookie', 'req.headers.authorization'],
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    // One line per request, written by the request log when it is answered, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIdGenerator(config),
    requestIdHeader: false,
    // A request that arrives on an open connection while the server stops is still answered (with Connection: close), never Fastify's English 503.
    return503OnClosing: false,
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    // One route, however its path is spelled: `//`, a trailing slash and percent-encoding reach the same route and its guard.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    // A path the router cannot read (bad percent-encoding, a parameter over its length) is refused in our shape, never Fastify's English one.
    frameworkErrors: (error, request, reply) => {
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      void (reply as FastifyReply)
        .status(status)
        .header('Cache-Control', 'no-store')
        .header('X-Request-Id', request.id)
        .send(errorBody(status === 414 ? 'not_found' : 'bad_request'));
    },
    // A request Node's own parser refuses (raw bytes beyond ASCII in the path, a control character in a header) gets our
    // shape in pt-BR too, never Fastify's English 'Client Error'. A reset connection has no one left to answer.
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      if (socket.writable) {
        const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
        const body = JSON.stringify(errorBody('bad_request'));
        socket.write(
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
            `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy(error);
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler((thrown: FastifyError, request, reply) => {
    // The database out of reach (stopped, restarting) is no fault of the request nor a defect: 503 and a time to retry.
    const unavailable = !(thrown instanceof AppError) && isConnectionFailure(thrown);
    if (unavailable) request.log.warn({ err: thrown }, 'database unavailable');
    const error = unavailable ? serviceUnavailable() : thrown;
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
      const { message, details, fields } = error;
      return reply
        .status(error.status)
        .send(errorBody(error.code, { message, ...(details ? { details } : {}), ...(fields ? { fields } : {}) }));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = issueFields(
        error.validation.map((issue) => ({ path: issue.instancePath.split('/').slice(1), message: issue.message })),
      );
      const first = error.validation[0];
      return reply.status(400).send(errorBody(first ? issueCode(first) : 'validation', { fields }));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
      return reply.status(500).send(errorBody('internal'));
    }
    const status = error.statusCode ?? 500;
    if (status === 413) return reply.status(413).send(errorBody('body_too_large'));
    if (status === 429) return reply.status(429).send(errorBody('rate_limited'));
    if (status === 415) return reply.status(415).send(errorBody('unsupported_media_type'));
    const state = sqlState(error);
    if (state && BAD_INPUT_SQLSTATES.has(state)) {
      request.log.warn({ err: error }, 'input refused by the database');
      return reply.status(400).send(errorBody('validation'));
    }
    if (status >= 400 && status < 500) return reply.status(status).send(errorBody('bad_request'));
    if (isDiskFull(error)) {
      request.log.error({ err: error }, 'disk full: a file of the request was not written');
      return reply.status(507).send(errorBody('storage_full'));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send(errorBody('internal'));
  });

  const bus = await createEventBus(database, app.log);
  const ranking = createRankingStore(database.db, bus);
  // The settings store only listens (its cache), so it can be made on the bus, before the boards that read it.
  const settings = createSettingsStore(database.db, bus);
  const earned = createEarnedBoards(database.db, bus, settings);
  const events = hearingOwnChanges(bus, {
    hear(event) {
      ranking.hear(event);
      earned.hear(event);
    },
  });
  const live = createLiveHub(database, events, ranking, app.log, config.liveTickMs, async () =>
    rankingPrivacyOf((await settings.get()).rules),
  );
  app.decorate('liveHub', live);
  app.addHook('onClose', async () => {
    live.close();
    ranking.close();
    earned.close();
    await bus.close();
  });
  // One storage for every module's files (photos, the logo, the archive); tests may pass one (a failing driver, an S3 bucket).
  const storage = options.storage ?? createFileStorage(config);
  const deps: AppDeps = {
    config,
    database,
    events,
    live,
    settings,
    storage,
    ranking,
    earned,
    beforeStudentRemoval: refuseOrdersOfRemovedStudent,
  };
  app.decorate('expireStoreGoals', (now?: Date) => expireGoals({ db: database.db, events, settings: deps.settings }, now));
  app.decorate('sweepRetention', (now?: Date) =>
    sweepRetention({ db: database.db, events, storage, beforeRemoval: refuseOrdersOfRemovedStudent }, now),
  );
  // Email (decision 038): without SMTP_URL, nothing is queued and nothing sent.
  const smtp = config.smtp;
  const mailer = smtp ? createMailer(smtp) : null;
  app.decorate('sendOutbox', async (now?: Date) => (mailer ? sendDueMail({ db: database.db, mailer }, now) : { sent: 0, failed: 0 }));
  app.decorate('queueWeeklySummaries', async (now?: Date) =>
    smtp ? queueWeeklySummaries({ db: database.db, settings, ranking, publicUrl: smtp.publicUrl }, now) : 0,
  );
  if (mailer) app.addHook('onClose', async () => mailer.close());

  // The front end's build, named on every answer: a page of an earlier build reloads to it (web/lib/build-version.ts).
  const indexPath = config.webDist ? path.join(config.webDist, 'index.html') : undefined;
  const build = indexPath && fs.existsSync(indexPath) ? webBuildOf(fs.readFileSync(indexPath, 'utf8')) : undefined;
  if (build) {
    app.addHook('onSend', async (_request, reply) => {
      reply.header(BUILD_HEADER, build);
    });
  }

  await registerRequestLog(app);
  await registerSecurity(app, config);
  await registerAuth(app, config, database, events, deps.settings);
  await registerMetrics(app, deps);
  // Personal data never lands in a browser's or a proxy's cache: an answer is cached only where its route says so (static files).
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Méritus API', version: '1.0.0', description: 'API do portal Méritus' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'meritus_session' } } },
    },
    transform: jsonSchemaTransform,
  });

  // Every API route is registered from its definition in src/shared/contract (decision 016), and only from there.
  await loadRouteSchemas();
  app.addHook('onReady', async () => checkContract(app.declaredRoutes));
  await app.register(
    async (api) => {
      await registerCompression(api);
      await authRoutes(api, deps);
      await systemRoutes(api, deps);
      await systemAdminRoutes(api, deps);
      await eventsRoutes(api, deps);
      await ledgerRoutes(api, deps);
      await studentsRoutes(api, deps);
      await tagsRoutes(api, deps);
      await adminStudentsRoutes(api, deps);
      await dashboardRoutes(api, deps);
      await reasonPresetsRoutes(api, deps);
      await studentAreaRoutes(api, deps);
      await archiveRoutes(api, deps);
      await reportsRoutes(api, deps);
      await pickListRoutes(api, deps);
      await settingsRoutes(api, deps);
      await staffRoutes(api, deps);
      await storeRoutes(api, deps);
      await schoolYearRoutes(api, deps);
      await lgpdRoutes(api, deps);
      await hallOfFameRoutes(api, deps);
      await familiesRoutes(api, deps);
      await mailRoutes(api, deps);
    },
    { prefix: API_PREFIX },
  );

  // Files anyone may fetch: uploaded photos under unguessable names, and the built front end.
  await app.register(async (files) => {
    files.addHook('onRoute', (options) => {
      options.config = { ...options.config, access: 'public' };
    });
    guardStudentPhotos(files, config, database.db);
    if (storage.driver === 's3') await serveUploadsFromBucket(files, storage);
    else {
      fs.mkdirSync(config.uploadsDir, { recursive: true });
      await files.register(fastifyStatic, {
        root: config.uploadsDir,
        prefix: '/uploads/',
        // The image archive's files are served by their routes, which check each image's access level.
        allowedPath: (pathName) => !pathName.startsWith('/archive/'),
        decorateReply: false,
        maxAge: '365d',
        immutable: true,
      });
    }
    await sharePageRoutes(files, deps);
    if (build) await registerWeb(files, config, build);
  });

  app.setNotFoundHandler((request, reply) => reply.status(404).send(errorBody('not_found')));

  return app;
}

/**
 * With object storage, the photos and the logo (WebP under unguessable, never-reused keys) come from the
 * bucket, so every instance serves what any other stored. The archive's files keep their own routes.
 */
async function serveUploadsFromBucket(files: FastifyInstance, storage: FileStorage): Promise<void> {
  files.get('/uploads/*', async (request, reply) => {
    const key = keyOfAddress(request.url);
    const sent =
      key !== null &&
      !key.startsWith('archive/') &&
      key.endsWith('.webp') &&
      (await sendStoredObject(request, reply, storage, key, {
        contentType: 'image/webp',
        cacheControl: 'public, max-age=31536000, immutable',
        etag: `"${key}"`,
      }));
    return sent ? reply : reply.status(404).send(errorBody('not_found'));
  });
}

/**
 * Serves the built front end with a fallback to index.html for client routes. The
 * demo flag is written into the page so the login screen knows whether to show the
 * demonstration credentials without an extra anonymous API call, and the build, which the
 * page compares with the one the server's answers name. dist/assets also holds the files of
 * earlier builds for a while (web-assets.ts), for the tabs still running them.
 */
async function registerWeb(app: FastifyInstance, config: Config, build: string): Promise<void> {
  const dist = config.webDist!;
  const render = (file: string) =>
    fs
      .readFileSync(file, 'utf8')
      .replace('<meta name="meritus-demo" content="off"', `<meta name="meritus-demo" content="${config.demo ? 'on' : 'off'}"`)
      .replace(`<meta name="${BUILD_META}" content=""`, `<meta name="${BUILD_META}" content="${build}"`);
  const index = render(path.join(dist, 'index.html'));
  // An area's paths get its page, which preloads the area's first chunks (vite.config.ts, areaPages); index.html otherwise.
  const areaPages = new Map(
    AREAS.map((area) => {
      const file = path.join(dist, `${area}.html`);
      return [area, fs.existsSync(file) ? render(file) : index];
    }),
  );
  /**
   * The answers of the reads a signed-in page starts with (first-reads.ts), asked of the API as the visitor's own
   * requests (their cookie, their address: the same access checks and limits), so they come with the page instead of a
   * round trip after it (decision 012). Only the reads that answered 200 are written; the web asks for the others.
   */
  const firstAnswersOf = async (request: FastifyRequest, locationPath: string): Promise<string | undefined> => {
    const cookie = request.headers.cookie;
    if (!cookie) return undefined;
    const answers = await Promise.all(
      firstReadsOf(locationPath).map(async (url) => {
        // A read that fails here is left to the web, which asks for it and shows what it gets: the page is still sent.
        const answer = await app.inject({ method: 'GET', url, headers: { cookie }, remoteAddress: request.ip }).catch(() => undefined);
        return answer?.statusCode === 200 ? `${JSON.stringify(url)}:${answer.body}` : undefined;
      }),
    );
    const answered = answers.filter((answer) => answer !== undefined);
    if (answered.length === 0) return undefined;
    // `<` escaped, so no answer can end the script element; JSON reads \u003c back as `<`.
    return `<script type="application/json" id="${FIRST_ANSWERS_ID}">{${answered.join(',').replaceAll('<', '\\u003c')}}</script>`;
  };

  // Hashed assets never change under their name; the build wrote their .br and .gz beside them (vite.config.ts).
  await app.register(fastifyStatic, {
    root: dist,
    prefix: '/',
    index: false,
    wildcard: false,
    // The pages are sent by the route below, rendered (demo flag, build, first reads), never as their raw files; the record
    // of retired assets (web-assets.ts) is the build's own.
    allowedPath: (pathName) => !pathName.endsWith('.html') && pathName !== `/${RETIRED_ASSETS_FILE}`,
    preCompressed: true,
    setHeaders: (reply, filePath) => {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) reply.header('Cache-Control', 'public, max-age=31536000, immutable');
    },
  });
  // The page is rendered at start-up (demo flag), so it is compressed on the fly, in a scope of its own: not the static files.
  await app.register(async (page) => {
    await registerCompression(page);
    page.get('/*', { schema: { hide: true } }, async (request, reply) => {
      const path = normalisedPath(request.url);
      if (path === '/api' || path.startsWith('/api/') || path.startsWith('/uploads/')) {
        return reply.callNotFound();
      }
      const area = areaOfPath(path);
      const answers = area ? await firstAnswersOf(request, request.url.split('?')[0]!) : undefined;
      const html = area ? areaPages.get(area)! : index;
      return (
        reply
          .type('text/html; charset=utf-8')
          // A page with a visitor's answers is theirs alone: no cache keeps it, shared or not.
          .header('Cache-Control', answers ? 'private, no-store' : 'no-cache')
          .send(answers ? html.replace('</body>', `${answers}</body>`) : html)
      );
    });
  });
}
