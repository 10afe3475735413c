import { describe, expect, test } from 'vitest';
import type { AdminStudent } from '../../../shared/admin-students.ts';
import { buildSearchIndex, filterIndex, nextExpiry, runningTags } from './students-filter.ts';

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
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const list = [
  student({ name: 'João Araújo', studentId: '2024001', email: 'joao@escola.test', grade: '2º EM - Turma B' }),
  student({ name: 'Ana Beatriz', studentId: '2024002', email: 'ana.beatriz@escola.test', grade: '1º EM - Turma A' }),
  student({ name: 'Anabela Lima', studentId: '3031999', grade: '2º EM - Turma B' }),
];
const index = buildSearchIndex(list);

describe('filterIndex', () => {
  test.each([
    ['', '', ['João Araújo', 'Ana Beatriz', 'Anabela Lima']],
    ['joao', '', ['João Araújo']],
    ['ARAUJO', '', ['João Araújo']],
    ['2024002', '', ['Ana Beatriz']],
    ['beatriz@', '', ['Ana Beatriz']],
    ['ana 2º', '', ['Anabela Lima']],
    ['j', '', ['João Araújo']],
    ['a', '', ['João Araújo', 'Ana Beatriz', 'Anabela Lima']],
    ['l', '', ['Anabela Lima']],
    ['joao a', '', ['João Araújo']],
    ['turma b', '2º EM - Turma B', ['João Araújo', 'Anabela Lima']],
    ['ana', '2º EM - Turma B', ['Anabela Lima']],
    ['', '1º EM - Turma A', ['Ana Beatriz']],
    ['zzz', '', []],
  ])('%j in série %j', (query, grade, names) => {
    expect(filterIndex(index, query, grade).map((s) => s.name)).toEqual(names);
  });

  test('filters 2,000 students in a few milliseconds', () => {
    const many = Array.from({ length: 2000 }, (_, i) =>
      student({ name: `Aluno ${i} Silva`, studentId: String(2024000 + i), email: `aluno${i}@escola.test` }),
    );
    const big = buildSearchIndex(many);
    const start = performance.now();
    for (let i = 0; i < 20; i++) filterIndex(big, `silva ${i}`, '');
    expect((performance.now() - start) / 20).toBeLessThan(20);
    expect(filterIndex(big, '2024123', '')).toHaveLength(1);
  });
});

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
