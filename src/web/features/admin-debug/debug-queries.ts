import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ClearLogsResult,
  DiagnosticCategory,
  DiagnosticRun,
  FixAdministratorsResult,
  FixId,
  FixPreview,
  FixResult,
} from '../../../shared/system.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { call, type ApiError } from '../../lib/api.ts';
import { invalidateReads, readOf } from '../../lib/query-keys.ts';

const { system } = routes;

/** The stored diagnostic log (newest first) and the four counters; `category` filters on the server. */
export function useDiagnosticLogs(category: DiagnosticCategory | 'all') {
  return useQuery(readOf(system.diagnosticLogs, { query: { category: category === 'all' ? undefined : category } }));
}

/** After anything that writes logs: the list (every category) and the backend panel's figures are stale. */
function useLogsChanged() {
  const client = useQueryClient();
  return () =>
    invalidateReads(client, [system.diagnosticLogs, system.overview, system.entityPage, system.monitoring, system.configuration]);
}

export function useRunDiagnostic() {
  const changed = useLogsChanged();
  return useMutation<DiagnosticRun, ApiError, void>({
    mutationFn: () => call(system.runDiagnostics),
    onSettled: changed,
  });
}

export function useFixAdministrators() {
  const changed = useLogsChanged();
  return useMutation<FixAdministratorsResult, ApiError, void>({
    mutationFn: () => call(system.fixAdministrators),
    onSettled: changed,
  });
}

export function useFixPreview() {
  return useMutation<FixPreview, ApiError, FixId>({
    mutationFn: (fix) => call(system.fixPreview, { params: { fix } }),
  });
}

export function useApplyFix() {
  const changed = useLogsChanged();
  return useMutation<FixResult, ApiError, FixPreview>({
    mutationFn: (preview) => call(system.applyFix, { params: { fix: preview.fix }, body: { keys: preview.items.map((item) => item.key) } }),
    onSettled: changed,
  });
}

export function useClearLogs() {
  const changed = useLogsChanged();
  return useMutation<ClearLogsResult, ApiError, void>({
    mutationFn: () => call(system.clearLogs),
    onSettled: changed,
  });
}
