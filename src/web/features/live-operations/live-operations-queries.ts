import { POLL_MS } from '../../../shared/constants.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { useLiveQuery } from '../../lib/live-query.ts';
import { readOf } from '../../lib/query-keys.ts';

export const LIVE_FEED_LIMIT = 100;

/**
 * The live feed: pushed 'operations' events put their lines at its top at once, without a read (live-connection.ts);
 * the spec's 8 s refresh runs only while the event stream is down, and never while the screen is paused.
 */
export function useLiveOperations(paused: boolean, authorId: string) {
  const query = { limit: LIVE_FEED_LIMIT, ...(authorId ? { authorId } : {}) };
  return useLiveQuery(readOf(routes.ledger.liveOperations, { query }), paused ? false : POLL_MS.adminLive);
}
