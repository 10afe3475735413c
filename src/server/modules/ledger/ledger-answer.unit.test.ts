import { expect, test } from 'vitest';
import { bulkOperationAnswer, operationAnswer } from './ledger-answer.ts';

const entry = {
  id: '0b6f4c1e-2f1d-4c53-9a43-6f1d2b8c9e01',
  currency: 'meritus',
  type: 'transfer',
  amount: 10,
  description: 'Lanche',
  createdAt: '2026-03-02T10:00:00.000Z',
};
const completed = {
  outcome: 'completed',
  status: 201,
  body: { entry, message: '10 M$ enviados', balances: { meritus: 90, totalEarned: 100, estelecas: 0 } },
};

test("ledger.sql's answers are read by their shape, whatever the outcome", () => {
  expect(operationAnswer.parse(completed)).toEqual(completed);
  expect(operationAnswer.parse({ ...completed, outcome: 'replayed' }).outcome).toBe('replayed');
  expect(operationAnswer.parse({ outcome: 'refused', reason: 'daily_cap', details: { remaining: 4 } })).toEqual({
    outcome: 'refused',
    reason: 'daily_cap',
    details: { remaining: 4 },
  });
  expect(operationAnswer.parse({ outcome: 'refused', reason: 'student_missing', details: null }).outcome).toBe('refused');
  expect(operationAnswer.parse({ outcome: 'conflict' })).toEqual({ outcome: 'conflict' });
  const bulk = {
    outcome: 'completed',
    status: 201,
    body: { count: 3, batchId: '5d2c8a9e-7b41-4f0e-8c3a-2e9f1b6d4a70', message: '5 M$ concedidos a 3 estudantes' },
  };
  expect(bulkOperationAnswer.parse(bulk)).toEqual(bulk);
});

test('an answer of another shape is an error, never a response', () => {
  expect(operationAnswer.safeParse({ ...completed, body: { entry, message: 'x' } }).success).toBe(false);
  expect(
    operationAnswer.safeParse({ ...completed, body: { ...completed.body, entry: { ...entry, type: 'not_a_ledger_type' } } }).success,
  ).toBe(false);
  expect(operationAnswer.safeParse({ outcome: 'refused', reason: 'no_reason', details: null }).success).toBe(false);
  expect(operationAnswer.safeParse({ outcome: 'done' }).success).toBe(false);
  expect(bulkOperationAnswer.safeParse(completed).success).toBe(false);
});
