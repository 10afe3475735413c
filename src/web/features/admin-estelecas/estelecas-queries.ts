import { ADMIN_ESTELECAS_HISTORY_LIMIT, POLL_MS } from '../../../shared/constants.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { useLiveQuery } from '../../lib/live-query.ts';
import { readOf } from '../../lib/query-keys.ts';

/** Top 10 by Estelecas; pushed operations and ranking changes refresh it. */
export function useEstelecasRanking() {
  return useLiveQuery(readOf(routes.ledger.estelecasRanking), POLL_MS.adminLive);
}

/** The latest 50 Estelecas operations with both parties. */
export function useEstelecasHistory() {
  return useLiveQuery(readOf(routes.ledger.estelecasHistory, { query: { limit: ADMIN_ESTELECAS_HISTORY_LIMIT } }), POLL_MS.adminLive);
}
