import { expect, test } from 'vitest';
import {
  ADMIN_OPERATION_TYPES,
  directionOf,
  isCredit,
  LEDGER_TYPES,
  OPERATION_KIND_LABELS,
  OPERATION_KINDS,
  OPERATION_TYPE_LABELS,
  operationKind,
  typesThat,
} from './ledger-types.ts';

test('every list, label and kind comes from the one definition of the types', () => {
  expect(LEDGER_TYPES).toEqual(['transfer', 'admin_add', 'admin_remove', 'reward', 'penalty']);
  expect(ADMIN_OPERATION_TYPES).toEqual(['admin_add', 'admin_remove', 'reward', 'penalty']);
  expect(typesThat(ADMIN_OPERATION_TYPES, 'raises')).toEqual(['admin_add', 'reward']);
  expect(typesThat(ADMIN_OPERATION_TYPES, 'lowers')).toEqual(['admin_remove', 'penalty']);
  expect(LEDGER_TYPES.map(directionOf)).toEqual(['moves', 'raises', 'lowers', 'raises', 'lowers']);
  expect(LEDGER_TYPES.filter(isCredit)).toEqual(['admin_add', 'reward']);
  expect(OPERATION_TYPE_LABELS).toEqual({ transfer: 'Transferência', admin_add: 'Adição', admin_remove: 'Remoção', reward: 'Recompensa', penalty: 'Penalidade' });
  expect(OPERATION_KINDS).toEqual(['transfer_in', 'transfer_out', 'admin_add', 'admin_remove', 'reward', 'penalty']);
  expect(OPERATION_KIND_LABELS).toEqual({
    transfer_in: 'Transferência recebida',
    transfer_out: 'Transferência enviada',
    admin_add: 'Adição',
    admin_remove: 'Remoção',
    reward: 'Recompensa',
    penalty: 'Penalidade',
  });
});

test("a row's kind is the side its student is on for a transfer, else its type", () => {
  expect(operationKind('transfer', true)).toBe('transfer_in');
  expect(operationKind('transfer', false)).toBe('transfer_out');
  expect(operationKind('reward', true)).toBe('reward');
  expect(operationKind('penalty', false)).toBe('penalty');
});
