import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { POLL_MS } from '../../../shared/constants.ts';
import type { LedgerEntryView } from '../../../shared/ledger.ts';
import type { ReasonPreset } from '../../../shared/reason-presets.ts';
import { api, type ApiError } from '../../lib/api.ts';
import { useLiveQuery } from '../../lib/live-query.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { toast, toastError } from '../../lib/toast.ts';

const presetsKey = [...queryKeys.adminMeritus, 'reason-presets'] as const;

/** The side panel: the last 10 administrator operations on Méritus. */
export function useRecentAdminMeritus() {
  return useLiveQuery([...queryKeys.adminMeritus, 'recent'], () => api.get<LedgerEntryView[]>('/admin/meritus/recent'), POLL_MS.adminLive);
}

export function useReasonPresets() {
  return useQuery({
    queryKey: presetsKey,
    queryFn: () => api.get<ReasonPreset[]>('/admin/reason-presets'),
  });
}

export function useCreateReasonPreset() {
  const client = useQueryClient();
  return useMutation<ReasonPreset, ApiError, string>({
    mutationFn: (label) => api.post<ReasonPreset>('/admin/reason-presets', { label }),
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
