import { afterAll, beforeAll, expect, test } from 'vitest';
import { count, isNotNull } from 'drizzle-orm';
import { createTestDatabase, testConfig, type TestDatabase } from '../test/test-app.ts';
import { ensureInitialData } from './seed.ts';
import { ledgerEntries, students, studentTags } from './schema.ts';
import { reconcile } from '../modules/ledger/reconciliation.service.ts';
import { GRADES } from '../../shared/constants.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  expect(await ensureInitialData(database.db, testConfig({ DEMO: 'on' }))).toBe('demo');
}, 120_000);
afterAll(async () => database.drop());

test('the demo school: 60 students over the 12 grades, months of history that reconciles', async () => {
  const roster = await database.db.select().from(students);
  expect(roster.length).toBeGreaterThanOrEqual(48);
  expect(new Set(roster.map((s) => s.grade))).toEqual(new Set(GRADES));
  expect(roster.map((s) => s.studentId)).toContain('2024001');
  const [entries] = await database.db.select({ n: count() }).from(ledgerEntries);
  expect(entries!.n).toBeGreaterThan(500);
  const oldest = await database.db.select({ at: ledgerEntries.createdAt }).from(ledgerEntries).orderBy(ledgerEntries.createdAt).limit(1);
  expect(Date.now() - oldest[0]!.at.getTime()).toBeGreaterThan(60 * 86_400_000);
  expect(await reconcile(database.db)).toEqual([]);
  const demo = roster.find((s) => s.studentId === '2024001')!;
  expect(demo.meritus).toBeGreaterThan(0);
  expect(demo.estelecas).toBeGreaterThan(0);
  const [tags] = await database.db.select({ n: count() }).from(studentTags).where(isNotNull(studentTags.expiresAt));
  expect(tags!.n).toBeGreaterThan(0);
});

test('a second start on the same database seeds nothing', async () => {
  expect(await ensureInitialData(database.db, testConfig({ DEMO: 'on' }))).toBe('none');
});
