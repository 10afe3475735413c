import { describe, expect, test } from 'vitest';
import { STORE_LIMITS } from '../../../shared/store.ts';
import { ordersFilterOf, ordersQueryOf, writeOrdersFilter } from './orders-filter.ts';
import { deliverBatches } from './store-queries.ts';

describe("the queue's filters in the address", () => {
  test('open on the pending orders, first page; a bad status, day or page falls back to the default', () => {
    expect(ordersFilterOf(new URLSearchParams())).toEqual({ status: 'pending', turma: '', item: '', from: '', to: '', q: '', page: 1 });
    expect(ordersFilterOf(new URLSearchParams('status=lost&de=01/12/2026&pagina=-2'))).toMatchObject({
      status: 'pending',
      from: '',
      page: 1,
    });
  });

  test('written and read back alike, the tab kept and the defaults left out', () => {
    const filter = { status: 'all', turma: 't1', item: 'i1', from: '2026-11-01', to: '2026-11-30', q: 'Ana', page: 3 } as const;
    const params = writeOrdersFilter(new URLSearchParams('aba=pedidos&status=refused'), filter);
    expect(params.get('aba')).toBe('pedidos');
    expect(ordersFilterOf(params)).toEqual(filter);
    const defaults = writeOrdersFilter(params, { ...filter, status: 'pending', turma: '', item: '', from: '', to: '', q: '', page: 1 });
    expect(defaults.toString()).toBe('aba=pedidos');
  });

  test("the request's query names only what is chosen", () => {
    const filter = ordersFilterOf(new URLSearchParams('status=all&turma=t1&ate=2026-11-30'));
    expect(ordersQueryOf(filter, 'Ana')).toEqual({ turma: 't1', to: '2026-11-30', q: 'Ana' });
  });
});

test("'Entregar todos' sends at most 500 orders a request", () => {
  const ids = Array.from({ length: 2 * STORE_LIMITS.deliverManyMax + 1 }, (_, i) => `id-${i}`);
  const batches = deliverBatches(ids);
  expect(batches.map((batch) => batch.length)).toEqual([500, 500, 1]);
  expect(batches.flat()).toEqual(ids);
  expect(deliverBatches([])).toEqual([]);
});
