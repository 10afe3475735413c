import { expect, test } from 'vitest';
import type { Db } from '../../db/client.ts';
import { databaseHealthCheck } from './system-health.ts';

/** A database whose pings the test answers one by one. */
function databaseOnHold() {
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const db = {
    execute: () => new Promise<void>((resolve, reject) => pending.push({ resolve, reject })),
  } as unknown as Db;
  return { db, pending };
}

test('a probe answers at once while a ping waits for a connection, if the database answered a moment ago; never after a failure', async () => {
  const { db, pending } = databaseOnHold();
  const check = databaseHealthCheck(db);

  const first = check();
  expect(pending).toHaveLength(1);
  pending[0]!.resolve();
  await first;

  // The database answered just now: the next probe does not wait for the ping it starts.
  await check();
  expect(pending).toHaveLength(2);
  // A probe meanwhile shares that ping.
  await check();
  expect(pending).toHaveLength(2);

  pending[1]!.reject(new Error('Connection terminated'));
  // The failed ping settles (its handlers run on the next turns of the loop).
  await new Promise((resolve) => setImmediate(resolve));
  // After a failed ping a probe waits for a new one, and hears its failure.
  const afterFailure = check();
  expect(pending).toHaveLength(3);
  pending[2]!.reject(new Error('connect ECONNREFUSED'));
  await expect(afterFailure).rejects.toThrow('ECONNREFUSED');
});
