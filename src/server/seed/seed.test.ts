import fs from 'node:fs';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestDatabase, testConfig as makeConfig, type TestDatabase } from '../test/test-app.ts';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { ensureInitialData, DEMO_ADMIN } from './seed.ts';
import { admins, auditLog, students } from '../db/schema.ts';
import { verifyPassword } from '../modules/auth/password.ts';

/** One database for the file: the refusals leave it empty, the last test fills it. */
let database: TestDatabase;
const dataDirs: string[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function testConfig(env: Record<string, string>): Config {
  const config = makeConfig(env);
  dataDirs.push(config.dataDir);
  return config;
}

const production = { DEMO: 'off' } as const;

test('production mode on an empty database without ADMIN_EMAIL/ADMIN_PASSWORD refuses, naming both variables, and writes nothing', async () => {
  const attempt = ensureInitialData(database.db, testConfig(production));
  await expect(attempt).rejects.toBeInstanceOf(ConfigError);
  await expect(ensureInitialData(database.db, testConfig(production))).rejects.toThrow(/ADMIN_EMAIL e ADMIN_PASSWORD/);
  const [a] = await database.db.select({ n: count() }).from(admins);
  const [s] = await database.db.select({ n: count() }).from(students);
  expect([a!.n, s!.n]).toEqual([0, 0]);
});

test('an ADMIN_EMAIL without ADMIN_PASSWORD (or a password under 8 characters) is not enough', async () => {
  await expect(ensureInitialData(database.db, testConfig({ ...production, ADMIN_EMAIL: 'diretora@escola.test' }))).rejects.toThrow(
    /ADMIN_PASSWORD/,
  );
  expect(() => loadConfig({ ...production, ADMIN_EMAIL: 'diretora@escola.test', ADMIN_PASSWORD: 'curta' })).toThrow(/ADMIN_PASSWORD/);
});

test('an ADMIN_NAME the administrators screen would refuse stops the start, naming the variable, and writes nothing', async () => {
  const config = testConfig({
    ...production,
    ADMIN_EMAIL: 'diretora@escola.test',
    ADMIN_PASSWORD: 'segredo-forte',
    ADMIN_NAME: 'N'.repeat(121),
  });
  await expect(ensureInitialData(database.db, config)).rejects.toThrow(/ADMIN_NAME/);
  expect(await database.db.select().from(admins)).toEqual([]);
});

test('the first administrator comes from the variables, with a hashed password and no demo data, created as every administrator is', async () => {
  const config = testConfig({
    ...production,
    ADMIN_EMAIL: 'Diretora@Escola.TEST',
    ADMIN_PASSWORD: 'segredo-forte',
    ADMIN_NAME: 'Diretora  Marta',
  });
  expect(await ensureInitialData(database.db, config)).toBe('first_admin');
  const rows = await database.db.select().from(admins);
  expect(rows.map((row) => [row.email, row.name, row.adminId])).toEqual([['diretora@escola.test', 'Diretora Marta', 'admin001']]);
  const audit = await database.db.select().from(auditLog).where(eq(auditLog.action, 'admin.create'));
  expect(audit).toMatchObject([{ actorKind: 'system', actorId: null, details: { adminId: rows[0]!.id, email: 'diretora@escola.test' } }]);
  expect(rows[0]!.passwordHash).toMatch(/^\$argon2id\$/);
  expect(await verifyPassword(rows[0]!.passwordHash, 'segredo-forte')).toBe(true);
  expect(await database.db.select().from(admins).where(eq(admins.email, DEMO_ADMIN.email))).toEqual([]);
  const [s] = await database.db.select({ n: count() }).from(students);
  expect(s!.n).toBe(0);

  // Later starts find the administrator and need the variables no more.
  expect(await ensureInitialData(database.db, testConfig(production))).toBe('none');
  expect(await database.db.select().from(admins)).toHaveLength(1);
});
