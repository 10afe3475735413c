import { useQueryClient } from '@tanstack/react-query';
import { isStaffUser } from '../../shared/areas.ts';
import { reversalRefusal, type ReversalInput, type ReversalResult } from '../../shared/ledger.ts';
import type { LedgerType } from '../../shared/ledger-types.ts';
import { routes } from '../../shared/contract/routes.ts';
import { call, type ApiError } from './api.ts';
import { useIdempotentMutation } from './idempotency.ts';
import { invalidateReads } from './query-keys.ts';
import { useSession } from './session.ts';

/** A listed row as the reversal rule reads it (LedgerEntryView and LiveOperation both are). */
export type ReversibleRow = { id: string; type: LedgerType; actorAdminId: string | null; createdAt: string; reversedBy: unknown };

/**
 * Whether the member signed in may reverse a row, by the server's own rule (reversalRefusal):
 * the screens offer 'Estornar' only there, and the server refuses the rest.
 */
export function useMayReverse(): (row: ReversibleRow, now: Date) => boolean {
  const { user } = useSession();
  return (row, now) => {
    if (!isStaffUser(user) || !user.admin.permissions.includes('award')) return false;
    const member = { id: user.admin.id, coordinator: user.role === 'coordinator' };
    return reversalRefusal(member, { ...row, reversed: row.reversedBy !== null }, now) === null;
  };
}

/** POST /api/admin/operations/:id/reversal, with one Idempotency-Key per submission; a success refreshes every list that shows the row. */
export function useReversal(handlers: { onSuccess: (result: ReversalResult) => void; onError: (error: ApiError) => void }) {
  const client = useQueryClient();
  return useIdempotentMutation<{ id: string; input: ReversalInput }, ReversalResult>({
    mutationFn: ({ id, input }, idempotencyKey) => call(routes.ledger.reversal, { params: { id }, body: input, idempotencyKey }),
    onSuccess: (result) => {
      const { ranking } = routes.students;
      const { recentAdminMeritus, estelecasRanking, estelecasHistory, liveOperations } = routes.ledger;
      invalidateReads(client, [ranking, recentAdminMeritus, estelecasRanking, estelecasHistory, liveOperations]);
      handlers.onSuccess(result);
    },
    onError: handlers.onError,
  });
}
