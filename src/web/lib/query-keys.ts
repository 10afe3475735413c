import type { QueryClient } from '@tanstack/react-query';
import type { AddressOf, AnswerOf, ArgsOf, Route } from '../../shared/contract/route.ts';
import { call, type CallArgs, type JsonRoute } from './api.ts';

/**
 * A read's query key: its route's id (method and path), then the params and query it was called with. Every read of a
 * route starts with the route's id, so invalidating the route (a live event, a write) reaches all of them.
 */
export function queryKeyOf<R extends Route>(route: R, ...[address]: ArgsOf<AddressOf<R>>): readonly unknown[] {
  return address ? [route.id, address] : [route.id];
}

/** The key that matches every read of the route, whatever its params and query. */
export function routeKey(route: Route): readonly [string] {
  return [route.id];
}

export type Read<T> = { queryKey: readonly unknown[]; queryFn: (context: { signal: AbortSignal }) => Promise<T> };

/** A read of the route as TanStack Query takes it (useQuery, prefetchQuery): its key and a call that the query may cancel. */
export function readOf<R extends JsonRoute & { method: 'GET' }>(route: R, ...[address]: ArgsOf<AddressOf<R>>): Read<AnswerOf<R>> {
  return {
    queryKey: queryKeyOf<Route>(route, address),
    queryFn: ({ signal }) => call(route, ...([{ ...address, signal }] as CallArgs<R>)),
  };
}

/** Marks every read of these routes stale; the ones on screen are read again. */
export function invalidateReads(client: QueryClient, routes: readonly Route[]): void {
  for (const route of routes) void client.invalidateQueries({ queryKey: routeKey(route) });
}
