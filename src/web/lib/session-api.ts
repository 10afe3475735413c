import type { AdminLoginInput, SessionUser, StudentLoginInput } from '../../shared/auth.ts';
import { auth } from '../../shared/contract/auth.ts';
import { CORE_ERROR_MESSAGES as ERROR_MESSAGES } from '../../shared/messages-core.ts';
import { api, call, isApiError, type ApiClient } from './api.ts';

/**
 * The session's calls without the query client, so the login page (first load) does not
 * pull TanStack Query in; the signed-in part keeps the session in its cache (session.ts).
 */

/**
 * GET /api/auth/me; a 401 means "nobody signed in" (null), not an error. The server
 * validates this response against `sessionUser` already; not parsing it again here keeps
 * zod out of the first page's bundle.
 */
async function fetchSession(apiClient: ApiClient = api): Promise<SessionUser | null> {
  try {
    return await apiClient.call(auth.me);
  } catch (error) {
    if (!isApiError(error) || error.status !== 401) throw error;
    endedBy = error.code === 'session_password_reset' ? error.message : undefined;
    return null;
  }
}

/** Why the session the browser still names ended, as the last check heard it: the reset password's text, or undefined. */
let endedBy: string | undefined;

export function sessionEndedBy(): string | undefined {
  return endedBy;
}

let firstCheck: Promise<SessionUser | null> | undefined;

/**
 * Asks /api/auth/me as the page starts, so the answer travels while the page's code downloads
 * (a signed-in screen would otherwise ask only once its chunk has run).
 */
export function startSessionCheck(): void {
  firstCheck = fetchSession();
  // Whoever takes it (sessionCheck) sees the failure; unclaimed, it is not an unhandled rejection.
  firstCheck.catch(() => undefined);
}

/** Who is signed in: the answer asked at start the first time, a fresh request (through `apiClient`) after that. */
export function sessionCheck(apiClient?: ApiClient): Promise<SessionUser | null> {
  const started = firstCheck;
  firstCheck = undefined;
  return started ?? fetchSession(apiClient);
}

export type LoginRequest =
  { role: 'student'; input: StudentLoginInput } | { role: 'admin'; input: AdminLoginInput } | { role: 'familia'; input: AdminLoginInput };

export function postLogin(request: LoginRequest): Promise<SessionUser> {
  if (request.role === 'student') return call(auth.studentLogin, { body: request.input });
  return call(request.role === 'admin' ? auth.adminLogin : auth.guardianLogin, { body: request.input });
}

export function displayName(user: SessionUser): string {
  if (user.role === 'student') return user.student.name;
  return user.role === 'guardian' ? user.guardian.name : user.admin.name;
}

/** A sign-in the server refused (wrong password, too many attempts): its message, which the form shows under the password. */
export function loginRefusal(error: unknown): string | undefined {
  return isApiError(error) && error.status >= 400 && error.status < 500 && error.code !== 'client_throttled' ? error.message : undefined;
}

/** The text to show for a failed sign-in: the refusal, no connection to the server (no answer, or a proxy's 502–504), or a failure. */
export function loginErrorMessage(error: unknown): string {
  const unreachable = isApiError(error) && (error.status === 0 || (error.status >= 502 && error.status <= 504));
  return loginRefusal(error) ?? (unreachable ? ERROR_MESSAGES.network : ERROR_MESSAGES.login_error);
}
