import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import type { SelfStudent } from '../../shared/auth.ts';
import { goalPercent } from '../../shared/student-figures.ts';
import { BalanceCards } from './balance-cards.tsx';

const student: SelfStudent = {
  id: '00000000-0000-4000-8000-000000000001',
  studentId: '2024001',
  name: 'Ana Souza',
  grade: '1º EM - Turma A',
  photo: null,
  meritus: 138,
  estelecas: 12,
  tags: [],
  email: null,
  birthDate: null,
  totalEarned: 138,
  lastLogin: null,
  rankingHidden: false,
};

test("the sidebar's share of the goal is the dashboard's: 138 of 2.000 M$ is 6%, not 7% (rounded down, as the dashboard's card)", () => {
  const text = new DOMParser().parseFromString(
    renderToStaticMarkup(<BalanceCards student={student} rules={{ meritusGoal: 2000, estelecasBarScale: 100 }} />),
    'text/html',
  ).body.textContent;
  expect(goalPercent(138, 2000)).toBe(6);
  expect(text).toContain('Meta: 2.000 M$6%');
});
