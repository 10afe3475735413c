import { z } from 'zod';
import { publicStudent } from '../../../shared/auth.ts';
import { ADMIN_ESTELECAS_HISTORY_LIMIT, POLL_MS } from '../../../shared/constants.ts';
import { ledgerEntryView } from '../../../shared/ledger.ts';
import { api } from '../../lib/api.ts';
import { useLiveQuery } from '../../lib/live-query.ts';
import { queryKeys } from '../../lib/query-keys.ts';

/** Top 10 by Estelecas; pushed operations invalidate the adminEstelecas root. */
export function useEstelecasRanking() {
  return useLiveQuery([...queryKeys.adminEstelecas, 'ranking'], () => api.get('/admin/estelecas/ranking', { schema: z.array(publicStudent) }), POLL_MS.adminLive);
}

/** The latest 50 Estelecas operations with both parties. */
export function useEstelecasHistory() {
  return useLiveQuery(
    [...queryKeys.adminEstelecas, 'history'],
    () => api.get('/admin/estelecas/history', { query: { limit: ADMIN_ESTELECAS_HISTORY_LIMIT }, schema: z.array(ledgerEntryView) }),
    POLL_MS.adminLive,
  );
}
