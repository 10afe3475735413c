import { describe, expect, test } from 'vitest';
import { requestCode } from './request-id.ts';

describe('requestCode: the short code an error toast shows', () => {
  test("the server's own id (eight base32 characters) is shown whole, split in two", () => {
    expect(requestCode('7F3K2Q9M')).toBe('7F3K-2Q9M');
  });

  test("a proxy's longer id shows its first eight letters and digits in capitals, which a case-blind search of the logs finds", () => {
    expect(requestCode('550e8400-e29b-41d4-a716-446655440000')).toBe('550E-8400');
    expect(requestCode('a1b2c3d4e5f60718293a4b5c6d7e8f90')).toBe('A1B2-C3D4');
  });

  test('no code without enough to read out: no id (a network failure) or one too short', () => {
    expect(requestCode(null)).toBeNull();
    expect(requestCode(undefined)).toBeNull();
    expect(requestCode('-.-')).toBeNull();
    expect(requestCode('ab1')).toBeNull();
    expect(requestCode('ab12')).toBe('AB12');
  });
});
