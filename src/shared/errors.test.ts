import { expect, test } from 'vitest';
import { tooSoonMessage } from './errors.ts';

test("the school's interval between transfers is said in the largest whole unit", () => {
  expect(tooSoonMessage(1)).toBe('Aguarde 1 segundo entre uma transferência e outra.');
  expect(tooSoonMessage(90)).toBe('Aguarde 90 segundos entre uma transferência e outra.');
  expect(tooSoonMessage(60)).toBe('Aguarde 1 minuto entre uma transferência e outra.');
  expect(tooSoonMessage(5400)).toBe('Aguarde 90 minutos entre uma transferência e outra.');
  expect(tooSoonMessage(3600)).toBe('Aguarde 1 hora entre uma transferência e outra.');
  expect(tooSoonMessage(86_400)).toBe('Aguarde 24 horas entre uma transferência e outra.');
});
