import { expect, test } from 'vitest';
import { ApiError } from './api.ts';
import { shouldRetry } from './query-client.ts';

test('a refetch refused by the client throttle is retried, up to three times', () => {
  const throttled = new ApiError(429, 'client_throttled', 'Too many requests');
  expect([0, 1, 2, 3].map((count) => shouldRetry(count, throttled))).toEqual([true, true, true, false]);
});

test('other client errors are answers; server errors get one more try', () => {
  expect(shouldRetry(0, new ApiError(404, 'not_found', 'x'))).toBe(false);
  expect(shouldRetry(0, new ApiError(401, 'unauthenticated', 'x'))).toBe(false);
  expect(shouldRetry(0, new ApiError(503, 'internal', 'x'))).toBe(true);
  expect(shouldRetry(1, new ApiError(503, 'internal', 'x'))).toBe(false);
});
