import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  SYSTEM_API,
  type ClearLogsResult,
  type DiagnosticCategory,
  type DiagnosticLogList,
  type DiagnosticRun,
  type FixAdministratorsResult,
  type FixId,
  type FixPreview,
  type FixResult,
} from '../../../shared/system.ts';
import { api, type ApiError } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';

const logsKey = [...queryKeys.adminSystem, 'diagnostic-logs'] as const;

/** The stored diagnostic log (newest first) and the four counters; `category` filters on the server. */
export function useDiagnosticLogs(category: DiagnosticCategory | 'all') {
  return useQuery({
    queryKey: [...logsKey, category],
    queryFn: () => api.get<DiagnosticLogList>(SYSTEM_API.diagnosticLogs, { query: { category: category === 'all' ? undefined : category } }),
  });
}

/** After anything that writes logs: the list (every category) and the backend panel's last-diagnostic line are stale. */
function useLogsChanged() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: queryKeys.adminSystem });
}

export function useRunDiagnostic() {
  const changed = useLogsChanged();
  return useMutation<DiagnosticRun, ApiError, void>({
    mutationFn: () => api.post<DiagnosticRun>(SYSTEM_API.diagnosticRun),
    onSettled: changed,
  });
}

export function useFixAdministrators() {
  const changed = useLogsChanged();
  return useMutation<FixAdministratorsResult, ApiError, void>({
    mutationFn: () => api.post<FixAdministratorsResult>(SYSTEM_API.fixAdministrators),
    onSettled: changed,
  });
}

export function useFixPreview() {
  return useMutation<FixPreview, ApiError, FixId>({
    mutationFn: (fix) => api.get<FixPreview>(SYSTEM_API.fixPreview(fix)),
  });
}

export function useApplyFix() {
  const changed = useLogsChanged();
  return useMutation<FixResult, ApiError, FixPreview>({
    mutationFn: (preview) => api.post<FixResult>(SYSTEM_API.fixApply(preview.fix), { keys: preview.items.map((item) => item.key) }),
    onSettled: changed,
  });
}

export function useClearLogs() {
  const changed = useLogsChanged();
  return useMutation<ClearLogsResult, ApiError, void>({
    mutationFn: () => api.delete<ClearLogsResult>(SYSTEM_API.diagnosticLogs),
    onSettled: changed,
  });
}
