import { expect, test } from 'vitest';
import { mergeEvents } from './event-bus.ts';

test('queued events merge into one per kind, with the union of the students', () => {
  expect(
    mergeEvents([
      { type: 'ledger', studentIds: ['a', 'b'], status: 'completed' },
      { type: 'tags' },
      { type: 'ledger', studentIds: ['b', 'c'], status: 'completed' },
      { type: 'ledger', studentIds: [], status: 'failed' },
      { type: 'tags' },
    ]),
  ).toEqual([
    { type: 'tags' },
    { type: 'ledger', status: 'completed', studentIds: ['a', 'b', 'c'] },
    { type: 'ledger', status: 'failed', studentIds: [] },
  ]);
});

test('"everyone" absorbs any list of students', () => {
  expect(
    mergeEvents([
      { type: 'ledger', studentIds: ['a'], status: 'completed' },
      { type: 'ledger', studentIds: 'all', status: 'completed' },
      { type: 'ledger', studentIds: ['b'], status: 'completed' },
    ]),
  ).toEqual([{ type: 'ledger', status: 'completed', studentIds: 'all' }]);
});

test('different sessions ending in one batch are all kept', () => {
  expect(
    mergeEvents([
      { type: 'sessions_ended', tokenHash: 'h1' },
      { type: 'sessions_ended', studentId: 's1' },
      { type: 'sessions_ended', tokenHash: 'h1' },
      { type: 'sessions_ended', tokenHash: 'h2' },
    ]),
  ).toEqual([
    { type: 'sessions_ended', tokenHash: 'h1' },
    { type: 'sessions_ended', studentId: 's1' },
    { type: 'sessions_ended', tokenHash: 'h2' },
  ]);
});
