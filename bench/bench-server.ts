import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type { Pool } from 'undici';
import { ADMIN } from './bench-students.ts';

/** What the HTTP benches share: a Méritus server started for them, and their requests sent at the least cost to the load generator. */

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** Starts the Méritus server (its own process, `env` added), waits until it answers, and gives its address. */
export async function startServer(env: Record<string, string>, profileDir?: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), '--import', 'tsx', 'src/server/main.ts'],
    {
      env: {
        ...process.env,
        PORT: String(port),
        LOG_LEVEL: 'warn',
        API_RATE_LIMIT: '0',
        DEMO: 'off',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child };
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error('server did not start');
}

export async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * A POST with a fresh Idempotency-Key (the transfers, the purchases), through undici's connection pool, on its low-level dispatch()
 * with a handler that only keeps the status and the body: node:http or fetch would cost the
 * load generator about as much CPU as the server spends, on the same two cores, and
 * request()'s response stream with its promises about half as much (pgbench's client is C).
 */
export function dispatchPost(pool: Pool, path: string, cookie: string, body?: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let status = 0;
    const chunks: Buffer[] = [];
    pool.dispatch(
      {
        path,
        method: 'POST',
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), cookie, 'idempotency-key': randomUUID() },
        body: body === undefined ? null : JSON.stringify(body),
      },
      {
        onRequestStart: () => {},
        onResponseStart: (_controller, statusCode) => {
          status = statusCode;
        },
        onResponseData: (_controller, chunk) => {
          chunks.push(chunk);
        },
        onResponseEnd: () => resolve({ status, body: Buffer.concat(chunks).toString('utf8') }),
        onResponseError: (_controller, error) => reject(error),
      },
    );
  });
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
