import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/test-app.ts';
import { rowsOf } from './client.ts';
import { livingFunctions } from './living-sql.ts';

/** The functions the database runs are the ones in the living SQL files, and only those. */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

test('every function of the living SQL files is deployed exactly as the file says, with no other overload left behind', async () => {
  const functions = livingFunctions();
  expect(functions.map((fn) => fn.name)).toEqual(
    expect.arrayContaining([
      'ledger_transfer',
      'ledger_admin_operation',
      'ledger_replay',
      'ledger_complete',
      'ledger_refuse',
      'store_purchase',
      'store_refund',
    ]),
  );
  for (const { name, body } of functions) {
    const deployed = rowsOf<{ args: string; source: string }>(
      await database.db.execute(sql`
        SELECT pg_get_function_identity_arguments(p.oid) AS args, p.prosrc AS source
          FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
         WHERE n.nspname = current_schema() AND p.proname = ${name}`),
    );
    expect(deployed, name).toHaveLength(1);
    expect(deployed[0]!.source, name).toBe(body);
  }
});
