import { expect, test } from 'vitest';
import { proposeTurmaMapping, rolloverSummary, schoolYearInput } from './school-year.ts';

const turmas = (names: string[]) => names.map((name, index) => ({ id: `t${index}`, name }));

test('the proposed mapping moves each turma to the next grade of the same letter, and the last year of the Ensino Médio to formados', () => {
  const list = turmas(['1º EM - Turma A', '2º EM - Turma A', '3º EM - Turma A', '1º EM - Turma B', '3º EM - Turma B']);
  expect(proposeTurmaMapping(list)).toEqual({ t0: 't1', t1: 't2', t2: 'graduated', t4: 'graduated' });
});

test('6º ano → 7º ano, 9º ano → 1º EM, séries and spellings without º; names that say nothing and retired turmas are left out', () => {
  const list = [
    ...turmas(['6º ano B', '7º ano B', '9º Ano A', '1º EM A', '2ª série', '3ª série', '8o ano', '9o ano', 'Robótica', '7° ano C']),
    { id: 'r', name: '8º ano C', retired: true },
  ];
  expect(proposeTurmaMapping(list)).toEqual({ t0: 't1', t2: 't3', t4: 't5', t5: 'graduated', t6: 't7' });
  expect(proposeTurmaMapping(turmas(['1ª série', '2ª série']))).toEqual({ t0: 't1' });
});

test('the summary says what changes, as the coordination reads it', () => {
  const counts = { moving: 312, staying: 4, graduating: 58, leaving: 0, balancesClosed: 370, meritusClosed: 41_230, estelecasClosed: 0 };
  expect(rolloverSummary(counts)).toBe('312 alunos mudam de turma, 58 se formam, 370 saldos encerrados, total 41.230 M$');
  expect(rolloverSummary({ ...counts, moving: 1, graduating: 1, leaving: 2, balancesClosed: 0, meritusClosed: 0 })).toBe(
    '1 aluno muda de turma, 1 se forma, 2 saem da escola, 0 saldos encerrados',
  );
});

test('a year’s form: each refusal names its field', () => {
  const base = {
    name: 'Ano letivo 2027',
    startDate: '2027-02-01',
    endDate: '2027-12-15',
    periodKind: 'trimestre',
    periods: [
      { startDate: '2027-02-01', endDate: '2027-05-10' },
      { startDate: '2027-05-11', endDate: '2027-08-31' },
      { startDate: '2027-09-01', endDate: '2027-12-15' },
    ],
  };
  expect(schoolYearInput.safeParse(base).success).toBe(true);
  const outside = schoolYearInput.safeParse({ ...base, endDate: '2027-12-01' });
  expect(outside.error?.issues[0]).toMatchObject({ message: 'school_period_outside_year', path: ['periods', 2, 'startDate'] });
  const badDay = schoolYearInput.safeParse({ ...base, startDate: '2027-02-30' });
  expect(badDay.error?.issues[0]).toMatchObject({ message: 'school_year_invalid_date', path: ['startDate'] });
});
