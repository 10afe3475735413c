import { monitorEventLoopDelay, performance, type EventLoopUtilization } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../../db/client.ts';
import { bucketUpperMs, LATENCY_BUCKETS, type InstanceMetrics } from '../../plugins/metrics.ts';
import {
  MONITORING_SAMPLE_MS,
  MONITORING_WINDOW_MS,
  ROUTE_GROUPS,
  type InstanceInfo,
  type MonitoringSample,
  type MonitoringSnapshot,
} from '../../../shared/system.ts';

export type Monitor = {
  snapshot(): MonitoringSnapshot;
  /** Takes a sample now (the timer calls it; tests call it instead of waiting). */
  sample(): Promise<MonitoringSample>;
  close(): Promise<void>;
};

/** Which server process answered, since when. */
export function instanceView(metrics: InstanceMetrics, now = Date.now()): InstanceInfo {
  const { id, startedAt } = metrics.instance;
  return { id, startedAt: startedAt.toISOString(), uptimeSeconds: Math.floor((now - startedAt.getTime()) / 1000) };
}

type Percentiles = { p50: number; p95: number; p99: number };

/** Percentiles from the log buckets: each the upper bound of the bucket holding that rank (within 25 %). */
export function percentilesOf(buckets: ArrayLike<number>): Percentiles | null {
  let total = 0;
  for (let i = 0; i < buckets.length; i++) total += buckets[i]!;
  if (total === 0) return null;
  const at = (share: number) => {
    const rank = Math.ceil(total * share);
    let seen = 0;
    for (let i = 0; i < buckets.length; i++) {
      seen += buckets[i]!;
      if (seen >= rank) return round(bucketUpperMs(i));
    }
    return round(bucketUpperMs(buckets.length - 1));
  };
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** The event-loop monitor's timer period: what it records is that period plus the delay. */
const LOOP_RESOLUTION_MS = 10;

function loopDelayMs(recordedNs: number): number {
  return recordedNs > 0 ? round(Math.max(0, recordedNs / 1e6 - LOOP_RESOLUTION_MS)) : 0;
}

/**
 * Samples this instance every MONITORING_SAMPLE_MS and keeps MONITORING_WINDOW_MS of samples
 * in memory: requests, latency and errors per route group (from the metrics plugin's
 * counts), the event loop, CPU, memory, the database and the live clients.
 */
export function startMonitor(database: Database, metrics: InstanceMetrics, options: { sampleMs?: number; timer?: boolean } = {}): Monitor {
  const sampleMs = options.sampleMs ?? MONITORING_SAMPLE_MS;
  const keep = Math.ceil(MONITORING_WINDOW_MS / sampleMs);
  const series: MonitoringSample[] = [];
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loopDelay.enable();
  let last = {
    at: performance.now(),
    cpu: process.cpuUsage(),
    loop: performance.eventLoopUtilization() as EventLoopUtilization,
    totals: metrics.totals(),
  };
  let running: Promise<MonitoringSample> | undefined;

  const databaseBytes = async (): Promise<number | null> => {
    try {
      const [row] = rowsOf<{ bytes: string | number }>(
        await database.db.execute(sql`SELECT pg_database_size(current_database()) AS bytes`),
      );
      return row ? Number(row.bytes) : null;
    } catch {
      return null;
    }
  };

  const take = async (): Promise<MonitoringSample> => {
    const now = performance.now();
    const seconds = Math.max(0.001, (now - last.at) / 1000);
    const cpu = process.cpuUsage(last.cpu);
    const loop = performance.eventLoopUtilization(last.loop);
    const totals = metrics.totals();
    const previous = last.totals;
    last = { at: now, cpu: process.cpuUsage(), loop: performance.eventLoopUtilization(), totals };
    const all = new Float64Array(LATENCY_BUCKETS);
    let requests = 0;
    let serverErrors = 0;
    const groups = ROUTE_GROUPS.map((group) => {
      const current = totals.groups[group];
      const before = previous.groups[group];
      const counts = {
        requests: current.requests - before.requests,
        serverErrors: current.serverErrors - before.serverErrors,
        latency: current.latency.map((n, i) => n - before.latency[i]!),
      };
      requests += counts.requests;
      serverErrors += counts.serverErrors;
      for (let i = 0; i < LATENCY_BUCKETS; i++) all[i]! += counts.latency[i]!;
      return {
        group,
        requestsPerSecond: round(counts.requests / seconds),
        errorRate: counts.requests === 0 ? 0 : round(counts.serverErrors / counts.requests, 4),
        latencyMs: percentilesOf(counts.latency),
      };
    });
    const memory = process.memoryUsage();
    const pool = database.poolStats();
    const delay = {
      delayP50Ms: loopDelayMs(loopDelay.percentile(50)),
      delayP99Ms: loopDelayMs(loopDelay.percentile(99)),
      delayMaxMs: loopDelayMs(loopDelay.max),
      utilization: round(loop.utilization, 4),
    };
    loopDelay.reset();
    const sample: MonitoringSample = {
      at: new Date().toISOString(),
      requestsPerSecond: round(requests / seconds),
      errorRate: requests === 0 ? 0 : round(serverErrors / requests, 4),
      latencyMs: percentilesOf(all),
      groups,
      eventLoop: delay,
      cpuPercent: round(((cpu.user + cpu.system) / 1000 / (seconds * 1000)) * 100, 1),
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      heapTotalBytes: memory.heapTotal,
      databaseBytes: await databaseBytes(),
      connections: { inUse: pool.total - pool.idle, total: pool.total, waiting: pool.waiting },
      liveClients: metrics.liveClients(),
      eventsPerSecond: round((totals.events - previous.events) / seconds),
      failedSignIns: totals.failedSignIns - previous.failedSignIns,
    };
    series.push(sample);
    if (series.length > keep) series.splice(0, series.length - keep);
    return sample;
  };

  const sample = () => {
    // One at a time: a slow database must not pile samples up.
    running ??= take().finally(() => {
      running = undefined;
    });
    return running;
  };

  const timer = options.timer === false ? undefined : setInterval(() => void sample().catch(() => {}), sampleMs);
  timer?.unref();

  return {
    snapshot() {
      return {
        instance: instanceView(metrics),
        sampleMs,
        windowMs: MONITORING_WINDOW_MS,
        current: series.at(-1) ?? null,
        series: [...series],
      };
    },
    sample,
    async close() {
      clearInterval(timer);
      await running?.catch(() => {});
      loopDelay.disable();
    },
  };
}
