import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'react-hot-toast';
import type { AdminLoginInput, SessionUser, StudentLoginInput } from '../../shared/auth.ts';
import { ERROR_MESSAGES, MESSAGES } from '../../shared/errors.ts';
import { api, isApiError, type ApiError } from '../lib/api.ts';
import { queryKeys } from '../lib/query-keys.ts';
import { homePath, paths } from './paths.ts';

/**
 * GET /api/auth/me; a 401 means "nobody signed in" (null), not an error. The server
 * validates this response against `sessionUser` already; not parsing it again here keeps
 * zod out of the first page's bundle.
 */
export const sessionQueryOptions = {
  queryKey: queryKeys.me,
  queryFn: async (): Promise<SessionUser | null> => {
    try {
      return await api.get<SessionUser>('/auth/me');
    } catch (error) {
      if (isApiError(error) && error.status === 401) return null;
      throw error;
    }
  },
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

/** Forgets the signed-in user and everything fetched for them. */
export function clearSession(client: QueryClient): void {
  client.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.me[0] });
  client.setQueryData(queryKeys.me, null);
}

export type LoginRequest = { role: 'student'; input: StudentLoginInput } | { role: 'admin'; input: AdminLoginInput };

export function displayName(user: SessionUser): string {
  return user.role === 'student' ? user.student.name : user.admin.name;
}

/** The text to show for a failed sign-in. */
export function loginErrorMessage(error: unknown): string {
  if (isApiError(error) && error.status >= 400 && error.status < 500 && error.code !== 'client_throttled') return error.message;
  return ERROR_MESSAGES.login_error;
}

/** Signs in, greets the user and opens their home. */
export function useLogin() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return useMutation<SessionUser, ApiError, LoginRequest>({
    mutationFn: (request) =>
      api.post<SessionUser>(request.role === 'student' ? '/auth/student/login' : '/auth/admin/login', request.input),
    onSuccess: (user) => {
      client.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.me[0] });
      client.setQueryData(queryKeys.me, user);
      toast.success(MESSAGES.welcome(displayName(user)));
      void navigate(homePath(user.role), { replace: true });
    },
    onError: (error) => {
      toast.error(loginErrorMessage(error));
    },
  });
}

/** Ends the session on the server, then returns to /login. */
export function useLogout() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return useMutation<void, ApiError>({
    mutationFn: async () => {
      try {
        await api.post('/auth/logout');
      } catch (error) {
        // Already signed out (expired session): the goal is reached.
        if (!(isApiError(error) && error.status === 401)) throw error;
      }
    },
    onSuccess: () => {
      void navigate(paths.login, { replace: true });
      clearSession(client);
      toast.success(MESSAGES.logout);
    },
    onError: () => {
      toast.error(ERROR_MESSAGES.logout_error);
    },
  });
}
