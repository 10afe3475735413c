import { QueryClient } from '@tanstack/react-query';

/**
 * Reads are retried in one place, the API client (lib/api.ts: network failures and server
 * errors, a bounded number of times; a burst refused by its guard waits for the window).
 * A retry here as well would multiply the attempts of a failing read.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        gcTime: 5 * 60_000,
        retry: false,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
