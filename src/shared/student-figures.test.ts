import { describe, expect, test } from 'vitest';
import { competitionPositions, estelecasAchievements, goalPercent, goalRemaining, latestTagPerKind } from './student-figures.ts';
import { daysRemaining, formatDate, formatDateTime, formatMeritus, formatSignedMeritus } from './format.ts';

describe('rank with ties (competition ranking)', () => {
  test('ties share a position and the next one skips', () => {
    const balances = [300, 120, 120, 80, 0, 0];
    expect(competitionPositions(balances)).toEqual([1, 2, 2, 4, 5, 5]);
  });

  test('everyone tied is first; a single student is first; an empty list yields nothing', () => {
    expect(competitionPositions([10, 10, 10])).toEqual([1, 1, 1]);
    expect(competitionPositions([0])).toEqual([1]);
    expect(competitionPositions([])).toEqual([]);
  });
});

describe('goal percentage of the 2.000 M$ goal', () => {
  test.each([
    [0, 0],
    [1, 0],
    [19, 0],
    [20, 1],
    [1500, 75],
    [1999, 99],
    [2000, 100],
    [5000, 100],
  ])('%i M$ → %i%%', (value, percent) => {
    expect(goalPercent(value)).toBe(percent);
  });

  test('what is missing never goes below zero', () => {
    expect(goalRemaining(1234)).toBe(766);
    expect(goalRemaining(2500)).toBe(0);
  });
});

describe('days remaining of a tag, rounded up', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  test.each([
    ['2026-03-17T12:00:00Z', 7],
    ['2026-03-17T11:59:59Z', 7],
    ['2026-03-10T12:00:01Z', 1],
    ['2026-03-11T12:00:00Z', 1],
    ['2026-03-11T12:00:01Z', 2],
    ['2026-03-10T12:00:00Z', 0],
    ['2026-03-01T00:00:00Z', 0],
  ])('expires %s → %i', (expiresAt, days) => {
    expect(daysRemaining(expiresAt, now)).toBe(days);
  });
});

describe('one tag per kind, newest holder first', () => {
  test('keeps the newest of each kind and orders by assignment, newest first', () => {
    const tags = [
      { id: 'a', kind: 'leader' as const, assignedAt: '2026-03-01T10:00:00.000Z' },
      { id: 'b', kind: 'angel' as const, assignedAt: '2026-03-03T10:00:00.000Z' },
      { id: 'c', kind: 'leader' as const, assignedAt: '2026-03-05T10:00:00.000Z' },
      { id: 'd', kind: 'counselor' as const, assignedAt: '2026-03-02T10:00:00.000Z' },
      { id: 'e', kind: 'angel' as const, assignedAt: '2026-03-02T09:00:00.000Z' },
    ];
    expect(latestTagPerKind(tags).map((tag) => tag.id)).toEqual(['c', 'b', 'd']);
    expect(latestTagPerKind([])).toEqual([]);
  });
});

describe('Estelecas achievements', () => {
  test('earned by the highest balance ever held; what is missing comes from the current balance', () => {
    expect(estelecasAchievements(0, 0).map((a) => [a.name, a.earned, a.missing])).toEqual([
      ['Primeira Esteleca', false, 1],
      ['Colecionador', false, 50],
      ['Mestre das Estelecas', false, 100],
    ]);
    expect(estelecasAchievements(60, 20).map((a) => [a.earned, a.missing])).toEqual([
      [true, 0],
      [true, 0],
      [false, 80],
    ]);
    expect(estelecasAchievements(100, 100).every((a) => a.earned)).toBe(true);
  });
});

describe('pt-BR formatting', () => {
  test('Méritus with thousands dots and signs', () => {
    expect(formatMeritus(1234)).toBe('1.234 M$');
    expect(formatMeritus(0)).toBe('0 M$');
    expect(formatMeritus(1_234_567)).toBe('1.234.567 M$');
    expect(formatSignedMeritus(50)).toBe('+50 M$');
    expect(formatSignedMeritus(-1200)).toBe('-1.200 M$');
  });

  test('dates: calendar days stay the same day, instants in Brasília time', () => {
    expect(formatDate('2010-03-14')).toBe('14/03/2010');
    expect(formatDate('2026-03-10T02:00:00Z')).toBe('09/03/2026');
    expect(formatDateTime('2026-03-10T17:05:00Z')).toBe('10/03/2026, 14:05');
  });
});
