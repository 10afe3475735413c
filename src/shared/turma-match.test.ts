import { describe, expect, test } from 'vitest';
import { GRADES } from './constants.ts';
import { matchTurma } from './turma-match.ts';

const SCHOOL = ['6º ano A', '7º ano A', '8º ano A', '8º ano B', '9º ano C', '1º EM - Turma A', '2º EM - Turma B'];

describe('matchTurma', () => {
  test.each(['8º ano B', '8º ANO B', '  8º ano b  '])('%j is the turma itself', (raw) => {
    expect(matchTurma(raw, SCHOOL)).toEqual({ kind: 'exact', turma: '8º ano B' });
  });

  test.each([
    '8º B',
    '8o B',
    '8° B',
    '8 ano b',
    '8ª B',
    '8ºB',
    '8B',
    '8  º   ano   B',
    '8º Ano  B',
    '8º anó B',
    '8o ano B',
    '8ª série B',
    '8 - B',
  ])('%j suggests 8º ano B', (raw) => {
    expect(matchTurma(raw, SCHOOL)).toEqual({ kind: 'suggested', turma: '8º ano B' });
  });

  test.each([
    ['1A', '1º EM - Turma A'],
    ['1 EM A', '1º EM - Turma A'],
    ['1º ano do Ensino Médio - Turma A', '1º EM - Turma A'],
    ['2EM-B', '2º EM - Turma B'],
    ['2ª série B', '2º EM - Turma B'],
    ['9C', '9º ano C'],
  ])('%j suggests %j', (raw, turma) => {
    expect(matchTurma(raw, SCHOOL)).toEqual({ kind: 'suggested', turma });
  });

  test.each(['8º C', '8º', 'B', 'Turma B', '', '   ', '5º Z', 'B8', '1º EM - Turma B', '6º EM A'])('%j matches no turma', (raw) => {
    expect(matchTurma(raw, SCHOOL)).toEqual({ kind: 'none' });
  });

  test('a text that fits two turmas suggests neither', () => {
    expect(matchTurma('8 A', ['8º ano A', '8ª série A'])).toEqual({ kind: 'none' });
    expect(matchTurma('1A', ['1º EM - Turma A', '1ª série EM A'])).toEqual({ kind: 'none' });
  });

  test('the level tells the Ensino Médio from the Fundamental when both have the number', () => {
    const both = ['1º ano A', '1º EM - Turma A'];
    expect(matchTurma('1 EM A', both)).toEqual({ kind: 'suggested', turma: '1º EM - Turma A' });
    expect(matchTurma('1º A', both)).toEqual({ kind: 'suggested', turma: '1º ano A' });
  });

  test.each([
    ['1º A', '1º EM - Turma A'],
    ['1° B', '1º EM - Turma B'],
    ['3a serie d', '3º EM - Turma D'],
    ['2o ano B', '2º EM - Turma B'],
    ['3º EM Turma A', '3º EM - Turma A'],
    ['  2 b  ', '2º EM - Turma B'],
  ])('the default turmas: %j suggests %j', (raw, turma) => {
    expect(matchTurma(raw, GRADES)).toEqual({ kind: 'suggested', turma });
  });

  test.each(['4A', '1E', '9º ano A', 'A1', 'Turma A', '1', '1º EM'])('the default turmas: %j matches none', (raw) => {
    expect(matchTurma(raw, GRADES)).toEqual({ kind: 'none' });
  });
});
