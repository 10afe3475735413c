import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-hot-toast';
import { POLL_MS } from '../../../shared/constants.ts';
import { urlOf } from '../../../shared/contract/route.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { call } from '../../lib/api.ts';
import { useIdempotentMutation } from '../../lib/idempotency.ts';
import { useLiveQuery } from '../../lib/live-query.ts';
import type { ApiError } from '../../lib/api.ts';
import { invalidateReads, queryKeyOf, readOf } from '../../lib/query-keys.ts';
import { applyOperationResult, useStudentSummary } from '../../lib/student-queries.ts';
import type { StudentSummary } from '../../../shared/student-area.ts';
import { toastError } from '../../lib/toast.ts';

const { store, students } = routes;

/** What this student may buy now, with stock and limit left, and their turma's goals (GET /api/store/items). */
export function useStoreItems() {
  return useLiveQuery(readOf(store.items), POLL_MS.dashboard);
}

/** The student's orders, newest first, with their status (GET /api/me/orders). */
export function useMyOrders() {
  return useLiveQuery(readOf(store.myOrders), POLL_MS.dashboard);
}

/** What a purchase, a cancellation or a contribution changes besides the balances the answer carries. */
const STORE_READS = [store.items, store.myOrders, students.summary];

/**
 * The Loja's writes: each sends its Idempotency-Key (a double click or a retry does it once), shows the server's message,
 * puts the balances of the answer on screen at once and reads again what it changed. A refusal ('Saldo insuficiente',
 * 'Esgotado', 'Limite de 1 por semana atingido', 'Item indisponível') is the server's message in a toast, and the
 * catalogue is read again, since what the card showed was out of date. Either way the dialog that asked closes
 * (`onSettled`); sent again after a failure whose outcome is unknown, the same write keeps its key.
 */
function useStoreWrite<
  TVariables,
  TResult extends { message: string; balances: { meritus: number; totalEarned: number; estelecas: number } },
>(send: (variables: TVariables, idempotencyKey: string) => Promise<TResult>, onSettled: () => void) {
  const client = useQueryClient();
  return useIdempotentMutation({
    mutationFn: send,
    onSuccess: (result) => {
      toast.success(result.message);
      applyOperationResult(client, result);
      invalidateReads(client, STORE_READS);
      onSettled();
    },
    onError: (error) => {
      toastError(error);
      invalidateReads(client, STORE_READS);
      onSettled();
    },
  });
}

export function usePurchase(onSettled: () => void) {
  return useStoreWrite((itemId: string, idempotencyKey) => call(store.purchase, { params: { id: itemId }, idempotencyKey }), onSettled);
}

export function useCancelOrder(onSettled: () => void) {
  return useStoreWrite((orderId: string, idempotencyKey) => call(store.cancel, { params: { id: orderId }, idempotencyKey }), onSettled);
}

/** A contribution's message is 'Contribuição de {valor} para {meta}', or 'Meta atingida!' when it reached the goal. */
export function useContribute(onSettled: () => void) {
  return useStoreWrite(
    ({ itemId, amount }: { itemId: string; amount: number }, idempotencyKey) =>
      call(store.contribute, { params: { id: itemId }, body: { amount }, idempotencyKey }),
    onSettled,
  );
}

/** The id of the item the student chose as their goal, if any. */
export function useStoreGoalId(): string | null {
  return useStudentSummary().data?.storeGoal?.itemId ?? null;
}

/**
 * Chooses an item as the student's goal (null: none), kept on the server so the dashboard follows it on every device; the
 * summary the dashboard reads takes the answer at once.
 */
export function useChooseStoreGoal() {
  const client = useQueryClient();
  return useMutation<{ storeGoal: StudentSummary['storeGoal'] }, ApiError, string | null>({
    mutationFn: (itemId) => call(students.storeGoal, { body: { itemId } }),
    onSuccess: ({ storeGoal }) => {
      client.setQueryData<StudentSummary>(queryKeyOf(students.summary), (summary) => (summary ? { ...summary, storeGoal } : summary));
      toast.success(storeGoal ? `Meta definida: ${storeGoal.name}` : 'Meta removida');
    },
    onError: (error) => toastError(error),
  });
}

/** An item's picture as the student may see it, or null when it has none. */
export function itemImageUrl(itemId: string, imageId: string | null): string | null {
  return imageId ? urlOf(store.itemImage, { params: { id: itemId } }) : null;
}
