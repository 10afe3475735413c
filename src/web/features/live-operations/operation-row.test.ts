import { describe, expect, test } from 'vitest';
import type { PartyView } from '../../../shared/ledger.ts';
import { categoryBadge, formatOperationAmount } from './operation-row.tsx';

describe('live feed amounts', () => {
  test('awards carry +, deductions -, transfers no sign; the unit follows the currency', () => {
    expect(formatOperationAmount({ amount: 1500, type: 'reward', from: null, to: null, currency: 'meritus' })).toBe('+1.500 M$');
    expect(formatOperationAmount({ amount: 20, type: 'penalty', from: null, to: null, currency: 'meritus' })).toBe('-20 M$');
    expect(formatOperationAmount({ amount: 30, type: 'transfer', from: null, to: null, currency: 'meritus' })).toBe('30 M$');
    expect(formatOperationAmount({ amount: 1, type: 'reward', from: null, to: null, currency: 'estelecas' })).toBe('+1 Esteleca');
    expect(formatOperationAmount({ amount: 4, type: 'penalty', from: null, to: null, currency: 'estelecas' })).toBe('-4 Estelecas');
  });

  test('a reversal takes its sign from its parties: taken back from a student, given back to one, or moved back', () => {
    const student: PartyView = { id: '00000000-0000-4000-8000-000000000001', studentId: '1', name: 'Ana', removed: false };
    expect(formatOperationAmount({ amount: 5, type: 'reversal', currency: 'meritus', from: student, to: null })).toBe('-5 M$');
    expect(formatOperationAmount({ amount: 5, type: 'reversal', currency: 'meritus', from: null, to: student })).toBe('+5 M$');
    expect(formatOperationAmount({ amount: 5, type: 'reversal', currency: 'meritus', from: student, to: student })).toBe('5 M$');
  });

  test('a refused attempt sent without a valid amount shows a dash', () => {
    expect(formatOperationAmount({ amount: null, type: 'transfer', from: null, to: null, currency: 'meritus' })).toBe('—');
  });
});

test('a staff operation is named with the award form’s word for its type; the others by their category', () => {
  expect(categoryBadge({ category: 'award', type: 'admin_add' })).toBe('Adição');
  expect(categoryBadge({ category: 'award', type: 'reward' })).toBe('Recompensa');
  expect(categoryBadge({ category: 'deduction', type: 'admin_remove' })).toBe('Remoção');
  expect(categoryBadge({ category: 'deduction', type: 'penalty' })).toBe('Penalidade');
  expect(categoryBadge({ category: 'student_transfer', type: 'transfer' })).toBe('Transferência');
  expect(categoryBadge({ category: 'reversal', type: 'reversal' })).toBe('Estorno');
});
