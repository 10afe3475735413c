import { useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../shared/contract/routes.ts';
import type { RolloverInput, RolloverOutcome, RolloverPreview } from '../../../shared/school-year.ts';
import { call } from '../../lib/api.ts';
import { useIdempotentMutation } from '../../lib/idempotency.ts';
import { invalidateReads, queryKeyOf } from '../../lib/query-keys.ts';

const { schoolYear, settings } = routes;

/**
 * The preview of the rollover for these choices (without a mapping, the one proposed from the turmas' names), read as a
 * query of its body: its token binds the apply to what it saw, so it is never served from an old cache.
 */
export function rolloverPreviewRead(body: RolloverInput) {
  return {
    queryKey: [...queryKeyOf(schoolYear.rolloverPreview), body],
    queryFn: (): Promise<RolloverPreview> => call(schoolYear.rolloverPreview, { body }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  };
}

/**
 * The apply, with the preview's token. The Idempotency-Key is kept for the attempt: a second click while it runs is
 * ignored, and a re-send after an unknown outcome carries the same key, so the year is never closed twice.
 */
export function useApplyRollover(onApplied: (outcome: RolloverOutcome) => void) {
  const client = useQueryClient();
  return useIdempotentMutation<RolloverInput & { token: string }, RolloverOutcome>({
    mutationFn: (body, idempotencyKey) => call(schoolYear.rolloverApply, { body, idempotencyKey }),
    onSuccess: (outcome) => {
      invalidateReads(client, [schoolYear.list, settings.turmas]);
      onApplied(outcome);
    },
  });
}
