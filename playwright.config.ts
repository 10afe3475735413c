import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROME_FLAGS, CHROMIUM } from './src/server/test/chromium.ts';
import { bundleFolder } from './src/server/test/server-bundle.ts';

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;
const desktop = { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } };
/** A fresh database for every run, seeded with the demo school. */
const dataDir = path.join(os.tmpdir(), `meritus-e2e-${port}-${process.pid}`);
/** The server runs from a bundle of its sources (server-bundle.ts), made at every start: tsx would transpile at start and load more. */
const serverBundle = bundleFolder(`e2e-${port}`);
/** A second server with a demo school of its own, for the rollover wizard that closes the year (see its project). */
const rolloverServer = {
  port: port + 50,
  url: `http://localhost:${port + 50}`,
  dataDir: path.join(os.tmpdir(), `meritus-e2e-${port + 50}-${process.pid}`),
};
const SERVER_ENV = { HOST: '127.0.0.1', DEMO: 'on', API_RATE_LIMIT: '0', LOG_LEVEL: 'warn', NODE_ENV: 'test' };
const SERVER_OPTIONS = { reuseExistingServer: false, timeout: 120_000, stdout: 'ignore', stderr: 'pipe' } as const;

export default defineConfig({
  testDir: 'e2e',
  // Each run empties its output folder first: one per port, so runs side by side keep their traces.
  outputDir: `test-results/e2e-${port}`,
  // Every test sets up the students it changes (fixtures.ts), so tests run in any order and side by side.
  fullyParallel: true,
  // One worker more than the cores: a test spends part of its time waiting on the server, and with a worker per core
  // a fifth of two cores stayed idle (156 s → 136 s here; all passed with the API tests running beside them). Four on
  // two cores, with the API tests beside them, timed tests out.
  workers: Number(process.env.E2E_WORKERS ?? os.availableParallelism() + 1),
  retries: 0,
  // Room for a busy machine (2 cores shared by the server, the browsers and whatever else runs): waits end on events, not on time.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? 'line' : [['list']],
  use: {
    baseURL,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    // As with the system setting a user can turn on: transitions end at once. Each fade and slide otherwise costs
    // frames of software compositing and Playwright waits for it to settle; this halves the suite's CPU (polish.spec:
    // 190–210 → 98 CPU-seconds). The tests about motion itself (the smooth jump in the ranking, toasts) ask for it back.
    reducedMotion: 'reduce',
    // No trace by default: recording one films every test (a screencast the browser composites and encodes), a quarter
    // of the suite's CPU (polish.spec: 163 → 118 CPU-seconds), for a file CI never keeps. `--trace retain-on-failure` when debugging.
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM, args: CHROME_FLAGS },
  },
  projects: [
    // The rollover wizard closes the school's year for good, and so does the Hall da Fama's first test: the wizard gets a
    // demo school of its own (the second server below), beside the other tests, and the Hall keeps the first. Listed
    // first, so its tests start with the others instead of running alone after them (15 s of a run on one core).
    { name: 'year rollover', testMatch: ['year-rollover.spec.ts'], use: { ...desktop, baseURL: rolloverServer.url } },
    {
      name: 'chromium',
      testIgnore: ['settings.spec.ts', 'ranking-privacy.spec.ts', 'hall-of-fame.spec.ts', 'year-rollover.spec.ts'],
      use: desktop,
    },
    // The settings screen changes what every screen reads (the school's goal, its name, the ranking's names): those tests
    // run after all the others and one at a time, so no other test sees a goal or name of theirs.
    {
      name: 'school-wide settings',
      testMatch: ['settings.spec.ts', 'ranking-privacy.spec.ts'],
      dependencies: ['chromium'],
      // One worker: the two files both save the school's rules, and side by side one restored what the other had just set.
      workers: 1,
      use: desktop,
    },
    // The Hall da Fama closes the demo school's year (every student moves, the 3º EM graduates): after everything else.
    {
      name: 'after the year closes',
      testMatch: ['hall-of-fame.spec.ts'],
      dependencies: ['school-wide settings'],
      fullyParallel: false,
      use: desktop,
    },
  ],
  webServer: [
    {
      // Builds the front end only when dist is older than its sources (`.ci/run` has just built it). Old asset
      // files are kept so a build started by a parallel run cannot pull them from under a running server.
      command:
        `node scripts/web-build.mjs --no-emptyOutDir && rm -rf ${dataDir} && ` +
        `node --import tsx src/server/test/server-bundle.ts e2e-${port} && node ${serverBundle}/main.js`,
      url: `${baseURL}/api/health`,
      ...SERVER_OPTIONS,
      // Email on (decision 038), towards a port where nothing listens: the screens offer it, messages wait in the outbox.
      env: {
        ...SERVER_ENV,
        PORT: String(port),
        DATA_DIR: dataDir,
        SMTP_URL: 'smtp://127.0.0.1:9',
        SMTP_FROM: 'Méritus <nao-responda@escola.test>',
        PUBLIC_URL: baseURL,
      },
    },
    {
      // Started after the first (Playwright starts them in order), so the front end is built by then.
      command: `rm -rf ${rolloverServer.dataDir} && node ${serverBundle}/main.js`,
      url: `${rolloverServer.url}/api/health`,
      ...SERVER_OPTIONS,
      env: { ...SERVER_ENV, PORT: String(rolloverServer.port), DATA_DIR: rolloverServer.dataDir },
    },
  ],
});
