import { describe, expect, test } from 'vitest';
import { shareOfTop, visibleRange } from './ranking-figures.ts';

describe('ranking bars', () => {
  test('relative to the highest balance; empty while nobody has Méritus', () => {
    expect([400, 200, 100, 0].map((meritus) => shareOfTop(meritus, 400))).toEqual([100, 50, 25, 0]);
    expect(shareOfTop(0, 0)).toBe(0);
  });
});

describe('virtual rows', () => {
  test('renders the rows in view plus the overscan, clamped to the list', () => {
    const base = { count: 2000, rowHeight: 64, listTop: 500, viewportHeight: 900, overscan: 5 };
    expect(visibleRange({ ...base, scrollY: 0 })).toEqual({ start: 0, end: 12, firstVisible: 0, lastVisible: 7 });
    expect(visibleRange({ ...base, scrollY: 500 + 64 * 1000 })).toEqual({ start: 995, end: 1020, firstVisible: 1000, lastVisible: 1015 });
    expect(visibleRange({ ...base, scrollY: 500 + 64 * 1995 })).toEqual({ start: 1990, end: 2000, firstVisible: 1995, lastVisible: 2000 });
  });
});
