import { expect, test } from 'vitest';
import { defaultPoolSize, loadConfig } from './config.ts';

test('the PostgreSQL pool holds two connections per core, at least four, unless DATABASE_POOL_SIZE says otherwise', () => {
  expect([1, 2, 3, 8].map((cores) => defaultPoolSize(cores))).toEqual([4, 4, 6, 16]);
  expect(loadConfig({}).databasePoolSize).toBe(defaultPoolSize());
  expect(loadConfig({ DATABASE_POOL_SIZE: '12' }).databasePoolSize).toBe(12);
  for (const value of ['0', '2.5', 'muitas']) expect(() => loadConfig({ DATABASE_POOL_SIZE: value })).toThrow(/DATABASE_POOL_SIZE/);
});
