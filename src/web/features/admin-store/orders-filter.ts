import { ORDER_STATUSES, type AdminOrdersQuery, type OrderStatus } from '../../../shared/store.ts';

/** The queue's filters as the address keeps them (`?aba=pedidos&status=…`): linkable, and kept by back and forward. */
export type OrdersFilter = {
  /** 'all': every status; the queue opens on the pending orders. */
  status: OrderStatus | 'all';
  turma: string;
  item: string;
  from: string;
  to: string;
  q: string;
  page: number;
};

export const ORDERS_PAGE_SIZE = 50;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function ordersFilterOf(params: URLSearchParams): OrdersFilter {
  const status = params.get('status');
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return DAY.test(value) ? value : '';
  };
  const page = Number(params.get('pagina'));
  return {
    status: status === 'all' || ORDER_STATUSES.includes(status as OrderStatus) ? (status as OrderStatus | 'all') : 'pending',
    turma: params.get('turma') ?? '',
    item: params.get('item') ?? '',
    from: day('de'),
    to: day('ate'),
    q: params.get('busca') ?? '',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** Writes the filters into the address's params, leaving the others (the tab) as they are; defaults are left out. */
export function writeOrdersFilter(params: URLSearchParams, filter: OrdersFilter): URLSearchParams {
  const next = new URLSearchParams(params);
  const entries: [string, string][] = [
    ['status', filter.status === 'pending' ? '' : filter.status],
    ['turma', filter.turma],
    ['item', filter.item],
    ['de', filter.from],
    ['ate', filter.to],
    ['busca', filter.q],
    ['pagina', filter.page > 1 ? String(filter.page) : ''],
  ];
  for (const [name, value] of entries) {
    if (value) next.set(name, value);
    else next.delete(name);
  }
  return next;
}

/** The request's query for the filters (without the page: the caller adds it and its size). */
export function ordersQueryOf(filter: OrdersFilter, q: string): AdminOrdersQuery {
  return {
    ...(filter.status !== 'all' && { status: filter.status }),
    ...(filter.turma && { turma: filter.turma }),
    ...(filter.item && { item: filter.item }),
    ...(filter.from && { from: filter.from }),
    ...(filter.to && { to: filter.to }),
    ...(q && { q }),
  };
}
