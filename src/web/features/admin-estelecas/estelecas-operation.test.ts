import { expect, test } from 'vitest';
import { validateEstelecasOperation } from './estelecas-operation.ts';

const student = { id: '0b6c5f0e-4d0a-4c39-9d7a-2f4f1f7f2a11', estelecas: 4 };
const draft = { type: 'reward' as const, quantity: '3', description: ' Monitoria ' };

test('adding or removing Estelecas: every field, a whole quantity of at least 1', () => {
  const missing = { ok: false, message: 'Preencha todos os campos' };
  expect(validateEstelecasOperation('add', draft, undefined)).toEqual(missing);
  for (const quantity of ['', '0', '-2', '1.5', 'abc']) expect(validateEstelecasOperation('add', { ...draft, quantity }, student)).toEqual(missing);
  expect(validateEstelecasOperation('add', { ...draft, description: ' ' }, student)).toEqual(missing);
  expect(validateEstelecasOperation('add', { ...draft, quantity: '40' }, student)).toEqual({
    ok: true,
    request: { studentId: student.id, input: { type: 'reward', amount: 40, description: 'Monitoria' } },
  });
});

test('a removal cannot take more Estelecas than the student has', () => {
  expect(validateEstelecasOperation('remove', { ...draft, type: 'penalty', quantity: '5' }, student)).toEqual({
    ok: false,
    message: 'Não é possível remover mais Estelecas do que o estudante possui',
  });
  expect(validateEstelecasOperation('remove', { ...draft, type: 'penalty', quantity: '4' }, student)).toEqual({
    ok: true,
    request: { studentId: student.id, input: { type: 'penalty', amount: 4, description: 'Monitoria' } },
  });
});
