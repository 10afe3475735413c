import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ADVISORY_LOCKS } from './advisory-locks.ts';
import { LIVING_SQL_FILES } from './living-sql.ts';

const serverRoot = path.resolve(import.meta.dirname, '..');
const repositoryRoot = path.resolve(serverRoot, '..', '..');
/** A call of any of PostgreSQL's advisory lock functions, with what it passes as the key. */
const LOCK_CALL = /pg_(?:try_)?advisory_(?:xact_)?(?:un)?lock(?:_shared)?\s*\(([^)]*)\)/g;

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }).map((file) => path.join(folder, file));
}

describe('advisory locks', () => {
  test('no two names share a key', () => {
    const byKey = new Map<number, string[]>();
    for (const [name, key] of Object.entries(ADVISORY_LOCKS)) byKey.set(key, [...(byKey.get(key) ?? []), name]);
    expect([...byKey.values()].filter((names) => names.length > 1)).toEqual([]);
  });

  test("ledger.sql's functions take the ledger sums lock by the registry's key, and no other", () => {
    const keys = LIVING_SQL_FILES.flatMap((file) => [...fs.readFileSync(file, 'utf8').matchAll(LOCK_CALL)].map((call) => call[1]!.trim()));
    expect(keys.length).toBeGreaterThan(0);
    expect(new Set(keys)).toEqual(new Set([String(ADVISORY_LOCKS.ledgerSums)]));
  });

  test('the TypeScript takes every lock through the registry: no other file calls a lock function', () => {
    const registry = path.join(serverRoot, 'db', 'advisory-locks.ts');
    const callers = [...sourceFiles(serverRoot), ...sourceFiles(path.join(repositoryRoot, 'bench'))]
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && file !== registry)
      .filter((file) => new RegExp(LOCK_CALL.source).test(fs.readFileSync(file, 'utf8')));
    expect(callers.map((file) => path.relative(repositoryRoot, file))).toEqual([]);
  });
});
