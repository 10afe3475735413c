import { expect, test } from 'vitest';
import { budgetSummary, budgetText, parseBudget } from './budget-fields.tsx';

test('a budget as typed: blank is no limit, both blank is none at all, thousands as Brazilians write them', () => {
  expect(parseBudget({ meritus: '', estelecas: '' })).toEqual({ budget: null });
  expect(parseBudget({ meritus: ' 1.500 ', estelecas: '' })).toEqual({ budget: { meritus: 1500, estelecas: null } });
  expect(parseBudget({ meritus: '0', estelecas: '20' })).toEqual({ budget: { meritus: 0, estelecas: 20 } });
  expect(budgetText({ meritus: 1500, estelecas: null })).toEqual({ meritus: '1500', estelecas: '' });
  expect(budgetText(null)).toEqual({ meritus: '', estelecas: '' });
});

test("a budget refused says so beside its field, with the catalogue's message", () => {
  const message = 'O limite semanal deve ser um número inteiro de 0 a 1.000.000 (vazio: sem limite)';
  expect(parseBudget({ meritus: '-5', estelecas: '' })).toEqual({ errors: { meritus: message } });
  expect(parseBudget({ meritus: '10', estelecas: '2,5' })).toEqual({ errors: { estelecas: message } });
  expect(parseBudget({ meritus: 'muito', estelecas: '' })).toEqual({ errors: { meritus: message } });
});

test('a budget in words', () => {
  expect(budgetSummary(null)).toBe('Sem limite semanal');
  expect(budgetSummary({ meritus: 1500, estelecas: null })).toBe('Por semana: até 1.500 M$ · Estelecas sem limite');
  expect(budgetSummary({ meritus: null, estelecas: 1 })).toBe('Por semana: M$ sem limite · até 1 Esteleca');
});
