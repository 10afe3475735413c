import { describe, expect, test } from 'vitest';
import type { StudentStoreItem } from '../../../shared/store.ts';
import { calendarDayText, checkContribution, goalProgress, itemState, overLimit } from './store-figures.ts';

function item(overrides: Partial<StudentStoreItem> = {}): StudentStoreItem {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'Fone de ouvido',
    description: '',
    imageId: null,
    price: 200,
    currency: 'meritus',
    stock: null,
    limit: null,
    availableFrom: null,
    availableUntil: null,
    turmaIds: null,
    category: 'material',
    goal: null,
    deadline: null,
    active: true,
    stockLeft: null,
    limitLeft: null,
    raised: null,
    myContribution: null,
    ...overrides,
  };
}

const rich = { meritus: 1000, estelecas: 50 };

describe("an item's card", () => {
  test('plenty of stock and no limit: nothing to say, nothing in the way', () => {
    expect(itemState(item({ stock: 20, stockLeft: 10 }), rich)).toEqual({ stockText: null, limitText: null, blocked: null, missing: null });
  });

  test("the last units, then 'Esgotado', which blocks the purchase", () => {
    expect(itemState(item({ stock: 10, stockLeft: 3 }), rich).stockText).toBe('Últimas 3 unidades');
    expect(itemState(item({ stock: 10, stockLeft: 1 }), rich).stockText).toBe('Última unidade');
    expect(itemState(item({ stock: 10, stockLeft: 0 }), rich)).toMatchObject({ stockText: 'Esgotado', blocked: 'soldOut' });
  });

  test('the limit left in its period, then the limit reached', () => {
    const weekly = { count: 2, period: 'week' } as const;
    expect(itemState(item({ limit: weekly, limitLeft: 1 }), rich)).toMatchObject({
      limitText: 'Você pode comprar mais 1 esta semana',
      blocked: null,
    });
    expect(itemState(item({ limit: { count: 1, period: 'ever' }, limitLeft: 1 }), rich).limitText).toBe('Você pode comprar mais 1');
    expect(itemState(item({ limit: weekly, limitLeft: 0 }), rich)).toMatchObject({
      limitText: 'Limite de 2 por semana atingido',
      blocked: 'limit',
    });
  });

  test("short of the price: what is missing in the item's currency and the balance's share of it", () => {
    expect(itemState(item({ price: 500 }), { meritus: 310, estelecas: 0 })).toMatchObject({
      blocked: 'short',
      missing: { amount: 190, text: 'Faltam 190 M$', percent: 62 },
    });
    expect(itemState(item({ price: 60, currency: 'estelecas' }), rich).missing).toEqual({
      amount: 10,
      text: 'Faltam 10 Estelecas',
      percent: 83,
    });
    expect(itemState(item({ price: 1000 }), rich).missing).toBeNull();
  });

  test('sold out says so before the balance does', () => {
    expect(itemState(item({ price: 5000, stock: 1, stockLeft: 0 }), rich).blocked).toBe('soldOut');
  });
});

describe('a turma goal', () => {
  test('progress rounded down, what is left, reached only at the goal', () => {
    expect(goalProgress({ goal: 3000, raised: 1499 })).toEqual({ percent: 49, left: 1501, reached: false });
    expect(goalProgress({ goal: 3000, raised: 3000 })).toEqual({ percent: 100, left: 0, reached: true });
  });

  test('a contribution is checked as a transfer is, then against what the goal still needs', () => {
    expect(checkContribution('', 100, 50)).toEqual({ ok: false, message: 'Preencha todos os campos obrigatórios' });
    expect(checkContribution('0', 100, 50)).toEqual({ ok: false, message: 'O valor deve ser maior que zero' });
    expect(checkContribution('1,5', 100, 50)).toEqual({ ok: false, message: 'O valor deve ser um número inteiro' });
    expect(checkContribution('150', 100, 500)).toEqual({ ok: false, message: 'Saldo insuficiente' });
    expect(checkContribution('60', 100, 50)).toEqual({ ok: false, message: 'A contribuição passa do que falta para a meta' });
    expect(checkContribution('1.000', 2000, 5000)).toEqual({ ok: true, amount: 1000 });
    expect(overLimit('150', 100, 500)).toBe('Saldo insuficiente');
    expect(overLimit('60', 100, 50)).toBe('A contribuição passa do que falta para a meta');
    expect(overLimit('abc', 100, 50)).toBeUndefined();
  });

  test('a deadline is written as the calendar day it is', () => {
    expect(calendarDayText('2026-12-05')).toBe('05/12/2026');
  });
});
