import { expect, test, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { createTestDatabase } from '../test/test-app.ts';
import { listenRetryDelay } from '../db/client.ts';
import { createEventBus, mergeEvents, type DeliveredEvent } from './event-bus.ts';

const noLines = { entryIds: [], batchIds: [], refusedIds: [] };

test('queued events merge into one per kind, with the union of the students and of the feed lines', () => {
  expect(
    mergeEvents([
      { type: 'ledger', studentUuids: ['a', 'b'], status: 'completed', lines: { ...noLines, entryIds: ['e1'] } },
      { type: 'tags', studentUuids: ['a'] },
      { type: 'ledger', studentUuids: ['b', 'c'], status: 'completed', lines: { ...noLines, batchIds: ['b1'] } },
      { type: 'ledger', studentUuids: [], status: 'failed', lines: { ...noLines, refusedIds: [7] } },
      { type: 'tags', studentUuids: [] },
      { type: 'students' },
      { type: 'students' },
    ]),
  ).toEqual([
    { type: 'students' },
    { type: 'ledger', status: 'completed', studentUuids: ['a', 'b', 'c'], lines: { entryIds: ['e1'], batchIds: ['b1'], refusedIds: [] } },
    { type: 'ledger', status: 'failed', studentUuids: [], lines: { ...noLines, refusedIds: [7] } },
    { type: 'tags', studentUuids: ['a'] },
  ]);
});

test('"everyone" absorbs any list of students, and "all lines" any list of lines', () => {
  expect(
    mergeEvents([
      { type: 'ledger', studentUuids: ['a'], status: 'completed', lines: { ...noLines, entryIds: ['e1'] } },
      { type: 'ledger', studentUuids: 'all', status: 'completed', lines: 'all' },
      { type: 'ledger', studentUuids: ['b'], status: 'completed', lines: { ...noLines, entryIds: ['e2'] } },
    ]),
  ).toEqual([{ type: 'ledger', status: 'completed', studentUuids: 'all', lines: 'all' }]);
});

test('different sessions ending in one batch are all kept', () => {
  expect(
    mergeEvents([
      { type: 'sessions_ended', tokenHash: 'h1' },
      { type: 'sessions_ended', studentUuid: 's1' },
      { type: 'sessions_ended', tokenHash: 'h1' },
      { type: 'sessions_ended', tokenHash: 'h2' },
    ]),
  ).toEqual([
    { type: 'sessions_ended', tokenHash: 'h1' },
    { type: 'sessions_ended', studentUuid: 's1' },
    { type: 'sessions_ended', tokenHash: 'h2' },
  ]);
});

test('a listener that throws is logged and the other subscribers still hear every event', async () => {
  const database = await createTestDatabase();
  const error = vi.fn();
  const log = { error, warn: vi.fn(), info: vi.fn(), debug: vi.fn() } as unknown as FastifyBaseLogger;
  const bus = await createEventBus(database, log);
  try {
    const heard: DeliveredEvent[] = [];
    let arrived = () => {};
    bus.subscribe(() => {
      throw new TypeError("Cannot read properties of null (reading 'role')");
    });
    bus.subscribe((event) => {
      heard.push(event);
      arrived();
    });
    const next = () => new Promise<void>((resolve) => (arrived = resolve));

    let delivered = next();
    await bus.publish(database.db, { type: 'tags', studentUuids: [] });
    await delivered;
    delivered = next();
    bus.publishAfterCommit({ type: 'students' });
    await delivered;

    expect(heard).toEqual([{ type: 'tags', studentUuids: [] }, { type: 'students' }]);
    expect(error).toHaveBeenCalledTimes(2);
    expect(error.mock.calls[0]![0]).toMatchObject({ err: expect.any(TypeError), event: { type: 'tags', studentUuids: [] } });
  } finally {
    await bus.close();
    await database.drop();
  }
});

test('reconnection waits start near 250 ms, double, never pass 5 s, and are spread so instances do not retry together', () => {
  expect([0, 1, 2, 3, 4, 5, 20].map((attempt) => listenRetryDelay(attempt, () => 1))).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
  expect(listenRetryDelay(0, () => 0)).toBe(125);
  expect(listenRetryDelay(20, () => 0)).toBe(2500);
});
