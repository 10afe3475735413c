import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { PublicStudent, SessionUser } from '../../shared/auth.ts';
import { POLL_MS, RECENT_TRANSACTIONS_LIMIT } from '../../shared/constants.ts';
import type { ActiveTag } from '../../shared/students.ts';
import type { StudentSummary } from '../../shared/student-area.ts';
import type { OperationResult, StudentOperation } from '../../shared/ledger.ts';
import { ACTIVE_TAGS_READ, recentTransactionsRead, STUDENT_SUMMARY_READ } from '../../shared/first-reads.ts';
import { api } from './api.ts';
import { useLiveQuery } from './live-query.ts';
import { queryKeys } from './query-keys.ts';

/**
 * The signed-in student's summary. Its key sits under the ranking root, so every pushed
 * 'ranking' event (sent with each of the student's own 'balance' events too) refreshes it:
 * a classmate's operation can move the student's position.
 */
export const summaryQueryKey = [...queryKeys.ranking, 'my-summary'] as const;

const summaryQuery = { queryKey: summaryQueryKey, queryFn: () => api.get<StudentSummary>(STUDENT_SUMMARY_READ) };

export function useStudentSummary(fallbackMs: number = POLL_MS.dashboard) {
  return useLiveQuery(summaryQuery.queryKey, summaryQuery.queryFn, fallbackMs);
}

/** Every active weekly tag with its likes (GET /api/tags/active). */
const activeTagsQuery = { queryKey: queryKeys.tags, queryFn: () => api.get<ActiveTag[]>(ACTIVE_TAGS_READ) };

export function useActiveTags(fallbackMs: number = POLL_MS.dashboard) {
  return useLiveQuery(activeTagsQuery.queryKey, activeTagsQuery.queryFn, fallbackMs);
}

/** Every current student with balances, by Méritus (GET /api/ranking); pushed balance changes refresh it. */
export function useRanking(fallbackMs: number = POLL_MS.dashboard) {
  return useLiveQuery(queryKeys.ranking, () => api.get<PublicStudent[]>('/ranking'), fallbackMs);
}

/** Classmates a student can send to (self excluded by the server). */
export function useDirectory() {
  return useQuery({
    queryKey: queryKeys.directory,
    queryFn: () => api.get<PublicStudent[]>('/students/directory'),
  });
}

/** The student's latest Méritus operations (GET /api/me/transactions). */
const myTransactionsQuery = (limit: number) => ({
  queryKey: [...queryKeys.myTransactions, limit],
  queryFn: () => api.get<StudentOperation[]>(recentTransactionsRead(limit)),
});

export function useMyTransactions(limit: number, fallbackMs: number = POLL_MS.dashboard) {
  const query = myTransactionsQuery(limit);
  return useLiveQuery(query.queryKey, query.queryFn, fallbackMs);
}

/** What the student dashboard reads as it opens: its summary, the weekly tags and the latest transactions. */
export function prefetchStudentDashboard(client: QueryClient): Promise<unknown> {
  return Promise.all([client.prefetchQuery(summaryQuery), client.prefetchQuery(activeTagsQuery), client.prefetchQuery(myTransactionsQuery(RECENT_TRANSACTIONS_LIMIT))]);
}

/**
 * After an operation the server answers with the new balances: show them at once in the
 * sidebar and cards, then refetch everything the operation touched.
 */
export function applyOperationResult(client: QueryClient, result: OperationResult): void {
  client.setQueryData<SessionUser | null>(queryKeys.me, (user) =>
    user?.role === 'student' ? { ...user, student: { ...user.student, ...result.balances } } : user,
  );
  for (const queryKey of [queryKeys.me, queryKeys.ranking, queryKeys.myTransactions, queryKeys.myOperations, queryKeys.myEstelecas, queryKeys.directory]) {
    void client.invalidateQueries({ queryKey });
  }
}

export function useApplyOperationResult(): (result: OperationResult) => void {
  const client = useQueryClient();
  return (result) => applyOperationResult(client, result);
}
