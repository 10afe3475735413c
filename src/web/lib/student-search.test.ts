import { describe, expect, test } from 'vitest';
import { nextPage } from './student-search.ts';

describe('the next page of a student search', () => {
  test('follows while the pages loaded hold fewer students than the search found', () => {
    expect(nextPage({ items: [], total: 120, page: 1, size: 50 })).toBe(2);
    expect(nextPage({ items: [], total: 120, page: 2, size: 50 })).toBe(3);
    expect(nextPage({ items: [], total: 120, page: 3, size: 50 })).toBeUndefined();
    expect(nextPage({ items: [], total: 100, page: 2, size: 50 })).toBeUndefined();
    expect(nextPage({ items: [], total: 0, page: 1, size: 50 })).toBeUndefined();
  });
});
