import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { POLL_MS } from '../../../shared/constants.ts';
import {
  bulkOperationResult,
  ledgerEntryView,
  operationResult,
  type AdminOperationType,
  type BulkOperationResult,
  type OperationResult,
} from '../../../shared/ledger.ts';
import { reasonPreset, type ReasonPreset } from '../../../shared/reason-presets.ts';
import { api, type ApiError } from '../../lib/api.ts';
import { useIdempotentMutation } from '../../lib/idempotency.ts';
import { useLiveStatus } from '../../lib/live-events.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { toast, toastError } from '../../lib/toast.ts';

const presetsKey = [...queryKeys.adminMeritus, 'reason-presets'] as const;

/** The side panel: the last 10 administrator operations on Méritus. */
export function useRecentAdminMeritus() {
  const live = useLiveStatus();
  return useQuery({
    queryKey: [...queryKeys.adminMeritus, 'recent'],
    queryFn: () => api.get('/admin/meritus/recent', { schema: z.array(ledgerEntryView) }),
    refetchInterval: live ? false : POLL_MS.adminLive,
  });
}

export type OperationInput = { type: AdminOperationType; amount: number; description: string };
export type MeritusRequest =
  | { kind: 'single'; studentId: string; input: OperationInput }
  | { kind: 'bulk'; studentIds: string[]; input: OperationInput };
export type MeritusResponse = OperationResult | BulkOperationResult;

/** One student, or many in one all-or-nothing request; either way one Idempotency-Key per submission. */
export function useMeritusOperation(handlers: { onSuccess: (result: MeritusResponse) => void; onError: (error: ApiError, request: MeritusRequest) => void }) {
  const client = useQueryClient();
  return useIdempotentMutation<MeritusRequest, MeritusResponse>({
    mutationFn: (request, idempotencyKey) =>
      request.kind === 'single'
        ? api.post(`/admin/students/${request.studentId}/meritus`, request.input, { schema: operationResult, idempotencyKey })
        : api.post(
            '/admin/operations/bulk',
            { currency: 'meritus', studentIds: request.studentIds, ...request.input },
            { schema: bulkOperationResult, idempotencyKey },
          ),
    onSuccess: (result) => {
      void client.invalidateQueries({ queryKey: queryKeys.ranking });
      void client.invalidateQueries({ queryKey: queryKeys.adminMeritus });
      handlers.onSuccess(result);
    },
    onError: (error, request) => handlers.onError(error, request),
  });
}

export function useReasonPresets() {
  return useQuery({
    queryKey: presetsKey,
    queryFn: () => api.get('/admin/reason-presets', { schema: z.array(reasonPreset) }),
  });
}

export function useCreateReasonPreset() {
  const client = useQueryClient();
  return useMutation<ReasonPreset, ApiError, string>({
    mutationFn: (label) => api.post('/admin/reason-presets', { label }, { schema: reasonPreset }),
    onSuccess: (preset) => {
      toast.success(`Motivo "${preset.label}" salvo`);
      void client.invalidateQueries({ queryKey: presetsKey });
    },
    onError: (error) => toastError(error, 'Erro ao salvar motivo'),
  });
}

export function useDeleteReasonPreset() {
  const client = useQueryClient();
  return useMutation<void, ApiError, ReasonPreset>({
    mutationFn: (preset) => api.delete(`/admin/reason-presets/${preset.id}`),
    onSuccess: (_, preset) => {
      toast.success(`Motivo "${preset.label}" removido`);
      void client.invalidateQueries({ queryKey: presetsKey });
    },
    onError: (error) => toastError(error, 'Erro ao remover motivo'),
  });
}
