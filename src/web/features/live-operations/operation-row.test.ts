import { describe, expect, test } from 'vitest';
import { formatOperationAmount } from './operation-row.tsx';

describe('live feed amounts', () => {
  test('awards carry +, deductions -, transfers no sign; the unit follows the currency', () => {
    expect(formatOperationAmount({ amount: 1500, category: 'award', currency: 'meritus' })).toBe('+1.500 M$');
    expect(formatOperationAmount({ amount: 20, category: 'deduction', currency: 'meritus' })).toBe('-20 M$');
    expect(formatOperationAmount({ amount: 30, category: 'student_transfer', currency: 'meritus' })).toBe('30 M$');
    expect(formatOperationAmount({ amount: 1, category: 'award', currency: 'estelecas' })).toBe('+1 Esteleca');
    expect(formatOperationAmount({ amount: 4, category: 'deduction', currency: 'estelecas' })).toBe('-4 Estelecas');
  });

  test('a refused attempt sent without a valid amount shows a dash', () => {
    expect(formatOperationAmount({ amount: null, category: 'student_transfer', currency: 'meritus' })).toBe('—');
  });
});
