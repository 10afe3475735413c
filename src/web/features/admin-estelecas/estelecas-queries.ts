import type { PublicStudent } from '../../../shared/auth.ts';
import { ADMIN_ESTELECAS_HISTORY_LIMIT, POLL_MS } from '../../../shared/constants.ts';
import type { LedgerEntryView } from '../../../shared/ledger.ts';
import { api } from '../../lib/api.ts';
import { useLiveQuery } from '../../lib/live-query.ts';
import { queryKeys } from '../../lib/query-keys.ts';

/** Top 10 by Estelecas; pushed operations invalidate the adminEstelecas root. */
export function useEstelecasRanking() {
  return useLiveQuery([...queryKeys.adminEstelecas, 'ranking'], () => api.get<PublicStudent[]>('/admin/estelecas/ranking'), POLL_MS.adminLive);
}

/** The latest 50 Estelecas operations with both parties. */
export function useEstelecasHistory() {
  return useLiveQuery(
    [...queryKeys.adminEstelecas, 'history'],
    () => api.get<LedgerEntryView[]>('/admin/estelecas/history', { query: { limit: ADMIN_ESTELECAS_HISTORY_LIMIT } }),
    POLL_MS.adminLive,
  );
}
