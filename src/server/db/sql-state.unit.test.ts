import { expect, test } from 'vitest';
import { isConnectionFailure, sqlState } from './sql-state.ts';

/** An error as a driver makes it: a message, maybe a code, maybe wrapped (as Drizzle wraps a failed query's). */
function failure(message: string, code?: string, wrapped = false): Error {
  const error = Object.assign(new Error(message), code ? { code } : {});
  return wrapped ? new Error('Failed query: SELECT 1', { cause: error }) : error;
}

test('a database out of reach is told from a failed request, however the driver words it and however it is wrapped', () => {
  const unreachable = [
    failure('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED', true),
    Object.assign(new AggregateError([failure('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''), { code: 'ECONNREFUSED' }),
    failure('read ECONNRESET', 'ECONNRESET'),
    failure('terminating connection due to administrator command', '57P01', true),
    failure('the database system is starting up', '57P03'),
    failure('sorry, too many clients already', '53300'),
    failure('could not receive data from server', '08006'),
    failure('Connection terminated unexpectedly', undefined, true),
    failure('Connection terminated due to connection timeout'),
    failure('timeout exceeded when trying to connect'),
    failure('PGlite is closed', undefined, true),
  ];
  for (const error of unreachable) expect(isConnectionFailure(error), String(error)).toBe(true);

  const refused = [
    failure('duplicate key value violates unique constraint', '23505', true),
    failure('deadlock detected', '40P01'),
    failure('invalid byte sequence for encoding "UTF8": 0x00', '22021'),
    failure('new row violates check constraint', '23514'),
    new Error('boom'),
    undefined,
  ];
  for (const error of refused) expect(isConnectionFailure(error), String(error)).toBe(false);
  expect(sqlState(refused[0])).toBe('23505');
});
