import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../lib/toast.ts';
import { POLL_MS } from '../../../shared/constants.ts';
import type { DashboardSummary, GoalTarget } from '../../../shared/dashboard.ts';
import type { GoalId } from '../../../shared/dashboard-definitions.ts';
import { api, type ApiError } from '../../lib/api.ts';
import { useLiveQuery } from '../../lib/live-query.ts';
import { queryKeys } from '../../lib/query-keys.ts';

/** GET /api/admin/dashboard; pushed operations refresh it, polling only while the stream is down. */
export function useDashboardSummary() {
  return useLiveQuery(queryKeys.adminDashboard, () => api.get<DashboardSummary>('/admin/dashboard'), POLL_MS.dashboard);
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
