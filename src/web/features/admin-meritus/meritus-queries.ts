import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { POLL_MS } from '../../../shared/constants.ts';
import { routes } from '../../../shared/contract/routes.ts';
import type { ReasonPreset } from '../../../shared/reason-presets.ts';
import { call, type ApiError } from '../../lib/api.ts';
import { useLiveQuery } from '../../lib/live-query.ts';
import { invalidateReads, readOf } from '../../lib/query-keys.ts';
import { toast, toastError } from '../../lib/toast.ts';

const { reasonPresets } = routes;

/** The side panel: the last 10 administrator operations on Méritus. */
export function useRecentAdminMeritus() {
  return useLiveQuery(readOf(routes.ledger.recentAdminMeritus), POLL_MS.adminLive);
}

export function useReasonPresets() {
  return useQuery(readOf(reasonPresets.list));
}

export function useCreateReasonPreset() {
  const client = useQueryClient();
  return useMutation<ReasonPreset, ApiError, string>({
    mutationFn: (label) => call(reasonPresets.create, { body: { label } }),
    onSuccess: (preset) => {
      toast.success(`Motivo "${preset.label}" salvo`);
      invalidateReads(client, [reasonPresets.list]);
    },
    onError: (error) => toastError(error, 'Erro ao salvar motivo'),
  });
}

export function useDeleteReasonPreset() {
  const client = useQueryClient();
  return useMutation<null, ApiError, ReasonPreset>({
    mutationFn: (preset) => call(reasonPresets.remove, { params: { id: preset.id } }),
    onSuccess: (_, preset) => {
      toast.success(`Motivo "${preset.label}" removido`);
      invalidateReads(client, [reasonPresets.list]);
    },
    onError: (error) => toastError(error, 'Erro ao remover motivo'),
  });
}
