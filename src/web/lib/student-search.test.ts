import { expect, test } from 'vitest';
import { filterStudents } from './student-search.ts';

const students = [
  { name: 'João Pedro Araújo', studentId: '2024001', grade: '1º EM - Turma A' },
  { name: 'Maria Clara Souza', studentId: '2024015', grade: '2º EM - Turma B' },
  { name: 'Lucas Lima', studentId: '2024102', grade: '3º EM - Turma A' },
];

test('recipient search: name, matrícula or grade, ignoring case and accents', () => {
  const names = (query: string) => filterStudents(students, query).map((s) => s.name);
  expect(names('')).toHaveLength(3);
  expect(names('  ')).toHaveLength(3);
  expect(names('JOAO')).toEqual(['João Pedro Araújo']);
  expect(names('clara')).toEqual(['Maria Clara Souza']);
  expect(names('20241')).toEqual(['Lucas Lima']);
  expect(names('turma a')).toEqual(['João Pedro Araújo', 'Lucas Lima']);
  expect(names('2º em')).toEqual(['Maria Clara Souza']);
  expect(names('xyz')).toEqual([]);
});
