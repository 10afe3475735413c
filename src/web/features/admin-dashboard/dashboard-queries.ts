import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { toast } from '../../lib/toast.ts';
import { POLL_MS } from '../../../shared/constants.ts';
import type { DashboardSummary, GoalTarget } from '../../../shared/dashboard.ts';
import { ADMIN_DASHBOARD_READ } from '../../../shared/first-reads.ts';
import type { GoalId } from '../../../shared/dashboard-definitions.ts';
import { api, type ApiError } from '../../lib/api.ts';
import { useLiveQuery } from '../../lib/live-query.ts';
import { queryKeys } from '../../lib/query-keys.ts';

const summaryQuery = { queryKey: queryKeys.adminDashboard, queryFn: () => api.get<DashboardSummary>(ADMIN_DASHBOARD_READ) };

/** GET /api/admin/dashboard; pushed operations refresh it, polling only while the stream is down. */
export function useDashboardSummary() {
  return useLiveQuery(summaryQuery.queryKey, summaryQuery.queryFn, POLL_MS.dashboard);
}

/** What the administrator's dashboard reads as it opens. */
export function prefetchAdminDashboard(client: QueryClient): Promise<void> {
  return client.prefetchQuery(summaryQuery);
}

export function useUpdateGoal(onDone: () => void) {
  const client = useQueryClient();
  return useMutation<GoalTarget, ApiError, { id: GoalId; target: number }>({
    mutationFn: ({ id, target }) => api.put<GoalTarget>(`/admin/dashboard/goals/${id}`, { target }),
    onSuccess: (goal) => {
      toast.success(`Meta "${goal.label}" atualizada`);
      void client.invalidateQueries({ queryKey: queryKeys.adminDashboard });
      onDone();
    },
  });
}
