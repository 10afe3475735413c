import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/test-app.ts';
import { runScript, startServer, type RunningServer } from '../test/processes.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { archiveStagingDir } from '../modules/archive/archive-files.ts';
import { STAGING_MAX_AGE_MS } from '../modules/archive/staging-sweep.ts';

/**
 * The server as `npm start` runs it, as a separate process: on PGlite in a data folder,
 * or on the run's PostgreSQL through DATABASE_URL.
 */
const onPglite = process.env.TEST_DB !== 'postgres';
const ADMIN = { email: 'diretora@escola.test', password: 'senha-da-diretora', name: 'Diretora Marta Alves' };

let database: TestDatabase | undefined;
let dataDir: string;
let target: Record<string, string>;
const running: RunningServer[] = [];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-start-'));
  if (onPglite) {
    target = { DATA_DIR: dataDir, DEMO: 'off' };
  } else {
    database = await createTestDatabase();
    target = { DATABASE_URL: database.url!, DATA_DIR: dataDir };
  }
});
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop()));
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer({ ...target, ...env });
  running.push(server);
  return server;
}

async function signIn(server: RunningServer, password = ADMIN.password): Promise<Response> {
  return fetch(`${server.url}/api/auth/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password }),
  });
}

// Each test starts processes that load the whole server (and PGlite's first start runs initdb): slow on a busy machine.
describe.sequential('starting the server', { timeout: 120_000 }, () => {
  test('production mode on an empty database without ADMIN_EMAIL and ADMIN_PASSWORD: exits with a message naming both', async () => {
    const result = await runScript('src/server/main.ts', [], { env: { ...target, PORT: '0' } });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('ADMIN_EMAIL');
    expect(result.stderr).toContain('ADMIN_PASSWORD');
    expect(result.stderr).not.toMatch(/at .*\.ts:\d+/); // a message, not a stack trace
  });

  let cookie: string;
  test('the first start creates the administrator from the variables, who can sign in', async () => {
    const server = await start({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: ADMIN.name });
    expect(await (await signIn(server, 'senha-errada')).json()).toMatchObject({ error: { message: 'Email ou senha incorretos' } });
    const response = await signIn(server);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ role: 'coordinator', admin: { email: ADMIN.email, name: ADMIN.name } });
    cookie = response.headers.getSetCookie()[0]!.split(';')[0]!;
    expect(await server.stop()).toBe(0);
    // A stopped server leaves the PGlite folder free for the next one.
    if (onPglite) await (await acquireDataDirLock(dataDir))();
  });

  test('a restart keeps the data: the administrator, and even the open session', async () => {
    // No admin variables this time: the database is no longer empty.
    const server = await start();
    const me = await fetch(`${server.url}/api/auth/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ role: 'coordinator', admin: { email: ADMIN.email } });
    expect((await signIn(server)).status).toBe(200);
  });

  const secondServer = onPglite
    ? 'a second server on the same PGlite folder is refused while the first runs'
    : 'a second server on the same PostgreSQL runs beside the first and shares its sessions';
  test(secondServer, async () => {
    const first = running.at(-1)!;
    expect(first.child.exitCode).toBeNull();
    if (onPglite) {
      const second = await runScript('src/server/main.ts', [], { env: { ...target, PORT: '0' } });
      expect(second.code).not.toBe(0);
      expect(second.stderr).toContain(`já está em uso por outro servidor (PID ${first.child.pid})`);
      // The first one is unharmed and still answers.
      expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
    } else {
      const second = await start();
      const me = await fetch(`${second.url}/api/auth/me`, { headers: { cookie } });
      expect(me.status).toBe(200);
      expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
    }
  });

  test('after a crash (SIGKILL) the server starts again with its data', async () => {
    // The server the test before left running is the one that crashes.
    const victim = running.at(-1)!;
    expect(victim.child.exitCode).toBeNull();
    victim.child.kill('SIGKILL');
    await victim.stop();
    // An upload the crash cut short left its staging file (a day old: other instances may share DATA_DIR on PostgreSQL).
    const staging = archiveStagingDir(dataDir);
    const leftover = path.join(staging, '0a1b2c3d4e5f-9f8e7d6c5b4a39281706a5b4.upload');
    fs.mkdirSync(staging, { recursive: true });
    fs.writeFileSync(leftover, Buffer.alloc(1024 * 1024));
    const dayOld = new Date(Date.now() - STAGING_MAX_AGE_MS - 60_000);
    fs.utimesSync(leftover, dayOld, dayOld);
    // And the object it was storing, half written.
    const partial = path.join(dataDir, 'uploads', 'archive', 'f0e1d2c3b4a5968778695a4b3c2d1e0f', 'original.0a1b2c3d4e5f.partial');
    fs.mkdirSync(path.dirname(partial), { recursive: true });
    fs.writeFileSync(partial, Buffer.alloc(1024 * 1024));
    fs.utimesSync(partial, dayOld, dayOld);
    const server = await start();
    expect((await fetch(`${server.url}/api/auth/me`, { headers: { cookie } })).status).toBe(200);
    expect(fs.existsSync(leftover)).toBe(false);
    expect(fs.existsSync(partial)).toBe(false);
  });
});
