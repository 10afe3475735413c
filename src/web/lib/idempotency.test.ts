import { describe, expect, it } from 'vitest';
import { ApiError } from './api.ts';
import { createIdempotencyKeys } from './idempotency.ts';

function sequentialKeys() {
  let n = 0;
  return () => `key-${++n}`;
}

describe('idempotency keys', () => {
  it('gives each successful submission a fresh key', () => {
    const keys = createIdempotencyKeys(sequentialKeys());
    expect(keys.keyFor({ amount: 5 })).toBe('key-1');
    keys.settle(undefined);
    expect(keys.keyFor({ amount: 5 })).toBe('key-2');
  });

  it('reuses the key when the same data is sent again after a network or server failure', () => {
    const keys = createIdempotencyKeys(sequentialKeys());
    expect(keys.keyFor({ amount: 5 })).toBe('key-1');
    keys.settle(new ApiError(0, 'network', 'x'));
    expect(keys.keyFor({ amount: 5 })).toBe('key-1');
    keys.settle(new ApiError(503, 'internal', 'x'));
    expect(keys.keyFor({ amount: 5 })).toBe('key-1');
  });

  it('takes a new key when the data changed or the server refused the request', () => {
    const keys = createIdempotencyKeys(sequentialKeys());
    keys.keyFor({ amount: 5 });
    keys.settle(new ApiError(0, 'network', 'x'));
    expect(keys.keyFor({ amount: 6 })).toBe('key-2');
    keys.settle(new ApiError(400, 'insufficient_balance', 'Saldo insuficiente'));
    expect(keys.keyFor({ amount: 6 })).toBe('key-3');
  });
});
