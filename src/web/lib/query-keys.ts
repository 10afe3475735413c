import type { QueryClient } from '@tanstack/react-query';
import type { AddressOf, AnswerOf, ArgsOf, Route } from '../../shared/contract/route.ts';
import { api, type ApiClient, type CallArgs, type JsonRoute } from './api.ts';

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

const apiClients = new WeakMap<QueryClient, ApiClient>();

/**
 * Makes the reads run by `client` call the server through `apiClient` rather than the app's (api.ts). A page has one
 * of each; a program holding many signed-in users at once (bench/school-day.ts) gives each user's its own.
 */
export function setApiClientOf(client: QueryClient, apiClient: ApiClient): void {
  apiClients.set(client, apiClient);
}

/** The API client the reads of this query client call: the one set for it, or the app's. */
export function apiClientOf(client: QueryClient): ApiClient {
  return apiClients.get(client) ?? api;
}

export type Read<T> = { queryKey: readonly unknown[]; queryFn: (context: { client: QueryClient; signal: AbortSignal }) => Promise<T> };

/**
 * A read of the route as TanStack Query takes it (useQuery, prefetchQuery): its key and a call that the query may
 * cancel, sent by the API client of the query client it runs in (apiClientOf).
 */
export function readOf<R extends JsonRoute & { method: 'GET' }>(route: R, ...[address]: ArgsOf<AddressOf<R>>): Read<AnswerOf<R>> {
  return {
    queryKey: queryKeyOf<Route>(route, address),
    queryFn: ({ client, signal }) => apiClientOf(client).call(route, ...([{ ...address, signal }] as CallArgs<R>)),
  };
}

/** Marks every read of these routes stale; the ones on screen are read again. */
export function invalidateReads(client: QueryClient, routes: readonly Route[]): void {
  for (const route of routes) void client.invalidateQueries({ queryKey: routeKey(route) });
}
