import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildApp } from '../app.ts';
import { buildTestApp, cookieFrom, testConfig, TEST_PASSWORD, type TestApp } from '../test/test-app.ts';
import { openDatabase, rowsOf } from './client.ts';
import { totalBalances } from '../modules/ledger/reconciliation.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

test.skipIf(process.env.TEST_DB !== 'postgres')(
  'a server on PostgreSQL keeps at most DATABASE_POOL_SIZE connections: 24 transfers at once on a pool of 2 all go through, taking turns',
  async () => {
    for (const student of t.students) await t.award(student.id, 100);
    // The server's own connections carry a name, so the test's pool is not counted with them.
    const url = new URL(t.database.url!);
    url.searchParams.set('application_name', 'pool-size-test');
    const config = testConfig({ DATABASE_URL: url.toString(), DATABASE_POOL_SIZE: '2' });
    const database = await openDatabase(config);
    const app = await buildApp(config, database);
    try {
      const cookies = await Promise.all(
        t.students.map(async (student) =>
          cookieFrom(
            await app.inject({
              method: 'POST',
              url: '/api/auth/student/login',
              payload: { studentId: student.studentId, password: TEST_PASSWORD },
            }),
          ),
        ),
      );
      const responses = await Promise.all(
        Array.from({ length: 24 }, (_, n) =>
          app.inject({
            method: 'POST',
            url: '/api/meritus/transfers',
            headers: { cookie: cookies[n % 4]!, 'idempotency-key': randomUUID() },
            payload: { recipientId: t.students[(n + 1) % 4]!.id, amount: 1 },
          }),
        ),
      );
      expect(responses.map((response) => response.statusCode)).toEqual(Array.from({ length: 24 }, () => 201));
      expect((await totalBalances(t.db)).meritus).toBe(400);
      // An idle connection stays open for 10 s (pg's idle timeout), so every one the burst opened is still
      // there: the pool's two, and the one that LISTENs for the live feed's events.
      const [row] = rowsOf<{ connections: number }>(
        await t.db.execute(sql`SELECT count(*)::int AS connections FROM pg_stat_activity WHERE application_name = 'pool-size-test'`),
      );
      expect(row!.connections).toBe(3);
      expect(database.poolStats().total).toBe(2);
    } finally {
      await app.close();
      await database.close();
    }
  },
);
