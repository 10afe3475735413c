import { expect, test } from 'vitest';
import { reversalRefusal } from './ledger.ts';

const NOW = new Date('2026-11-28T12:00:00Z');
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000).toISOString();
const teacher = { id: 'prof', coordinator: false };
const coordination = { id: 'coord', coordinator: true };
const award = { type: 'reward' as const, actorAdminId: 'prof', createdAt: hoursAgo(1), reversed: false };

test('a teacher reverses their own operation within 24 hours, and nothing else', () => {
  expect(reversalRefusal(teacher, award, NOW)).toBeNull();
  expect(reversalRefusal(teacher, { ...award, createdAt: hoursAgo(24) }, NOW)).toBeNull();
  expect(reversalRefusal(teacher, { ...award, createdAt: hoursAgo(24.01) }, NOW)).toBe('reversal_not_own');
  expect(reversalRefusal(teacher, { ...award, actorAdminId: 'colega' }, NOW)).toBe('reversal_not_own');
  expect(reversalRefusal(teacher, { ...award, actorAdminId: null }, NOW)).toBe('reversal_not_own');
  expect(reversalRefusal(teacher, { ...award, type: 'transfer', actorAdminId: null }, NOW)).toBe('reversal_transfer_coordination');
});

test('the coordination reverses any operation, however old; nobody reverses a reversal or a row twice', () => {
  expect(reversalRefusal(coordination, { ...award, actorAdminId: null, createdAt: hoursAgo(24 * 90) }, NOW)).toBeNull();
  expect(reversalRefusal(coordination, { ...award, type: 'transfer', actorAdminId: null }, NOW)).toBeNull();
  expect(reversalRefusal(coordination, { ...award, reversed: true }, NOW)).toBe('already_reversed');
  expect(reversalRefusal(teacher, { ...award, reversed: true }, NOW)).toBe('already_reversed');
  expect(reversalRefusal(coordination, { ...award, type: 'reversal' }, NOW)).toBe('reversal_not_reversible');
});

test("nobody reverses the Loja's rows: an order or a goal gives them back its own way", () => {
  for (const type of ['purchase', 'refund', 'contribution'] as const) {
    expect(reversalRefusal(coordination, { ...award, type, actorAdminId: null }, NOW)).toBe('reversal_store_entry');
  }
});
