import { describe, expect, test } from 'vitest';
import type { AdminStudent } from '../../../shared/admin-students.ts';
import { nextExpiry, runningTags } from './students-filter.ts';

function student(overrides: Partial<AdminStudent>): AdminStudent {
  return {
    id: crypto.randomUUID(),
    studentId: '2024001',
    name: 'Ana Souza',
    grade: '1º EM - Turma A',
    photo: null,
    photoThumb: null,
    photoSource: null,
    meritus: 0,
    estelecas: 0,
    totalEarned: 0,
    tags: [],
    email: null,
    birthDate: null,
    lastLogin: null,
    rankingHidden: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('tag expiry', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  const withTags = student({
    tags: [
      { kind: 'leader', assignedAt: '2026-11-15T12:00:00Z', expiresAt: '2026-11-22T11:59:59Z' },
      { kind: 'angel', assignedAt: '2026-11-20T12:00:00Z', expiresAt: '2026-11-27T12:00:00Z' },
    ],
  });

  test('an expired tag stops showing at once', () => {
    expect(runningTags(withTags, now).map((tag) => tag.kind)).toEqual(['angel']);
  });

  test('the next expiry is the earliest one still ahead', () => {
    expect(nextExpiry([withTags, student({})], now)).toBe(Date.parse('2026-11-27T12:00:00Z'));
    expect(nextExpiry([student({})], now)).toBeNull();
  });
});
