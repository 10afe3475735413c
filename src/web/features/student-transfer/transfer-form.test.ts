import { describe, expect, test } from 'vitest';
import { parseAmountText } from '../../../shared/validation.ts';
import { exceedsBalance, validateTransfer } from './transfer-form.ts';

const recipientId = '0b6c5f0e-4d0a-4c39-9d7a-2f4f1f7f2a11';

describe('Méritus transfer form', () => {
  test('the spec messages, in order', () => {
    expect(validateTransfer({ recipientId: null, amount: '10', description: '' }, 100)).toEqual({ ok: false, message: 'Preencha todos os campos obrigatórios' });
    expect(validateTransfer({ recipientId, amount: '', description: '' }, 100)).toEqual({ ok: false, message: 'Preencha todos os campos obrigatórios' });
    expect(validateTransfer({ recipientId, amount: '0', description: '' }, 100)).toEqual({ ok: false, message: 'O valor deve ser maior que zero' });
    expect(validateTransfer({ recipientId, amount: '-5', description: '' }, 100)).toEqual({ ok: false, message: 'O valor deve ser maior que zero' });
    expect(validateTransfer({ recipientId, amount: '2.5', description: '' }, 100)).toEqual({ ok: false, message: 'O valor deve ser um número inteiro' });
    expect(validateTransfer({ recipientId, amount: '101', description: '' }, 100)).toEqual({ ok: false, message: 'Saldo insuficiente' });
  });

  test('a valid transfer keeps the description only when written', () => {
    expect(validateTransfer({ recipientId, amount: '100', description: '  ' }, 100)).toEqual({ ok: true, input: { recipientId, amount: 100 } });
    expect(validateTransfer({ recipientId, amount: '7', description: ' Obrigado! ' }, 100)).toEqual({
      ok: true,
      input: { recipientId, amount: 7, description: 'Obrigado!' },
    });
  });

  test('the inline balance check', () => {
    expect(exceedsBalance('101', 100)).toBe(true);
    expect(exceedsBalance('100', 100)).toBe(false);
    expect(exceedsBalance('', 0)).toBe(false);
    expect(parseAmountText(' 12 ')).toBe(12);
    expect(parseAmountText('2,5')).toBe(2.5);
    expect(parseAmountText('  ')).toBeUndefined();
  });
});
