import { useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { publicStudent } from '../../../shared/auth.ts';
import { ADMIN_ESTELECAS_HISTORY_LIMIT, POLL_MS } from '../../../shared/constants.ts';
import { ledgerEntryView, operationResult, type AdminOperationType, type OperationResult } from '../../../shared/ledger.ts';
import { api, type ApiError } from '../../lib/api.ts';
import { useIdempotentMutation } from '../../lib/idempotency.ts';
import { useLiveStatus } from '../../lib/live-events.ts';
import { queryKeys } from '../../lib/query-keys.ts';

/** Top 10 by Estelecas; pushed operations invalidate the adminEstelecas root. */
export function useEstelecasRanking() {
  const live = useLiveStatus();
  return useQuery({
    queryKey: [...queryKeys.adminEstelecas, 'ranking'],
    queryFn: () => api.get('/admin/estelecas/ranking', { schema: z.array(publicStudent) }),
    refetchInterval: live ? false : POLL_MS.adminLive,
  });
}

/** The latest 50 Estelecas operations with both parties. */
export function useEstelecasHistory() {
  const live = useLiveStatus();
  return useQuery({
    queryKey: [...queryKeys.adminEstelecas, 'history'],
    queryFn: () =>
      api.get('/admin/estelecas/history', { query: { limit: ADMIN_ESTELECAS_HISTORY_LIMIT }, schema: z.array(ledgerEntryView) }),
    refetchInterval: live ? false : POLL_MS.adminLive,
  });
}

export type EstelecasRequest = { studentId: string; input: { type: AdminOperationType; amount: number; description: string } };

export function useEstelecasOperation(handlers: { onSuccess: (result: OperationResult) => void; onError: (error: ApiError) => void }) {
  const client = useQueryClient();
  return useIdempotentMutation<EstelecasRequest, OperationResult>({
    mutationFn: ({ studentId, input }, idempotencyKey) =>
      api.post(`/admin/students/${studentId}/estelecas`, input, { schema: operationResult, idempotencyKey }),
    onSuccess: (result) => {
      void client.invalidateQueries({ queryKey: queryKeys.adminEstelecas });
      void client.invalidateQueries({ queryKey: queryKeys.ranking });
      handlers.onSuccess(result);
    },
    onError: (error) => handlers.onError(error),
  });
}
