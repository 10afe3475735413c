import { describe, expect, test } from 'vitest';
import type { PublicStudent } from '../../../shared/auth.ts';
import { rankStudents, visibleRange } from './ranking-figures.ts';

const student = (name: string, meritus: number): PublicStudent => ({
  id: `00000000-0000-4000-8000-${String(meritus).padStart(12, '0')}`,
  studentId: name,
  name,
  grade: '1º EM - Turma A',
  photo: null,
  meritus,
  estelecas: 0,
  tags: [],
});

describe('ranking rows', () => {
  test('positions with ties and bars relative to the highest balance', () => {
    const rows = rankStudents([student('Ana', 400), student('Bia', 200), student('Caio', 200), student('Duda', 100), student('Eli', 0)]);
    expect(rows.map((row) => [row.name, row.position, row.share])).toEqual([
      ['Ana', 1, 100],
      ['Bia', 2, 50],
      ['Caio', 2, 50],
      ['Duda', 4, 25],
      ['Eli', 5, 0],
    ]);
  });

  test('nobody has Méritus yet: everyone first, empty bars', () => {
    expect(rankStudents([student('Ana', 0), student('Bia', 0)]).map((row) => [row.position, row.share])).toEqual([
      [1, 0],
      [1, 0],
    ]);
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
