import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { POLL_MS, RECENT_TRANSACTIONS_LIMIT } from '../../shared/constants.ts';
import { routes } from '../../shared/contract/routes.ts';
import type { OperationResult } from '../../shared/ledger.ts';
import { useLiveQuery } from './live-query.ts';
import { invalidateReads, readOf } from './query-keys.ts';
import { setSessionBalances } from './live-connection.ts';

/**
 * The signed-in student's summary. Their own operations ('balance') and a move of a row they see ('ranking') refresh
 * it: a classmate's operation can move the student's position.
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
export function applyOperationResult(client: QueryClient, result: Pick<OperationResult, 'balances'>): void {
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

export function useApplyOperationResult(): (result: Pick<OperationResult, 'balances'>) => void {
  const client = useQueryClient();
  return (result) => applyOperationResult(client, result);
}
