import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { POLL_MS, RANKING_PAGE, RECENT_TRANSACTIONS_LIMIT } from '../../shared/constants.ts';
import { routes } from '../../shared/contract/routes.ts';
import type { OperationResult } from '../../shared/ledger.ts';
import type { RankingEntry } from '../../shared/students.ts';
import { call } from './api.ts';
import { useLiveQuery } from './live-query.ts';
import { invalidateReads, readOf, routeKey, type Read } from './query-keys.ts';
import { setSessionBalances } from './live-connection.ts';

/**
 * The signed-in student's summary. Pushed 'ranking' events (sent with each of the student's own 'balance' events too)
 * refresh it: a classmate's operation can move the student's position.
 */
const summaryRead = readOf(routes.students.summary);

export function useStudentSummary(fallbackMs: number = POLL_MS.dashboard) {
  return useLiveQuery(summaryRead, fallbackMs);
}

/** Every active weekly tag with its likes (GET /api/tags/active). */
const activeTagsRead = readOf(routes.tags.active);

export function useActiveTags(fallbackMs: number = POLL_MS.dashboard) {
  return useLiveQuery(activeTagsRead, fallbackMs);
}

/**
 * Every current student's row of the ranking, read page by page: the staff's student pickers (Gerenciar M$ and
 * Estelecas) choose from all of them until they search on the server. Pushed ranking changes refresh it.
 */
const everyRankedStudentRead: Read<RankingEntry[]> = {
  queryKey: [...routeKey(routes.students.ranking), 'every page'],
  queryFn: async ({ signal }) => {
    const size = RANKING_PAGE.maxSize;
    const first = await call(routes.students.ranking, { query: { page: 0, size }, signal });
    const pages = Array.from({ length: Math.ceil(first.total / size) - 1 }, (_, index) => index + 1);
    const rest = await Promise.all(pages.map((page) => call(routes.students.ranking, { query: { page, size }, signal })));
    return [first, ...rest].flatMap((answer) => answer.entries);
  },
};

export function useEveryRankedStudent(fallbackMs: number = POLL_MS.dashboard) {
  return useLiveQuery(everyRankedStudentRead, fallbackMs);
}

/** Classmates a student can send to (self excluded by the server). */
export function useDirectory() {
  return useQuery(readOf(routes.students.directory));
}

/** The student's latest Méritus operations (GET /api/me/transactions). */
const myTransactionsRead = (limit: number) => readOf(routes.ledger.myTransactions, { query: { limit } });

export function useMyTransactions(limit: number, fallbackMs: number = POLL_MS.dashboard) {
  return useLiveQuery(myTransactionsRead(limit), fallbackMs);
}

/** What the student dashboard reads as it opens: its summary, the weekly tags and the latest transactions. */
export function prefetchStudentDashboard(client: QueryClient): Promise<unknown> {
  return Promise.all([
    client.prefetchQuery(summaryRead),
    client.prefetchQuery(activeTagsRead),
    client.prefetchQuery(myTransactionsRead(RECENT_TRANSACTIONS_LIMIT)),
  ]);
}

/**
 * After an operation the server answers with the new balances: show them at once in the
 * sidebar and cards, then refetch everything the operation touched.
 */
export function applyOperationResult(client: QueryClient, result: OperationResult): void {
  setSessionBalances(client, result.balances);
  const { auth, students, ledger } = routes;
  invalidateReads(client, [
    auth.me,
    students.ranking,
    students.summary,
    ledger.myTransactions,
    ledger.myOperations,
    ledger.myEstelecas,
    students.directory,
  ]);
}

export function useApplyOperationResult(): (result: OperationResult) => void {
  const client = useQueryClient();
  return (result) => applyOperationResult(client, result);
}
