import { describe, expect, it } from 'vitest';
import { compareText } from './text-order.ts';

describe('compareText', () => {
  it('puts accented names where a Brazilian reader expects them, whatever their case', () => {
    const expected = ['Ângelo', 'Érica', 'Ícaro', 'Ísis', 'Ítalo', 'Lívia', 'Luís', 'Vitória'];
    const shuffled = ['Vitória', 'Ítalo', 'Luís', 'Ísis', 'Lívia', 'Érica', 'Ícaro', 'Ângelo'];
    expect([...shuffled].sort(compareText)).toEqual(expected);
    expect(['vitória', 'ítalo', 'Ângelo', 'érica'].sort(compareText)).toEqual(['Ângelo', 'érica', 'ítalo', 'vitória']);
  });

  it('orders the ties of letters by their accent and case, the same way every time', () => {
    expect(['Joao', 'João', 'joão'].sort(compareText)).toEqual(['Joao', 'joão', 'João']);
  });
});
