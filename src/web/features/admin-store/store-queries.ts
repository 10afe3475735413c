import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { POLL_MS } from '../../../shared/constants.ts';
import { routes } from '../../../shared/contract/routes.ts';
import {
  STORE_LIMITS,
  type AdminOrdersQuery,
  type AdminStoreItem,
  type DeliverOrdersResult,
  type OrderDecisionResult,
  type StoreItemInput,
  type StoreItemUpdate,
} from '../../../shared/store.ts';
import { call, type ApiError } from '../../lib/api.ts';
import { useIdempotentMutation } from '../../lib/idempotency.ts';
import { useFallbackInterval, useLiveQuery } from '../../lib/live-query.ts';
import { invalidateReads, readOf, routeKey } from '../../lib/query-keys.ts';

const { store } = routes;

/** Orders change the catalogue's counts (stock left, pending) as well as the queue. */
const AFTER_ORDER_CHANGE = [store.orders, store.adminItems] as const;

/** The whole catalogue in its order, with each item's stock left, orders and a goal's progress; pushed events refresh it. */
export function useAdminStoreItems() {
  return useLiveQuery(readOf(store.adminItems), POLL_MS.dashboard);
}

/** A page of the queue; the last page stays on screen until the next arrives. */
export function useAdminOrders(query: AdminOrdersQuery) {
  const read = readOf(store.orders, { query });
  return useQuery({ ...read, placeholderData: keepPreviousData, refetchInterval: useFallbackInterval(POLL_MS.dashboard) });
}

/** Puts an item's new state into the cached catalogue at once; the read that follows places it (a new item, a new order). */
function replaceItem(client: QueryClient, item: AdminStoreItem): void {
  client.setQueriesData<AdminStoreItem[]>({ queryKey: routeKey(store.adminItems) }, (items) =>
    items?.map((current) => (current.id === item.id ? item : current)),
  );
}

export function useCreateItem() {
  const client = useQueryClient();
  return useMutation<AdminStoreItem, ApiError, StoreItemInput>({
    mutationFn: (input) => call(store.createItem, { body: input }),
    onSuccess: () => invalidateReads(client, [store.adminItems]),
  });
}

export function useUpdateItem() {
  const client = useQueryClient();
  return useMutation<AdminStoreItem, ApiError, { id: string; change: StoreItemUpdate }>({
    mutationFn: ({ id, change }) => call(store.updateItem, { params: { id }, body: change }),
    onSuccess: (item) => {
      replaceItem(client, item);
      invalidateReads(client, [store.adminItems]);
    },
  });
}

/**
 * Moves an item to a place of the catalogue: the list shows the new order at once and is read again after (the others
 * moved to make room); on a refusal it is read again as it is.
 */
export function useMoveItem() {
  const client = useQueryClient();
  return useMutation<AdminStoreItem, ApiError, { id: string; position: number }>({
    mutationFn: ({ id, position }) => call(store.updateItem, { params: { id }, body: { position } }),
    onMutate: async ({ id, position }) => {
      await client.cancelQueries({ queryKey: routeKey(store.adminItems) });
      client.setQueriesData<AdminStoreItem[]>({ queryKey: routeKey(store.adminItems) }, (items) => {
        if (!items) return items;
        const moving = items.find((item) => item.id === id);
        if (!moving) return items;
        const rest = items.filter((item) => item.id !== id);
        return [...rest.slice(0, position), moving, ...rest.slice(position)];
      });
    },
    onSettled: () => invalidateReads(client, [store.adminItems]),
  });
}

export function useDeleteItem() {
  const client = useQueryClient();
  return useMutation<{ deleted: boolean; deactivated: boolean; message: string }, ApiError, AdminStoreItem>({
    mutationFn: (item) => call(store.deleteItem, { params: { id: item.id } }),
    onSuccess: (result, item) => {
      client.setQueriesData<AdminStoreItem[]>({ queryKey: routeKey(store.adminItems) }, (items) =>
        result.deleted
          ? items?.filter((current) => current.id !== item.id)
          : items?.map((current) => (current.id === item.id ? { ...current, active: false } : current)),
      );
      invalidateReads(client, [store.adminItems]);
    },
  });
}

export function useDeliverOrder() {
  const client = useQueryClient();
  return useMutation<OrderDecisionResult, ApiError, string>({
    mutationFn: (id) => call(store.deliver, { params: { id } }),
    onSettled: () => invalidateReads(client, [...AFTER_ORDER_CHANGE]),
  });
}

/** Refusing gives the price back: idempotent like every operation that moves points. */
export function useRefuseOrder(handlers: { onSuccess: (result: OrderDecisionResult) => void; onError: (error: ApiError) => void }) {
  const client = useQueryClient();
  return useIdempotentMutation<{ id: string; reason: string }, OrderDecisionResult>({
    mutationFn: ({ id, reason }, idempotencyKey) => call(store.refuse, { params: { id }, body: { reason }, idempotencyKey }),
    onSuccess: (result) => {
      invalidateReads(client, [...AFTER_ORDER_CHANGE]);
      handlers.onSuccess(result);
    },
    onError: (error) => {
      invalidateReads(client, [...AFTER_ORDER_CHANGE]);
      handlers.onError(error);
    },
  });
}

/** Splits ids into the requests POST /api/admin/store/orders/deliver takes (at most STORE_LIMITS.deliverManyMax each). */
export function deliverBatches(ids: readonly string[]): string[][] {
  const batches: string[][] = [];
  for (let start = 0; start < ids.length; start += STORE_LIMITS.deliverManyMax)
    batches.push(ids.slice(start, start + STORE_LIMITS.deliverManyMax));
  return batches;
}

/** The page size 'Entregar todos' reads the filter's pending orders with: the most the server gives in one page. */
const GATHER_PAGE_SIZE = 200;

/** The ids of every pending order the filter matches, read page by page (the queue's own filter, status set to pending). */
export async function pendingIdsOf(filter: AdminOrdersQuery, signal?: AbortSignal): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const answer = await call(store.orders, {
      query: { ...filter, status: 'pending', page, pageSize: GATHER_PAGE_SIZE },
      ...(signal ? { signal } : {}),
    });
    ids.push(...answer.items.map((order) => order.id));
    if (answer.items.length < GATHER_PAGE_SIZE || ids.length >= answer.total) return ids;
  }
}

/** Delivers orders, several requests of at most 500; the sum of what each delivered and skipped. */
export function useDeliverMany() {
  const client = useQueryClient();
  return useMutation<DeliverOrdersResult, ApiError, { ids: string[] } | { filter: AdminOrdersQuery }>({
    mutationFn: async (what) => {
      const ids = 'ids' in what ? what.ids : await pendingIdsOf(what.filter);
      const batches = deliverBatches(ids);
      const results: DeliverOrdersResult[] = [];
      for (const batch of batches) results.push(await call(store.deliverMany, { body: { ids: batch } }));
      // One request's message says it all; for several, the screen writes the sum (an empty message).
      if (results.length === 1) return results[0]!;
      const sum = (key: 'delivered' | 'skipped') => results.reduce((total, result) => total + result[key], 0);
      return { delivered: sum('delivered'), skipped: sum('skipped'), message: '' };
    },
    onSettled: () => invalidateReads(client, [...AFTER_ORDER_CHANGE]),
  });
}
