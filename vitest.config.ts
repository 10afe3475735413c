import { defineConfig } from 'vitest/config';

const apiTests = ['src/server/**/*.test.ts'];

/**
 * API tests run twice: on an in-memory PGlite and on a real PostgreSQL 15 that the
 * global setup starts in a temporary folder. Web unit tests run in jsdom.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'api-pglite',
          include: apiTests,
          env: { TEST_DB: 'pglite' },
          setupFiles: ['src/server/test/fail-on-console-error.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'api-postgres',
          include: apiTests,
          env: { TEST_DB: 'postgres' },
          globalSetup: ['src/server/test/postgres-global-setup.ts'],
          setupFiles: ['src/server/test/fail-on-console-error.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'unit',
          include: ['src/shared/**/*.test.ts', 'src/web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
        },
      },
    ],
  },
});
