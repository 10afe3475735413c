import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * SQL kept as living source rather than frozen in a migration: functions whose whole
 * definition is one file, re-applied (CREATE OR REPLACE) at every start-up, after the
 * migrations and under their lock. Tables and data change only through migrations.
 */
const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** In the order they are applied: the store's functions use the ledger's. */
export const LIVING_SQL_FILES = [
  path.join(serverRoot, 'modules', 'ledger', 'ledger.sql'),
  path.join(serverRoot, 'modules', 'store', 'store.sql'),
  path.join(serverRoot, 'modules', 'store', 'store-goals.sql'),
];

export function livingSql(): string {
  return LIVING_SQL_FILES.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
}

/** Each function a living file defines, with the body between its `$$` quotes, as pg_proc.prosrc holds it. */
export function livingFunctions(): { name: string; body: string }[] {
  const definition = /CREATE OR REPLACE FUNCTION (\w+)\([^)]*\)[\s\S]*?AS \$\$([\s\S]*?)\$\$;/g;
  return [...livingSql().matchAll(definition)].map((match) => ({ name: match[1]!, body: match[2]! }));
}
