import { describe, expect, test } from 'vitest';
import { hashPassword, verifyPassword } from './password.ts';

describe('passwords', () => {
  test("are stored as argon2id at OWASP's baseline cost (19 MiB, 2 passes, 1 lane) and verified against it", async () => {
    const stored = await hashPassword('aluno123');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'aluno123')).toBe(true);
    expect(await verifyPassword(stored, 'aluno124')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'aluno123')).toBe(false);
  });
});
