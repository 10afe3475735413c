/**
 * The server as `npm start` runs it, for the benchmarks that load pages in Chromium
 * (bench:web, bench:archive): a production build of its own, the server on it, a sign-in.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/**
 * A production build of its own in `work`/dist: the shared dist/ may be rebuilt by a test run
 * meanwhile, and a build under NODE_ENV=test holds React's development code.
 */
export function buildWeb(work: string): void {
  console.log('vite build…');
  const result = spawnSync(
    path.join(root, 'node_modules/.bin/vite'),
    ['build', '--outDir', path.join(work, 'dist'), '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) throw new Error('vite build failed');
}

/**
 * The server as `npm start` runs it on `port`, serving `work`/dist (the server serves ./dist of its
 * working folder) with its data in `work`/data; `env` adds to the environment (DEMO, ADMIN_EMAIL…).
 */
export async function startServer(work: string, port: number, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(root, 'src/server/main.ts')], {
    cwd: work,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(work, 'data'),
      API_RATE_LIMIT: '0',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the server exited (${code}); is port ${port} free?`))),
  );
  const healthy = (async () => {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  await Promise.race([healthy, exited]);
  return child;
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A POST tried twice: the first can meet a kept-alive connection the server closed meanwhile ('other side closed'). */
function post(url: string, body: unknown): Promise<Response> {
  const request = () => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return request().catch(request);
}

export type SignIn = { url: string; body: Record<string, string> };

/** The session cookie (`name=value`) of a sign-in through the API. */
export async function sessionCookie(base: string, login: SignIn): Promise<string> {
  const response = await post(`${base}${login.url}`, login.body);
  const cookie = response.headers.get('set-cookie');
  if (!response.ok || !cookie) throw new Error(`sign-in for the bench failed: ${response.status} ${await response.text()}`);
  return cookie.split(';')[0]!;
}
