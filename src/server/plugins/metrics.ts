import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import os from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../app-error.ts';
import { rowsOf } from '../db/client.ts';
import { ROUTE_GROUPS, type RouteGroup } from '../../shared/system.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's request figures, read by the backend panel and /metrics. */
    metrics: InstanceMetrics;
  }
}

/**
 * Latency buckets of the panel's percentiles: bucket i holds durations up to
 * 0.1 ms × 1.25^i, so an estimate is within 25 % of the truth from 0.1 ms to a minute.
 */
const BUCKET_BASE_MS = 0.1;
const BUCKET_GROWTH = 1.25;
export const LATENCY_BUCKETS = 64;
const LOG_GROWTH = Math.log(BUCKET_GROWTH);

export function latencyBucket(ms: number): number {
  if (ms <= BUCKET_BASE_MS) return 0;
  return Math.min(LATENCY_BUCKETS - 1, Math.ceil(Math.log(ms / BUCKET_BASE_MS) / LOG_GROWTH));
}

export function bucketUpperMs(bucket: number): number {
  return BUCKET_BASE_MS * BUCKET_GROWTH ** bucket;
}

/** Requests of one route group since the instance started (samplers subtract their previous reading). */
export type GroupCounts = { requests: number; serverErrors: number; latency: Float64Array };

/** A 5xx answer, kept so the diagnostic can name it by the request id the logs carry. */
export type ServerErrorRecord = { at: string; requestId: string; method: string; route: string; status: number };
const SERVER_ERRORS_KEPT = 50;

export type InstanceMetrics = {
  instance: { id: string; startedAt: Date };
  /** A copy of the counts since start, per route group: each reader keeps its previous reading, so readers do not disturb each other. */
  totals(): InstanceTotals;
  liveClients(): number;
  /** Newest last. */
  recentServerErrors(): ServerErrorRecord[];
};

const SIGN_IN_ROUTES: Record<string, 'student' | 'admin'> = {
  '/api/auth/student/login': 'student',
  '/api/auth/admin/login': 'admin',
};
const EVENTS_ROUTE = '/api/events';

/** The group of a route pattern (never of a raw URL): decided once per route. */
export function routeGroupOf(pattern: string | undefined): RouteGroup {
  if (pattern === undefined || !pattern.startsWith('/api/')) return pattern === '/metrics' ? 'system' : 'static';
  if (pattern === EVENTS_ROUTE) return 'events';
  if (pattern.startsWith('/api/auth/')) return 'auth';
  if (pattern === '/api/meritus/transfers' || pattern === '/api/estelecas/transfers') return 'transfers';
  if (pattern.startsWith('/api/admin/')) return 'admin';
  if (pattern === '/api/health' || pattern === '/api/openapi.json') return 'system';
  return 'student';
}

export type InstanceTotals = { groups: Record<RouteGroup, GroupCounts>; failedSignIns: number; events: number };

function emptyTotals(): InstanceTotals {
  const groups = Object.fromEntries(
    ROUTE_GROUPS.map((group) => [group, { requests: 0, serverErrors: 0, latency: new Float64Array(LATENCY_BUCKETS) }]),
  );
  return { groups: groups as Record<RouteGroup, GroupCounts>, failedSignIns: 0, events: 0 };
}

/** Compares the bearer token in constant time (both sides hashed, so their lengths match). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const sent = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(sent), digest(token)) && sent.length > 0;
}

type RouteMetrics = { group: RouteGroup; children: Map<number, { observe(seconds: number): void }> };

/**
 * Request timing and the figures of this instance: in-memory counts per route group for the
 * backend panel, and, when METRICS_TOKEN is set, a Prometheus registry served at /metrics.
 * The per-request work is a few map lookups, counter increments and one histogram observe.
 */
export async function registerMetrics(app: FastifyInstance, { config, database, events }: AppDeps): Promise<void> {
  const instance = {
    id: `${os.hostname()}-${process.pid}-${randomBytes(2).toString('hex')}`,
    startedAt: new Date(Date.now() - Math.round(process.uptime() * 1000)),
  };
  const totals = emptyTotals();
  let liveClients = 0;
  const serverErrors: ServerErrorRecord[] = [];

  const registry = config.metricsToken ? new Registry() : null;
  const prom = registry ? createPrometheusMetrics(registry, app, { database, liveClients: () => liveClients }) : null;

  const unsubscribe = events.subscribe(() => {
    totals.events += 1;
    prom?.liveEvents.inc();
  });
  app.addHook('onClose', async () => unsubscribe());

  /** Per route pattern and method, so a request finds its group and histogram child without building a key. */
  const routes = new Map<string, Map<string, RouteMetrics>>();
  const unmatched = new Map<string, RouteMetrics>();
  const routeMetrics = (request: FastifyRequest): RouteMetrics => {
    const pattern = request.routeOptions.url;
    let byMethod = unmatched;
    if (pattern !== undefined) {
      const known = routes.get(pattern);
      if (known) byMethod = known;
      else routes.set(pattern, (byMethod = new Map()));
    }
    let found = byMethod.get(request.method);
    if (!found) byMethod.set(request.method, (found = { group: routeGroupOf(pattern), children: new Map() }));
    return found;
  };

  // Callback hooks: an async one would allocate a promise on every request.
  app.addHook('preHandler', (request, reply, done) => {
    if (request.routeOptions.url === EVENTS_ROUTE) {
      // Counted once the guard has admitted the stream; the response closes when the stream ends.
      liveClients += 1;
      reply.raw.once('close', () => {
        liveClients -= 1;
      });
    }
    done();
  });

  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done) => {
    observe(request, reply);
    done();
  });

  function observe(request: FastifyRequest, reply: FastifyReply): void {
    const route = routeMetrics(request);
    const status = reply.statusCode;
    const pattern = request.routeOptions.url;
    if (status === 401 && pattern !== undefined && SIGN_IN_ROUTES[pattern]) {
      totals.failedSignIns += 1;
      prom?.signInFailures.inc({ role: SIGN_IN_ROUTES[pattern] });
    }
    if (status >= 500) {
      serverErrors.push({
        at: new Date().toISOString(),
        requestId: String(request.id),
        method: request.method,
        route: pattern ?? '(sem rota)',
        status,
      });
      if (serverErrors.length > SERVER_ERRORS_KEPT) serverErrors.shift();
    }
    // A live stream's duration is how long someone stayed, not a latency.
    if (route.group === 'events') return;
    const ms = reply.elapsedTime;
    const counts = totals.groups[route.group];
    counts.requests += 1;
    if (status >= 500) counts.serverErrors += 1;
    counts.latency[latencyBucket(ms)]! += 1;
    if (prom) {
      let child = route.children.get(status);
      if (!child) route.children.set(status, (child = prom.requestDuration.labels(request.method, pattern ?? 'unmatched', String(status))));
      child.observe(ms / 1000);
    }
  }

  const metrics: InstanceMetrics = {
    instance,
    totals() {
      const groups = Object.fromEntries(
        ROUTE_GROUPS.map((group) => {
          const { requests, serverErrors, latency } = totals.groups[group];
          return [group, { requests, serverErrors, latency: latency.slice() }];
        }),
      );
      return { groups: groups as Record<RouteGroup, GroupCounts>, failedSignIns: totals.failedSignIns, events: totals.events };
    },
    liveClients: () => liveClients,
    recentServerErrors: () => [...serverErrors],
  };
  app.decorate('metrics', metrics);

  app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    if (!registry || !config.metricsToken) throw new AppError('not_found');
    if (!bearerMatches(request.headers.authorization, config.metricsToken)) {
      reply.header('WWW-Authenticate', 'Bearer');
      throw new AppError('unauthenticated');
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}

/** The Prometheus side: the client's default process metrics plus the application's. */
function createPrometheusMetrics(
  registry: Registry,
  app: FastifyInstance,
  { database, liveClients }: { database: AppDeps['database']; liveClients: () => number },
) {
  collectDefaultMetrics({ register: registry });
  const requestDuration = new Histogram({
    name: 'meritus_http_request_duration_seconds',
    help: 'Duração das respostas HTTP por método, rota (o padrão da rota, nunca a URL) e status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const signInFailures = new Counter({
    name: 'meritus_sign_in_failures_total',
    help: 'Logins recusados por senha ou conta incorreta nesta instância',
    labelNames: ['role'] as const,
    registers: [registry],
  });
  const liveEvents = new Counter({
    name: 'meritus_live_events_total',
    help: 'Eventos ao vivo recebidos do barramento (LISTEN/NOTIFY) por esta instância',
    registers: [registry],
  });
  new Gauge({
    name: 'meritus_live_event_clients',
    help: 'Clientes conectados ao fluxo de eventos ao vivo (SSE) desta instância',
    registers: [registry],
    collect() {
      this.set(liveClients());
    },
  });
  new Gauge({
    name: 'meritus_db_pool_connections',
    help: 'Conexões do banco desta instância por estado (PGlite: uma, sempre)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = database.poolStats();
      this.set({ state: 'in_use' }, pool.total - pool.idle);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });
  // Read from the database at scrape time, so the hot path pays nothing; the figures are the whole school's, the same on every instance.
  new Gauge({
    name: 'meritus_ledger_operations',
    help: 'Linhas do razão por moeda e tipo (banco inteiro, igual em todas as instâncias)',
    labelNames: ['currency', 'type'] as const,
    registers: [registry],
    async collect() {
      try {
        const rows = rowsOf<{ currency: string; type: string; n: string | number }>(
          await database.db.execute(sql`SELECT currency, type, count(*) AS n FROM ledger_entries GROUP BY currency, type`),
        );
        this.reset();
        for (const row of rows) this.set({ currency: row.currency, type: row.type }, Number(row.n));
      } catch (error) {
        app.log.warn({ err: error }, 'métricas: não foi possível contar o razão');
      }
    },
  });
  new Gauge({
    name: 'meritus_ledger_refusals',
    help: 'Operações recusadas por moeda, tipo e motivo (banco inteiro, igual em todas as instâncias)',
    labelNames: ['currency', 'type', 'code'] as const,
    registers: [registry],
    async collect() {
      try {
        const rows = rowsOf<{ currency: string | null; type: string | null; code: string | null; n: string | number }>(
          await database.db.execute(sql`
            SELECT details->>'currency' AS currency, details->>'type' AS type, details->>'code' AS code, count(*) AS n
              FROM audit_log WHERE action = 'ledger.refused' GROUP BY 1, 2, 3`),
        );
        this.reset();
        for (const row of rows) {
          this.set({ currency: row.currency ?? 'unknown', type: row.type ?? 'unknown', code: row.code ?? 'unknown' }, Number(row.n));
        }
      } catch (error) {
        app.log.warn({ err: error }, 'métricas: não foi possível contar as recusas');
      }
    },
  });
  return { requestDuration, signInFailures, liveEvents };
}
