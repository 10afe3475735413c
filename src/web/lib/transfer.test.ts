import { describe, expect, test } from 'vitest';
import { exceedsBalance, validateTransfer } from './transfer.ts';

const recipientId = '0b6c5f0e-4d0a-4c39-9d7a-2f4f1f7f2a11';

describe('Méritus transfer form', () => {
  const check = (recipient: string | null, amount: string, description = '') =>
    validateTransfer('meritus', { recipientId: recipient, amount, description }, 100);

  test('the spec messages, in order', () => {
    expect(check(null, '10')).toEqual({ ok: false, message: 'Preencha todos os campos obrigatórios' });
    expect(check(recipientId, '')).toEqual({ ok: false, message: 'Preencha todos os campos obrigatórios' });
    expect(check(recipientId, '0')).toEqual({ ok: false, message: 'O valor deve ser maior que zero' });
    expect(check(recipientId, '-5')).toEqual({ ok: false, message: 'O valor deve ser maior que zero' });
    expect(check(recipientId, '2.5')).toEqual({ ok: false, message: 'O valor deve ser um número inteiro' });
    expect(check(recipientId, '101')).toEqual({ ok: false, message: 'Saldo insuficiente' });
  });

  test('a valid transfer keeps the description only when written', () => {
    expect(check(recipientId, '100', '  ')).toEqual({ ok: true, input: { recipientId, amount: 100 } });
    expect(check(recipientId, '7', ' Obrigado! ')).toEqual({ ok: true, input: { recipientId, amount: 7, description: 'Obrigado!' } });
  });

  test('the inline balance check', () => {
    expect(exceedsBalance('101', 100)).toBe(true);
    expect(exceedsBalance('100', 100)).toBe(false);
    expect(exceedsBalance('', 0)).toBe(false);
    expect(exceedsBalance(' 2,5 ', 2)).toBe(true);
  });
});

test('Estelecas transfer: the spec messages and a valid quantity', () => {
  const check = (recipient: string | null, amount: string) => validateTransfer('estelecas', { recipientId: recipient, amount }, 10);
  expect(check(null, '3')).toEqual({ ok: false, message: 'Preencha todos os campos' });
  expect(check(recipientId, '')).toEqual({ ok: false, message: 'Preencha todos os campos' });
  for (const amount of ['0', '-1', '1.5', '11'])
    expect(check(recipientId, amount)).toEqual({ ok: false, message: 'Quantidade inválida ou insuficiente' });
  expect(check(recipientId, '10')).toEqual({ ok: true, input: { recipientId, amount: 10 } });
});
