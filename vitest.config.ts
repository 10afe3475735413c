import os from 'node:os';
import { defineConfig } from 'vitest/config';

const apiTests = ['src/server/**/*.test.ts'];
/** Server tests that need no database (*.unit.test.ts) run once, with the other unit tests. */
const serverUnitTests = 'src/server/**/*.unit.test.ts';

/**
 * API tests run twice: on an in-memory PGlite and on a real PostgreSQL 15 that the global setup
 * starts in a temporary folder; each project's global setup migrates one template database that
 * every test file copies. Unit tests run in Node; only the ones that render (*.test.tsx) in jsdom.
 * The API projects share modules between the files a worker runs (isolate: false): the server's
 * import was paid again by every file, ~40% of the projects' CPU. Files share no state through
 * them: each builds its own app on its own database copy, and restores any fake timers it sets.
 */
export default defineConfig({
  test: {
    // Vitest's default (one worker less than the cores) leaves a single worker on two cores, and
    // API test files spend much of their time waiting on PostgreSQL or a child process.
    maxWorkers: Math.max(os.availableParallelism(), 2),
    projects: [
      {
        test: {
          name: 'api-pglite',
          isolate: false,
          include: apiTests,
          exclude: [serverUnitTests],
          env: { TEST_DB: 'pglite' },
          globalSetup: ['src/server/test/pglite-global-setup.ts', 'src/server/test/server-bundle.ts'],
          setupFiles: ['src/server/test/fail-on-console-error.ts'],
          // As on PostgreSQL: tests of 5–10 s here passed 30 s on a 2-core machine shared with the browser tests.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'api-postgres',
          isolate: false,
          include: apiTests,
          exclude: [serverUnitTests],
          env: { TEST_DB: 'postgres' },
          globalSetup: ['src/server/test/postgres-global-setup.ts', 'src/server/test/server-bundle.ts'],
          setupFiles: ['src/server/test/fail-on-console-error.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'unit',
          include: ['src/shared/**/*.test.ts', 'src/web/**/*.test.ts', serverUnitTests],
          environment: 'node',
          // Pure code in Node: importing it again for every file was most of this project's CPU (18 → 7 CPU-seconds).
          // The files that fake timers or stub globals restore them after each test.
          isolate: false,
          // Vitest's 5 s was passed on a busy machine by the tests that load every route's schemas or start processes a
          // hundred times.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'unit-dom',
          include: ['src/web/**/*.test.tsx'],
          environment: 'jsdom',
        },
      },
    ],
  },
});
