import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api.ts';

/**
 * Client errors (4xx) are answers, not glitches: they are never retried, except a
 * refetch refused by the client's own burst guard (several pushed events within one
 * second), which is tried again a moment later so the screen does not stay stale.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.code === 'client_throttled') return failureCount < 3;
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        gcTime: 5 * 60_000,
        retry: shouldRetry,
        retryDelay: 1_000,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
