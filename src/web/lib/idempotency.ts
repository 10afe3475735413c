import { useRef } from 'react';
import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import { isApiError, type ApiError } from './api.ts';

type Attempt = { key: string; fingerprint: string };

/**
 * Whether the server may have done the operation although we saw an error: then the same
 * submission must be sent again with the same key, so it cannot take effect twice.
 */
function outcomeUnknown(error: unknown): boolean {
  return !isApiError(error) || error.status === 0 || error.status >= 500 || error.status === 408 || error.status === 429;
}

/** Decides the Idempotency-Key of each submission of one form. */
export function createIdempotencyKeys(newKey: () => string = () => crypto.randomUUID()) {
  let pending: Attempt | undefined;
  return {
    /** A fresh key for a new submission; the previous key when the same data is re-sent after an unknown outcome. */
    keyFor(variables: unknown): string {
      const fingerprint = JSON.stringify(variables) ?? '';
      if (pending && pending.fingerprint === fingerprint) return pending.key;
      pending = { key: newKey(), fingerprint };
      return pending.key;
    },
    settle(error: unknown): void {
      if (error === undefined || !outcomeUnknown(error)) pending = undefined;
    },
  };
}

export type IdempotentMutation<TVariables, TData> = UseMutationResult<TData, ApiError, TVariables> & {
  /** Sends the form once; ignored while the previous submission is still pending (double clicks). */
  submit: (variables: TVariables) => void;
};

/**
 * A mutation for operations that move points. Each submitted form gets a fresh
 * `crypto.randomUUID()` key; the client's automatic retry and a manual re-submit of the
 * same data after a network/server failure reuse it, so the operation happens once.
 * Disable the submit button while `isPending`.
 */
export function useIdempotentMutation<TVariables, TData>(options: {
  mutationFn: (variables: TVariables, idempotencyKey: string) => Promise<TData>;
  onSuccess?: (data: TData, variables: TVariables) => unknown;
  onError?: (error: ApiError, variables: TVariables) => unknown;
}): IdempotentMutation<TVariables, TData> {
  const keys = useRef<ReturnType<typeof createIdempotencyKeys> | null>(null);
  keys.current ??= createIdempotencyKeys();
  const inFlight = useRef(false);

  const mutation = useMutation<TData, ApiError, TVariables>({
    mutationFn: (variables) => options.mutationFn(variables, keys.current!.keyFor(variables)),
    onSuccess: (data, variables) => {
      keys.current!.settle(undefined);
      return options.onSuccess?.(data, variables);
    },
    onError: (error, variables) => {
      keys.current!.settle(error);
      return options.onError?.(error, variables);
    },
    onSettled: () => {
      inFlight.current = false;
    },
  });

  const submit = (variables: TVariables) => {
    if (inFlight.current) return;
    inFlight.current = true;
    mutation.mutate(variables);
  };

  return { ...mutation, submit };
}
