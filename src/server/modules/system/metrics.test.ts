import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/test-app.ts';
import { latencyBucket, LATENCY_BUCKETS } from '../../plugins/metrics.ts';
import { percentilesOf, startMonitor } from './monitoring.service.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { has, openStream } from '../../realtime/sse-test-client.ts';

const TOKEN = 'token-de-teste-das-metricas-0123';

/** One line of the Prometheus text format: a comment, or a sample `name{labels} value`. */
const SAMPLE_LINE =
  /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (-?\d+(\.\d+)?(e[+-]?\d+)?|NaN|[+-]Inf)$/;
const COMMENT_LINE = /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/;

describe('/metrics without METRICS_TOKEN', () => {
  test('is disabled: 404 in our shape, whatever token is sent', async () => {
    const t = await buildTestApp();
    try {
      for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
        const response = await t.app.inject({ url: '/metrics', headers });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ error: { code: 'not_found', message: ERROR_MESSAGES.not_found } });
      }
    } finally {
      await t.close();
    }
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await t.close();
  });

  const scrape = (authorization?: string) => t.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });

  test('refuses a missing or wrong bearer token with 401', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN, 'Bearer ']) {
      const response = await scrape(authorization);
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.body).not.toContain('meritus_');
    }
  });

  test(
    'answers the Prometheus text format: default metrics, requests by route pattern and status, ' +
      'sign-in failures, ledger operations and refusals, pool and live clients',
    async () => {
      await t.app.inject({ url: '/api/health?sonda=valor-da-url' });
      await t.app.inject({ url: '/api/caminho-inexistente-abc123' });
      const failed = await t.app.inject({
        method: 'POST',
        url: '/api/auth/student/login',
        payload: { studentId: t.students[0]!.studentId, password: 'errada-123' },
      });
      expect(failed.statusCode).toBe(401);
      await t.award(t.students[0]!.id, 5);
      const refused = await t.request('POST', '/meritus/transfers', {
        cookie: await t.loginStudent(t.students[1]!.studentId),
        payload: { recipientId: t.students[0]!.id, amount: 50 },
      });
      expect(refused.statusCode).toBe(400);

      const response = await scrape(`Bearer ${TOKEN}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/plain');
      expect(response.headers['cache-control']).toBe('no-store');
      const lines = response.body.split('\n').filter((line) => line !== '');
      expect(lines.filter((line) => !SAMPLE_LINE.test(line) && !COMMENT_LINE.test(line))).toEqual([]);

      const body = response.body;
      expect(body).toContain('process_cpu_user_seconds_total');
      expect(body).toContain('nodejs_eventloop_lag_p99_seconds');
      expect(body).toMatch(/meritus_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} 1\n/);
      expect(body).toMatch(/meritus_http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} 1\n/);
      // Routes are named by their pattern: no raw path or query reaches a label.
      expect(body).not.toContain('valor-da-url');
      expect(body).not.toContain('abc123');
      expect(body).toContain('meritus_sign_in_failures_total{role="student"} 1\n');
      expect(body).toContain('meritus_ledger_operations{currency="meritus",type="admin_add"} 1\n');
      expect(body).toContain('meritus_ledger_refusals{currency="meritus",type="transfer",code="insufficient_balance"} 1\n');
      expect(body).toMatch(/meritus_db_pool_connections\{state="in_use"\} \d+\n/);
      expect(body).toContain('meritus_live_event_clients 0\n');
    },
  );
});

describe('monitoring', () => {
  test('percentiles from the latency buckets are within 25 % of the durations observed', () => {
    const buckets = new Float64Array(LATENCY_BUCKETS);
    for (let i = 0; i < 90; i++) buckets[latencyBucket(2)]! += 1;
    for (let i = 0; i < 10; i++) buckets[latencyBucket(150)]! += 1;
    const estimate = percentilesOf(buckets)!;
    expect(estimate.p50).toBeGreaterThanOrEqual(2);
    expect(estimate.p50).toBeLessThanOrEqual(2.5);
    expect(estimate.p95).toBeGreaterThanOrEqual(150);
    expect(estimate.p99).toBeLessThanOrEqual(187.5);
    expect(percentilesOf(new Float64Array(LATENCY_BUCKETS))).toBeNull();
  });

  test('a sample counts the requests, errors and failed sign-ins of its interval by route group, beside process and database figures', async () => {
    const t = await buildTestApp();
    const monitor = startMonitor(t.database, t.app.metrics, { timer: false });
    try {
      await monitor.sample();
      for (let i = 0; i < 3; i++) expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/admin/login',
        payload: { email: 'ninguem@escola.test', password: 'errada-123' },
      });
      const sample = await monitor.sample();
      const group = (name: string) => sample.groups.find((entry) => entry.group === name)!;
      expect(sample.failedSignIns).toBe(1);
      expect(group('system').latencyMs).not.toBeNull();
      expect(group('auth').latencyMs).not.toBeNull();
      expect(group('transfers')).toMatchObject({ requestsPerSecond: 0, latencyMs: null, errorRate: 0 });
      expect(sample.errorRate).toBe(0);
      expect(sample.rssBytes).toBeGreaterThan(0);
      expect(sample.heapUsedBytes).toBeGreaterThan(0);
      expect(sample.databaseBytes).toBeGreaterThan(0);
      expect(sample.connections.total).toBeGreaterThanOrEqual(1);
      expect(sample.liveClients).toBe(0);

      // The next interval starts empty.
      const next = await monitor.sample();
      expect(next.failedSignIns).toBe(0);
      expect(next.groups.find((entry) => entry.group === 'system')!.latencyMs).toBeNull();
      expect(monitor.snapshot().series).toHaveLength(3);
    } finally {
      await monitor.close();
      await t.close();
    }
  });

  test('live-event clients count while their stream is open, and the events this instance hears count per second', async () => {
    const t = await buildTestApp();
    const monitor = startMonitor(t.database, t.app.metrics, { timer: false });
    try {
      const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
      await monitor.sample();
      const stream = await openStream(baseUrl, await t.loginAdmin());
      await stream.waitFor(has('ready'));
      await t.award(t.students[0]!.id, 5);
      // The operation reached the stream, so the bus delivered it to this instance.
      await stream.waitFor(has('operations'));
      const sample = await monitor.sample();
      expect(sample.liveClients).toBe(1);
      expect(sample.eventsPerSecond).toBeGreaterThan(0);
      await stream.close();
      await expect.poll(() => t.app.metrics.liveClients()).toBe(0);
    } finally {
      await monitor.close();
      await t.close();
    }
  });
});
