import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { addAdmin, addStudents, cookieFrom, testConfig, TEST_ADMIN, TEST_PASSWORD, type TestStudent } from '../test/test-app.ts';
import { startPostgres, type PostgresServer } from '../test/postgres-server.ts';
import { openPostgres, type Database } from '../db/client.ts';
import { sessions } from '../db/schema.ts';
import { buildApp } from '../app.ts';
import { hashToken } from '../modules/auth/auth.service.ts';
import { has, openStream } from './sse-test-client.ts';

/** Sessions stay cached for a minute, so only the event bus (or its resync) can make an instance refuse one sooner. */
const CACHE = { SESSION_CACHE_MS: '60000' };

type Instance = { app: FastifyInstance; database: Database; baseUrl: string };

describe.skipIf(process.env.TEST_DB !== 'postgres')(
  'live events outlive the database (PostgreSQL only: PGlite runs inside the process, there is no connection to lose)',
  () => {
    let server: PostgresServer;
    const instances: Instance[] = [];
    let students: TestStudent[];

    beforeAll(async () => {
      // Its own server, since the test restarts it.
      server = await startPostgres();
      for (let i = 0; i < 2; i++) {
        const database = await openPostgres(server.url, { max: 5 });
        const app = await buildApp(testConfig(CACHE), database);
        instances.push({ app, database, baseUrl: await app.listen({ port: 0, host: '127.0.0.1' }) });
      }
      const { db } = instances[0]!.database;
      await addAdmin(db, TEST_ADMIN);
      students = await addStudents(db, [
        { studentId: '3100001', name: 'Ana Beatriz Souza' },
        { studentId: '3100002', name: 'Bruno Henrique Lima' },
      ]);
    });
    afterAll(async () => {
      for (const { app, database } of instances) {
        await app.close();
        await database.close();
      }
      await server?.stop();
    });

    async function login(instance: Instance, payload: Record<string, string>): Promise<string> {
      const role = 'email' in payload ? 'admin' : 'student';
      return cookieFrom(await instance.app.inject({ method: 'POST', url: `/api/auth/${role}/login`, payload }));
    }
    const loginStudent = (instance: Instance, studentId: string) => login(instance, { studentId, password: TEST_PASSWORD });
    const loginAdmin = (instance: Instance) => login(instance, { email: TEST_ADMIN.email, password: TEST_PASSWORD });
    async function me(instance: Instance, cookie: string): Promise<number> {
      return (await instance.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).statusCode;
    }

    test(
      'after PostgreSQL restarts, open streams are told to refetch and hear events again; ' +
        'a logout on one instance is refused on the other at once',
      async () => {
        const [one, two] = instances as [Instance, Instance];
        const ana = students[0]!;
        const cookie = await loginStudent(one, ana.studentId);
        const admin = await loginAdmin(one);
        const streams = [await openStream(one.baseUrl, cookie), await openStream(two.baseUrl, cookie)];
        await Promise.all(streams.map((stream) => stream.waitFor(has('ready'))));

        await server.restart(1000);
        // "Within a few seconds": the reconnection backoff never waits more than 5 s.
        await Promise.all(streams.map((stream) => stream.waitFor(has('refetch'), 8000)));

        const award = await one.app.inject({
          method: 'POST',
          url: `/api/admin/students/${ana.id}/meritus`,
          headers: { cookie: admin },
          payload: { type: 'reward', amount: 7, description: 'Monitoria' },
        });
        expect(award.statusCode).toBe(201);
        await Promise.all(streams.map((stream) => stream.waitFor(has('balance'))));

        // Instance two remembers the session again, then hears of the logout made on instance one.
        expect(await me(two, cookie)).toBe(200);
        expect((await one.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } })).statusCode).toBe(204);
        await Promise.all(streams.map((stream) => stream.waitForEnd()));
        expect(await me(two, cookie)).toBe(401);
      },
    );

    test('when the LISTEN connection is dropped, a session ended meanwhile is no longer accepted from the cache and its stream ends', async () => {
      const two = instances[1]!;
      const bruno = students[1]!;
      const cookie = await loginStudent(two, bruno.studentId);
      const adminStream = await openStream(two.baseUrl, await loginAdmin(two));
      const brunoStream = await openStream(two.baseUrl, cookie);
      await Promise.all([adminStream, brunoStream].map((stream) => stream.waitFor(has('ready'))));
      expect(await me(two, cookie)).toBe(200);

      // The session ends without its notification (as if sent while the connection was down): the cache still holds it.
      await two.database.db.delete(sessions).where(eq(sessions.tokenHash, hashToken(cookie.split('=')[1]!)));
      expect(await me(two, cookie)).toBe(200);

      await two.database.db.execute(sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN %'`);
      await adminStream.waitFor(has('refetch'), 8000);
      await brunoStream.waitForEnd();
      expect(await me(two, cookie)).toBe(401);
      await adminStream.close();
    });
  },
);
