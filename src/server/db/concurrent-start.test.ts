import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { startServer, type RunningServer } from '../test/processes.ts';
import { createPostgresDatabase } from '../test/test-app.ts';

/**
 * Several instances started at the same moment on one empty PostgreSQL database: the
 * migrations and the first data (demo school or first administrator) run under one lock,
 * so every instance starts and the data exists exactly once. PGlite serves one process
 * per data folder, so there is nothing to race there.
 */
const onPostgres = process.env.TEST_DB === 'postgres';
const INSTANCES = 3;

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A new database with nothing in it: not even the migrations, which the instances race to run. */
async function emptyDatabase(): Promise<string> {
  const { url, drop } = await createPostgresDatabase('start');
  cleanups.push(drop);
  return url;
}

async function startTogether(env: Record<string, string>): Promise<RunningServer[]> {
  const dataDirs = Array.from({ length: INSTANCES }, () => fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-race-')));
  const started = await Promise.allSettled(dataDirs.map((dataDir) => startServer({ ...env, DATA_DIR: dataDir }, 120_000)));
  cleanups.push(async () => {
    await Promise.all(started.map((result) => (result.status === 'fulfilled' ? result.value.stop() : undefined)));
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  const failures = started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
  expect(failures).toEqual([]);
  return started.map((result) => (result as PromiseFulfilledResult<RunningServer>).value);
}

async function count(url: string, query: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(query);
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

describe.skipIf(!onPostgres)(
  'instances started together on an empty PostgreSQL (PGlite: one server per data folder, nothing to race)',
  () => {
    test(`${INSTANCES} instances in production mode all start and create the first administrator once`, async () => {
      const url = await emptyDatabase();
      const servers = await startTogether({
        DATABASE_URL: url,
        ADMIN_EMAIL: 'diretora@escola.test',
        ADMIN_PASSWORD: 'senha-da-diretora',
      });
      for (const server of servers) expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      expect(await count(url, 'SELECT count(*) AS n FROM admins')).toBe(1);
      const signIn = await fetch(`${servers[INSTANCES - 1]!.url}/api/auth/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'diretora@escola.test', password: 'senha-da-diretora' }),
      });
      expect(signIn.status).toBe(200);
    });

    test(`${INSTANCES} instances in demo mode all start and seed the demo school once`, async () => {
      const url = await emptyDatabase();
      const servers = await startTogether({ DATABASE_URL: url, DEMO: 'on' });
      for (const server of servers) expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      // The coordinator and the two teachers.
      expect(await count(url, 'SELECT count(*) AS n FROM admins')).toBe(3);
      expect(await count(url, 'SELECT count(*) AS n FROM students')).toBe(60);
      expect(await count(url, "SELECT count(*) AS n FROM students WHERE student_id = '2024001'")).toBe(1);
    });
  },
);
