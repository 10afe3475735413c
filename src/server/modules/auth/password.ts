import { hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
export const ARGON2_OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id, a const enum */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** Hashes a few at a time: argon2 is deliberately slow and memory-hungry. */
export async function hashPasswords(passwords: string[]): Promise<string[]> {
  const hashes: string[] = [];
  const parallel = 4;
  for (let i = 0; i < passwords.length; i += parallel) {
    hashes.push(...(await Promise.all(passwords.slice(i, i + parallel).map((password) => hashPassword(password)))));
  }
  return hashes;
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * Verifying against this when the account does not exist keeps the response time
 * the same, so timing does not tell which matrículas or emails exist.
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('não-existe-esta-conta');
  return dummyHash;
}
