import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { POLL_MS } from '../../../shared/constants.ts';
import { ledgerEntryView } from '../../../shared/ledger.ts';
import { reasonPreset, type ReasonPreset } from '../../../shared/reason-presets.ts';
import { api, type ApiError } from '../../lib/api.ts';
import { useLiveQuery } from '../../lib/live-query.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { toast, toastError } from '../../lib/toast.ts';

const presetsKey = [...queryKeys.adminMeritus, 'reason-presets'] as const;

/** The side panel: the last 10 administrator operations on Méritus. */
export function useRecentAdminMeritus() {
  return useLiveQuery([...queryKeys.adminMeritus, 'recent'], () => api.get('/admin/meritus/recent', { schema: z.array(ledgerEntryView) }), POLL_MS.adminLive);
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
