import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { toast } from '../../lib/toast.ts';
import { POLL_MS } from '../../../shared/constants.ts';
import type { DashboardQuery, GoalTarget } from '../../../shared/dashboard.ts';
import { routes } from '../../../shared/contract/routes.ts';
import type { GoalId } from '../../../shared/dashboard-definitions.ts';
import { call, type ApiError } from '../../lib/api.ts';
import { useLiveQuery } from '../../lib/live-query.ts';
import { invalidateReads, readOf } from '../../lib/query-keys.ts';

const summaryRead = readOf(routes.dashboard.summary);

/**
 * GET /api/admin/dashboard of a school year or period (none: the last 7 days); pushed operations refresh it, polling only
 * while the stream is down.
 */
export function useDashboardSummary(query: DashboardQuery) {
  const chosen = query.year !== undefined || query.period !== undefined;
  return useLiveQuery(chosen ? readOf(routes.dashboard.summary, { query }) : summaryRead, POLL_MS.dashboard, { keepPrevious: true });
}

/** What the administrator's dashboard reads as it opens. */
export function prefetchAdminDashboard(client: QueryClient): Promise<void> {
  return client.prefetchQuery(summaryRead);
}

export function useUpdateGoal(onDone: () => void) {
  const client = useQueryClient();
  return useMutation<GoalTarget, ApiError, { id: GoalId; target: number }>({
    mutationFn: ({ id, target }) => call(routes.dashboard.updateGoal, { params: { id }, body: { target } }),
    onSuccess: (goal) => {
      toast.success(`Meta "${goal.label}" atualizada`);
      invalidateReads(client, [routes.dashboard.summary]);
      onDone();
    },
  });
}
