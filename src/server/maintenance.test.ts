import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { addStudents, createTestDatabase, pendingSumRows, type TestDatabase, type TestStudent } from './test/test-app.ts';
import { eq } from 'drizzle-orm';
import { idempotencyKeys, ledgerEntries, ledgerStudentDays, loginFailures, sessions, studentTags } from './db/schema.ts';
import { sweepAuthState } from './modules/auth/auth.service.ts';
import { sweepExpiredTags } from './modules/tags/tags.service.ts';
import { sweepIdempotencyKeys } from './modules/ledger/idempotency.ts';
import { startMaintenance, SUMS_FOLD_MS } from './maintenance.ts';
import { EXPIRED_TAG_SWEEP_MS, SESSION_IDLE_MS } from '../shared/constants.ts';

/** What each periodic sweep removes, and what it must leave alone, on a database of its own. */
let database: TestDatabase;
let ana: TestStudent;
let bruno: TestStudent;

beforeAll(async () => {
  database = await createTestDatabase();
  [ana, bruno] = (await addStudents(database.db, [
    { studentId: '6000001', name: 'Ana Varredura' },
    { studentId: '6000002', name: 'Bruno Varredura' },
  ])) as [TestStudent, TestStudent];
});
afterAll(async () => database.drop());
afterEach(async () => {
  vi.useRealTimers();
  for (const table of [sessions, loginFailures, studentTags, idempotencyKeys]) await database.db.delete(table);
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms);
const ahead = (ms: number) => new Date(Date.now() + ms);

async function addSession(name: string, times: { lastSeenAt: Date; expiresAt: Date }): Promise<string> {
  const tokenHash = createHash('sha256').update(name).digest('hex');
  await database.db.insert(sessions).values({ tokenHash, studentUuid: ana.id, createdAt: ago(HOUR), ...times });
  return tokenHash;
}

async function sessionHashes(): Promise<string[]> {
  return (await database.db.select({ tokenHash: sessions.tokenHash }).from(sessions)).map((row) => row.tokenHash).sort();
}

async function addExpiredTag(): Promise<string> {
  const [tag] = await database.db
    .insert(studentTags)
    .values({ studentUuid: bruno.id, kind: 'angel', assignedAt: ago(8 * DAY), expiresAt: ago(MINUTE) })
    .returning({ id: studentTags.id });
  return tag!.id;
}

async function tagIds(): Promise<string[]> {
  return (await database.db.select({ id: studentTags.id }).from(studentTags)).map((row) => row.id);
}

test('sessions past their absolute expiry or idle too long are deleted; a session in use stays', async () => {
  const current = await addSession('em uso', { lastSeenAt: ago(MINUTE), expiresAt: ahead(HOUR) });
  await addSession('expirada', { lastSeenAt: ago(MINUTE), expiresAt: ago(MINUTE) });
  await addSession('ociosa', { lastSeenAt: ago(SESSION_IDLE_MS + MINUTE), expiresAt: ahead(HOUR) });
  await sweepAuthState(database.db);
  expect(await sessionHashes()).toEqual([current]);
});

test('sign-in failures no limit counts any more are forgotten; recent ones are kept', async () => {
  await database.db.insert(loginFailures).values([
    { accountKey: 'student:6000001', ip: '203.0.113.7', at: ago(2 * DAY) },
    { accountKey: 'student:6000001', ip: '203.0.113.7', at: ago(MINUTE) },
  ]);
  await sweepAuthState(database.db);
  const kept = await database.db.select({ at: loginFailures.at }).from(loginFailures);
  expect(kept).toHaveLength(1);
  expect(Date.now() - kept[0]!.at.getTime()).toBeLessThan(HOUR);
});

test('weekly tags past their expiry are removed; current tags stay', async () => {
  const [current] = await database.db
    .insert(studentTags)
    .values({ studentUuid: ana.id, kind: 'leader', expiresAt: ahead(DAY) })
    .returning({ id: studentTags.id });
  await addExpiredTag();
  expect(await sweepExpiredTags(database.db)).toBe(1);
  expect(await tagIds()).toEqual([current!.id]);
});

test('idempotency keys older than a day are forgotten; younger ones still replay', async () => {
  const key = (name: string, createdAt: Date) => ({
    actorKey: `student:${ana.id}`,
    key: name,
    requestHash: 'h',
    statusCode: 201,
    response: {},
    createdAt,
  });
  await database.db.insert(idempotencyKeys).values([key('velha', ago(DAY + MINUTE)), key('de-hoje', ago(DAY - HOUR))]);
  await sweepIdempotencyKeys(database.db);
  expect((await database.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys)).map((row) => row.key)).toEqual(['de-hoje']);
});

/** Sweeps run in the background: wait for their effect, however slow the machine. */
const WAIT = { timeout: 20_000, interval: 20 };

const silentLog = () => ({ warn: vi.fn() }) as unknown as FastifyBaseLogger & { warn: ReturnType<typeof vi.fn> };

test('maintenance sweeps at start-up and again every period, until stopped', async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  const log = silentLog();
  await addSession('expirada', { lastSeenAt: ago(MINUTE), expiresAt: ago(MINUTE) });
  await addExpiredTag();
  const stop = startMaintenance(database, log);
  try {
    await vi.waitFor(async () => expect([await sessionHashes(), await tagIds()]).toEqual([[], []]), WAIT);
    await addExpiredTag();
    vi.advanceTimersByTime(EXPIRED_TAG_SWEEP_MS);
    await vi.waitFor(async () => expect(await tagIds()).toEqual([]), WAIT);
  } finally {
    stop();
  }
  expect(vi.getTimerCount()).toBe(0);
  expect(log.warn).not.toHaveBeenCalled();
});

test("every second, the ledger's queued rows are added to the reports' sums", async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  const log = silentLog();
  await database.db.insert(ledgerEntries).values({
    currency: 'meritus',
    type: 'admin_add',
    amount: 17,
    description: 'Feira de ciências',
    toStudentId: bruno.id,
    actorKind: 'admin',
    actorName: 'Teste',
  });
  const brunoAwarded = async () =>
    (
      await database.db
        .select({ awarded: ledgerStudentDays.meritusAwarded })
        .from(ledgerStudentDays)
        .where(eq(ledgerStudentDays.studentId, bruno.id))
    ).map((row) => row.awarded);
  expect([await pendingSumRows(database.db), await brunoAwarded()]).toEqual([1, []]);
  const stop = startMaintenance(database, log);
  try {
    vi.advanceTimersByTime(SUMS_FOLD_MS);
    await vi.waitFor(async () => expect([await pendingSumRows(database.db), await brunoAwarded()]).toEqual([0, [17]]), WAIT);
  } finally {
    stop();
  }
  expect(log.warn).not.toHaveBeenCalled();
});

test('each failing sweep is logged by name; none escapes as an unhandled error', async () => {
  // A database every query of which fails.
  const unreachable = new Proxy(
    {},
    {
      get: () => {
        throw new Error('banco indisponível');
      },
    },
  );
  const broken = { ...database, db: unreachable as TestDatabase['db'] };
  const log = silentLog();
  startMaintenance(broken, log)();
  await vi.waitFor(() => expect(log.warn).toHaveBeenCalledTimes(3), WAIT);
  const names = log.warn.mock.calls.map(([details]) => (details as { sweep: string }).sweep).sort();
  expect(names).toEqual(['authState', 'expiredTags', 'idempotencyKeys']);
});
