import { expect, test } from 'vitest';
import { validateEstelecasTransfer } from './estelecas-form.ts';

const recipientId = '0b6c5f0e-4d0a-4c39-9d7a-2f4f1f7f2a11';

test('Estelecas transfer: the spec messages and a valid quantity', () => {
  expect(validateEstelecasTransfer({ recipientId: null, amount: '3' }, 10)).toEqual({ ok: false, message: 'Preencha todos os campos' });
  expect(validateEstelecasTransfer({ recipientId, amount: '' }, 10)).toEqual({ ok: false, message: 'Preencha todos os campos' });
  for (const amount of ['0', '-1', '1.5', '11']) {
    expect(validateEstelecasTransfer({ recipientId, amount }, 10)).toEqual({ ok: false, message: 'Quantidade inválida ou insuficiente' });
  }
  expect(validateEstelecasTransfer({ recipientId, amount: '10' }, 10)).toEqual({ ok: true, input: { recipientId, amount: 10 } });
});
