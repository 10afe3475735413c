import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../db/client.ts';
import { startPostgres } from './postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    postgresTemplate: string;
  }
}

/** The migrated database every test database is copied from (CREATE DATABASE … TEMPLATE). */
const TEMPLATE = 'meritus_template';

/**
 * One PostgreSQL 15 server for the whole run, with one migrated template database: each test
 * file copies the template instead of running the migrations again.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres();
  try {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${TEMPLATE}`);
    await admin.end();
    const url = new URL(server.url);
    url.pathname = `/${TEMPLATE}`;
    // Closed again at once: PostgreSQL copies a template only while nobody is connected to it.
    await (await openPostgres(url.toString(), { max: 1 })).close();
  } catch (error) {
    await server.stop();
    throw error;
  }
  project.provide('postgresAdminUrl', server.url);
  project.provide('postgresTemplate', TEMPLATE);
  return server.stop;
}
