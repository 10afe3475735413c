import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  clearLogsResult,
  diagnosticLogList,
  diagnosticRun,
  fixAdministratorsResult,
  fixPreview,
  fixResult,
  SYSTEM_API,
  type DiagnosticCategory,
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
    queryFn: () => api.get(SYSTEM_API.diagnosticLogs, { schema: diagnosticLogList, query: { category: category === 'all' ? undefined : category } }),
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
    mutationFn: () => api.post(SYSTEM_API.diagnosticRun, undefined, { schema: diagnosticRun }),
    onSettled: changed,
  });
}

export function useFixAdministrators() {
  const changed = useLogsChanged();
  return useMutation<FixAdministratorsResult, ApiError, void>({
    mutationFn: () => api.post(SYSTEM_API.fixAdministrators, undefined, { schema: fixAdministratorsResult }),
    onSettled: changed,
  });
}

export function useFixPreview() {
  return useMutation<FixPreview, ApiError, FixId>({
    mutationFn: (fix) => api.get(SYSTEM_API.fixPreview(fix), { schema: fixPreview }),
  });
}

export function useApplyFix() {
  const changed = useLogsChanged();
  return useMutation<FixResult, ApiError, FixPreview>({
    mutationFn: (preview) => api.post(SYSTEM_API.fixApply(preview.fix), { keys: preview.items.map((item) => item.key) }, { schema: fixResult }),
    onSettled: changed,
  });
}

export function useClearLogs() {
  const changed = useLogsChanged();
  return useMutation<{ removed: number }, ApiError, void>({
    mutationFn: () => api.delete(SYSTEM_API.diagnosticLogs, { schema: clearLogsResult }),
    onSettled: changed,
  });
}
