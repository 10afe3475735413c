import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { inject } from 'vitest';

export const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** A clean environment for a child process: only what Node needs, plus the given variables. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * The arguments for `node` that run a server program given by its source (e.g. 'src/server/main.ts'):
 * under Vitest, its build in the run's bundle (server-bundle.ts), which starts on half the CPU;
 * elsewhere (the benchmarks), the source through tsx, as `npm start` runs it.
 */
function programArgs(file: string): string[] {
  if (!process.env.VITEST) return ['--import', 'tsx', file];
  return [path.join(inject('serverBundle'), path.relative('src/server', file).replace(/\.ts$/, '.js'))];
}

export type Finished = { code: number | null; stdout: string; stderr: string };

/** Runs a program of the server (see programArgs) with ARGS until it exits; `kill` stops it with SIGKILL, as a crash would. */
export function runScript(
  file: string,
  args: string[],
  options: { env?: Record<string, string>; input?: string; kill?: AbortSignal } = {},
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...programArgs(file), ...args], {
      cwd: repoRoot,
      env: childEnv(options.env ?? {}),
      ...(options.kill ? { signal: options.kill, killSignal: 'SIGKILL' as const } : {}),
    });
    let stdout = '';
    let stderr = '';
    // Decoded by the streams, so a character split between two reads stays whole.
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // A stop asked for through `kill` is reported as an error too; 'close' follows with the code.
    child.on('error', (error) => error.name === 'AbortError' || reject(error));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

export type RunningServer = { url: string; child: ChildProcess; output: () => string; stop: () => Promise<number | null> };

/**
 * Starts `src/server/main.ts` as `npm start` would and waits until /api/health answers.
 * Rejects with the server's output if it exits first.
 */
export async function startServer(env: Record<string, string>, timeoutMs = 60_000): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, programArgs('src/server/main.ts'), {
    cwd: repoRoot,
    env: childEnv({ ...env, PORT: String(port), HOST: '127.0.0.1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
