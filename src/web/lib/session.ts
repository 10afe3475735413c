import { useMutation, useQuery, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'react-hot-toast';
import type { SessionUser } from '../../shared/auth.ts';
import { ERROR_MESSAGES, MESSAGES } from '../../shared/errors.ts';
import { routes } from '../../shared/contract/routes.ts';
import { call, isApiError, type ApiError } from './api.ts';
import { queryClient } from './query-client.ts';
import { apiClientOf, queryKeyOf } from './query-keys.ts';
import { paths } from './paths.ts';
import { sessionCheck } from './session-api.ts';

const sessionKey = queryKeyOf(routes.auth.me);

export const sessionQueryOptions = {
  queryKey: sessionKey,
  queryFn: ({ client }: { client: QueryClient }) => sessionCheck(apiClientOf(client)),
  staleTime: 60_000,
} as const;

export type Session = {
  user: SessionUser | null;
  isLoading: boolean;
  /** The session could not be checked (server or network down). */
  error: Error | null;
  refetch: () => void;
};

/** The signed-in user, kept by TanStack Query (never in browser storage). */
export function useSession(options: { refetchInterval?: number | false } = {}): Session {
  const query = useQuery({ ...sessionQueryOptions, refetchInterval: options.refetchInterval ?? false });
  return {
    user: query.data ?? null,
    isLoading: query.isPending,
    error: query.error,
    refetch: () => void query.refetch(),
  };
}

/**
 * Who is signed in from now on (null: nobody): drops everything fetched for the previous
 * user; after a sign-in the cache starts with the user the login answered (no second /auth/me).
 */
export function setSessionUser(user: SessionUser | null): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== routes.auth.me.id });
  queryClient.setQueryData(sessionKey, user);
}

/** Ends the session on the server, then returns to /login. */
export function useLogout() {
  const navigate = useNavigate();
  return useMutation<void, ApiError>({
    mutationFn: async () => {
      try {
        await call(routes.auth.logout);
      } catch (error) {
        // Already signed out (expired session): the goal is reached.
        if (!(isApiError(error) && error.status === 401)) throw error;
      }
    },
    onSuccess: () => {
      void navigate(paths.login, { replace: true });
      setSessionUser(null);
      toast.success(MESSAGES.logout);
    },
    onError: () => {
      toast.error(ERROR_MESSAGES.logout_error);
    },
  });
}
