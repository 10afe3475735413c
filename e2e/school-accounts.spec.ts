import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { bundleFolder } from '../src/server/test/server-bundle.ts';
import { startOpenIdProvider, type TestOpenIdProvider } from '../src/server/test/openid-provider.ts';

/**
 * Sign-in with the school's accounts in a real browser: a Méritus server of its own, configured for a real OpenID
 * provider (oidc-provider) that stands in for Google and Microsoft, which the browser visits and comes back from.
 * The provider is on 127.0.0.1 and Méritus on localhost: two sites, as the school's provider and Méritus are.
 */

const root = path.resolve(import.meta.dirname, '..');
const COORDINATOR = 'coordenacao@escola.test';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

let idp: TestOpenIdProvider;
let server: ChildProcess;
let baseURL: string;
let dataDir: string;

/**
 * A first start on an empty folder runs initdb and the migrations, some 8 CPU-seconds: 41 s on this 2-core machine when
 * busy, past the 90 s this wait had when the browsers of the other workers and the API tests shared it. The wait ends
 * as soon as the server answers, or when it exits, with what it said.
 */
const FIRST_START_MS = 240_000;

test.beforeAll(async () => {
  test.setTimeout(FIRST_START_MS + 30_000);
  const port = await freePort();
  baseURL = `http://localhost:${port}`;
  idp = await startOpenIdProvider(baseURL, 'escola.test');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-e2e-oidc-'));
  // The bundle the suite's own server runs (playwright.config.ts builds it), with the built front end in dist/.
  const bundle = bundleFolder(`e2e-${process.env.E2E_PORT ?? 3100}`);
  server = spawn(process.execPath, [path.join(bundle, 'main.js')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      PATH: process.env.PATH,
      ...idp.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: 'off',
      ADMIN_EMAIL: COORDINATOR,
      ADMIN_PASSWORD: 'senha-da-coordenacao',
      API_RATE_LIMIT: '0',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    },
  });
  let stderr = '';
  server.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<never>((_, reject) =>
    server.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${stderr}`))),
  );
  exited.catch(() => undefined); // it exits at the end too, after the race
  await Promise.race([
    expect.poll(async () => (await fetch(`${baseURL}/api/health`).catch(() => null))?.status, { timeout: FIRST_START_MS }).toBe(200),
    exited,
  ]);
});

test.afterAll(async () => {
  if (server?.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await idp?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a coordinator signs in with the school account, and an unknown one is told "Conta não cadastrada na escola"', async ({ page }) => {
  await page.goto(`${baseURL}/login`);
  const google = page.getByRole('link', { name: 'Entrar com Google' });
  await expect(google).toBeVisible();
  await expect(page.getByRole('link', { name: 'Entrar com Microsoft' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  idp.signInAs({ email: 'ninguem@escola.test', email_verified: true });
  await google.click();
  await expect(page).toHaveURL(`${baseURL}/login?error=school_account_unknown`);
  await expect(page.getByRole('alert')).toHaveText('Conta não cadastrada na escola');
  await expectNoSeriousA11yViolations(page);

  // Someone else at the same computer: the provider forgets the last person, as when they sign out of it.
  await page.context().clearCookies({ domain: '127.0.0.1' });
  idp.signInAs({ email: COORDINATOR, email_verified: true });
  await page.getByRole('link', { name: 'Entrar com Google' }).click();
  await expect(page).toHaveURL(`${baseURL}/admin`);
  await expect(page.getByTestId('user-name')).toHaveText('Administrador');
  const me = await page.request.get(`${baseURL}/api/auth/me`);
  expect(await me.json()).toMatchObject({ role: 'coordinator', admin: { email: COORDINATOR } });
});

test('the suite’s own server is configured for no school account: no buttons', async ({ page }) => {
  const settings = page.waitForResponse('**/api/settings/public');
  await page.goto('/login');
  expect(await (await settings).json()).toMatchObject({ signInProviders: [] });
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Entrar com/ })).toHaveCount(0);
});
