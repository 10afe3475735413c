import { expect, test } from 'vitest';
import type { StudentOperation } from '../../../shared/ledger.ts';
import { groupByDay } from './operations-groups.ts';

const op = (id: string, createdAt: string): StudentOperation => ({
  id: `00000000-0000-4000-8000-00000000000${id}`,
  currency: 'meritus',
  type: 'reward',
  kind: 'reward',
  amount: 5,
  signedAmount: 5,
  description: 'Participação',
  reversedBy: null,
  reversesEntryId: null,
  counterpart: null,
  actorName: 'Prof. Helena',
  createdAt,
});

test('groups by the day in Brasília: today, yesterday, then dates', () => {
  const now = new Date('2026-03-10T15:00:00Z');
  const groups = groupByDay(
    [op('1', '2026-03-10T12:00:00Z'), op('2', '2026-03-10T02:00:00Z'), op('3', '2026-03-09T12:00:00Z'), op('4', '2026-03-01T12:00:00Z')],
    now,
  );
  // 02:00 UTC on the 10th is still the 9th in Brasília (UTC−3).
  expect(groups.map((group) => [group.label, group.operations.length])).toEqual([
    ['Hoje', 1],
    ['Ontem', 2],
    ['01/03/2026', 1],
  ]);
});
