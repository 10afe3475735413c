import { SIGN_IN_PATH, SIGN_IN_REFUSAL_PARAM } from './constants.ts';
import type { CoreErrorCode } from './messages-core.ts';

/**
 * Sign-in with the school's accounts (OpenID Connect): the providers a server may be configured for, each the route
 * param of /api/auth/oidc/:provider/start and …/callback, and the name on its button.
 */
export const SIGN_IN_PROVIDERS = ['google', 'microsoft'] as const;
export type SignInProvider = (typeof SIGN_IN_PROVIDERS)[number];

export const SIGN_IN_PROVIDER_NAMES: Record<SignInProvider, string> = { google: 'Google', microsoft: 'Microsoft' };

/** Why the server may send someone back to the sign-in page: each is an error code with its pt-BR text. */
export const SIGN_IN_REFUSALS = [
  'school_account_unknown',
  'school_account_failed',
  'login_locked',
] as const satisfies readonly CoreErrorCode[];
export type SignInRefusal = (typeof SIGN_IN_REFUSALS)[number];

/** The sign-in page's address that shows a refusal. */
export function signInRefusedPath(refusal: SignInRefusal): string {
  return `${SIGN_IN_PATH}?${new URLSearchParams({ [SIGN_IN_REFUSAL_PARAM]: refusal })}`;
}

/** The refusal a sign-in page's query names, or null (an unknown code is ignored: the link may be hand-made). */
export function signInRefusalOf(search: string): SignInRefusal | null {
  const code = new URLSearchParams(search).get(SIGN_IN_REFUSAL_PARAM);
  return SIGN_IN_REFUSALS.find((refusal) => refusal === code) ?? null;
}
