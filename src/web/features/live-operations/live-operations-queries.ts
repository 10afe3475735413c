import { POLL_MS } from '../../../shared/constants.ts';
import type { LiveOperation } from '../../../shared/ledger.ts';
import { api } from '../../lib/api.ts';
import { useLiveQuery } from '../../lib/live-query.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export const LIVE_FEED_LIMIT = 100;

/**
 * The live feed: pushed 'operation' events invalidate it at once; the spec's 8 s refresh
 * runs only while the event stream is down, and never while the screen is paused.
 */
export function useLiveOperations(paused: boolean) {
  return useLiveQuery(
    [...queryKeys.adminOperations, { limit: LIVE_FEED_LIMIT }],
    () => api.get<LiveOperation[]>('/admin/operations', { query: { limit: LIVE_FEED_LIMIT } }),
    paused ? false : POLL_MS.adminLive,
  );
}
