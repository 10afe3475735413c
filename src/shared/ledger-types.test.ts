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

// Written so that a new type passes here untouched: it only has to be defined.
test('every list, label and kind comes from the one definition of the types', () => {
  expect(Object.fromEntries(LEDGER_TYPES.map((type) => [type, directionOf(type)]))).toMatchObject({
    transfer: 'moves',
    admin_add: 'raises',
    admin_remove: 'lowers',
    reward: 'raises',
    penalty: 'lowers',
  });
  expect(ADMIN_OPERATION_TYPES).toEqual(['admin_add', 'admin_remove', 'reward', 'penalty']);
  expect(typesThat(ADMIN_OPERATION_TYPES, 'raises')).toEqual(['admin_add', 'reward']);
  expect(typesThat(ADMIN_OPERATION_TYPES, 'lowers')).toEqual(['admin_remove', 'penalty']);
  expect(LEDGER_TYPES.filter(isCredit)).toEqual(typesThat(LEDGER_TYPES, 'raises'));
  expect(OPERATION_TYPE_LABELS).toMatchObject({
    transfer: 'Transferência',
    admin_add: 'Adição',
    admin_remove: 'Remoção',
    reward: 'Recompensa',
    penalty: 'Penalidade',
  });
  expect(OPERATION_KIND_LABELS).toMatchObject({
    transfer_in: 'Transferência recebida',
    transfer_out: 'Transferência enviada',
    admin_add: 'Adição',
    admin_remove: 'Remoção',
    reward: 'Recompensa',
    penalty: 'Penalidade',
  });
  expect(OPERATION_KINDS).toEqual(LEDGER_TYPES.flatMap((type) => (directionOf(type) === 'moves' ? [`${type}_in`, `${type}_out`] : [type])));
  for (const kind of OPERATION_KINDS) expect(OPERATION_KIND_LABELS[kind], kind).toMatch(/\S/);
});

test("a row's kind is the side its student is on for a transfer, else its type", () => {
  expect(operationKind('transfer', true)).toBe('transfer_in');
  expect(operationKind('transfer', false)).toBe('transfer_out');
  expect(operationKind('reward', true)).toBe('reward');
  expect(operationKind('penalty', false)).toBe('penalty');
});
