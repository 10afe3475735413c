import { timingSafeEqual } from 'node:crypto';
import * as oidc from 'openid-client';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { admins, oidcStates, students } from '../../db/schema.ts';
import type { SignInProviderConfig } from '../../config.ts';
import { AppError } from '../../app-error.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { beginAttempt, clearFailures, createSession, hashToken, recordFailure, type Attempt, type RequestContext } from './auth.service.ts';
import type { Area } from '../../../shared/areas.ts';
import type { SignInProvider, SignInRefusal } from '../../../shared/school-accounts.ts';

/**
 * Sign-in with the school's accounts (Google Workspace, Microsoft 365) by OpenID Connect: the authorization code flow
 * with PKCE, state and nonce, done by openid-client (discovery, the token request, the ID token's signature, issuer,
 * audience, expiry and nonce). What is Méritus's own is here: the state kept for one use, and who a verified email is.
 * An account is never created: the email must already be an active staff member's or a student's (decision 024).
 */

/** How long a sign-in may stay at the provider, from the redirect to the callback. */
const SIGN_IN_STATE_TTL_MS = 10 * 60_000;

/** Seconds the server waits for the provider (discovery, keys, the token request) before the sign-in fails. */
const PROVIDER_TIMEOUT_SECONDS = 10;

/** What is asked of the provider: who the person is and their email (and name, for the provider's consent screen). */
const SCOPE = 'openid email profile';

/** A provider's metadata and keys, discovered once per configuration; a failed discovery is tried again next time. */
const discovered = new WeakMap<SignInProviderConfig, Promise<oidc.Configuration>>();

function configurationOf(settings: SignInProviderConfig): Promise<oidc.Configuration> {
  let configuration = discovered.get(settings);
  if (!configuration) {
    const pending = oidc
      .discovery(settings.issuer, settings.clientId, settings.clientSecret, undefined, {
        timeout: PROVIDER_TIMEOUT_SECONDS,
        // config.ts admits plain http only for a provider on this machine.
        execute: settings.issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
      })
      .then((found) => {
        found.timeout = PROVIDER_TIMEOUT_SECONDS;
        return found;
      });
    pending.catch(() => {
      if (discovered.get(settings) === pending) discovered.delete(settings);
    });
    discovered.set(settings, pending);
    configuration = pending;
  }
  return configuration;
}

/** A sign-in that did not open a session: where the person goes back to, and why (for the audit log and the server's log). */
export type SignInRefused = { refused: SignInRefusal; reason: string; detail?: string };

/** How an error of openid-client or the provider reads in the logs (its code and the OAuth error, never a token). */
function describeProviderError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code, error: oauthError, error_description: description } = error as Error & Record<string, unknown>;
  // openid-client wraps the check that failed, whose message names the claim (nonce, iss, aud…).
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return [code, oauthError, description ?? error.message, cause].filter((part) => typeof part === 'string' && part !== '').join(': ');
}

/**
 * Begins a sign-in with a provider: a state, a nonce and a PKCE verifier, kept in the database for one use (so the
 * callback may reach any server instance), and the provider's address to send the browser to. The browser keeps the
 * state in a cookie, which the callback compares with the state the provider sends back.
 */
export async function startSignIn(
  db: Db,
  provider: SignInProvider,
  settings: SignInProviderConfig,
): Promise<{ location: string; state: string; expiresAt: Date } | SignInRefused> {
  let configuration: oidc.Configuration;
  try {
    configuration = await configurationOf(settings);
  } catch (error) {
    return { refused: 'school_account_failed', reason: 'provider_unreachable', detail: describeProviderError(error) };
  }
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const expiresAt = new Date(Date.now() + SIGN_IN_STATE_TTL_MS);
  await db.insert(oidcStates).values({ stateHash: hashToken(state), provider, nonce, codeVerifier, expiresAt });
  const location = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: settings.redirectUri,
    scope: SCOPE,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    // Students share the school's computers: the provider asks which account, rather than taking the one signed in there.
    prompt: 'select_account',
  });
  return { location: location.href, state, expiresAt };
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A claim that says yes: a JSON true, or the text 'true' or '1' some providers send. */
function isYes(value: unknown): boolean {
  return value === true || value === 'true' || value === '1' || value === 1;
}

/**
 * The email a provider vouches for, lower-cased, or null. Google sets `email_verified`. Microsoft's `email` is
 * whatever the directory holds and it sends no `email_verified`: its optional claim `xms_edov` (the email's domain
 * is verified by the tenant that owns it) says the same, and the school's app registration must ask for it.
 */
function verifiedEmailOf(provider: SignInProvider, claims: oidc.IDToken): { email: string | null; verified: boolean } {
  const email = typeof claims.email === 'string' && claims.email.includes('@') ? claims.email.trim().toLowerCase() : null;
  const verified = isYes(claims.email_verified) || (provider === 'microsoft' && isYes(claims.xms_edov));
  return { email, verified };
}

/** The accounts of the school that this email names: an active staff member, students not removed. */
async function accountsOf(db: Db, email: string) {
  const [staff] = await db
    .select({ id: admins.id, name: admins.name, active: admins.active })
    .from(admins)
    .where(eq(sql`lower(${admins.email})`, email))
    .limit(1);
  const pupils = await db
    .select({ id: students.id, name: students.name, studentId: students.studentId })
    .from(students)
    .where(and(eq(sql`lower(${students.email})`, email), isNull(students.deletedAt)))
    .limit(2);
  return { staff, pupils };
}

/**
 * Finishes a sign-in when the provider sends the browser back: the state must be the browser's own and unused, the code
 * is exchanged (with the PKCE verifier) for an ID token that openid-client checks (signature, issuer, audience, expiry,
 * nonce), and its verified email, of an allowed domain, must be one account of the school. Then a session opens as
 * with a password. The sign-in limits count the refusals of an email as they count wrong passwords.
 */
export async function finishSignIn(
  db: Db,
  provider: SignInProvider,
  settings: SignInProviderConfig,
  callback: { url: URL; browserState: string | undefined },
  context: RequestContext,
): Promise<{ token: string; expiresAt: Date; area: Area } | SignInRefused> {
  const failed = async (reason: string, detail?: string): Promise<SignInRefused> => {
    await recordAudit(db, {
      actor: { kind: 'anonymous', label: `oidc:${provider}` },
      action: 'login.failure',
      ip: context.ip,
      details: { reason, method: 'oidc', provider, ...(detail ? { detail } : {}) },
    });
    return { refused: 'school_account_failed', reason, ...(detail ? { detail } : {}) };
  };

  const state = callback.url.searchParams.get('state');
  // Another browser's state (a link someone was sent) or none: the sign-in was not started here.
  if (!state || !callback.browserState || !sameText(state, callback.browserState)) return failed('state_mismatch');
  // Taken at once, so a state is used once even when the callback is sent twice at the same moment.
  const [pending] = await db
    .delete(oidcStates)
    .where(and(eq(oidcStates.stateHash, hashToken(state)), eq(oidcStates.provider, provider)))
    .returning();
  if (!pending || pending.expiresAt.getTime() <= Date.now()) return failed('state_unknown');

  let claims: oidc.IDToken | undefined;
  try {
    const configuration = await configurationOf(settings);
    const tokens = await oidc.authorizationCodeGrant(
      configuration,
      callback.url,
      { pkceCodeVerifier: pending.codeVerifier, expectedState: state, expectedNonce: pending.nonce, idTokenExpected: true },
      { redirect_uri: settings.redirectUri },
    );
    claims = tokens.claims();
  } catch (error) {
    // The person cancelled at the provider, the code expired or was used, the token did not check out.
    return failed('exchange_failed', describeProviderError(error));
  }
  if (!claims) return failed('exchange_failed', 'no ID token');

  const { email, verified } = verifiedEmailOf(provider, claims);
  let attempt: Attempt;
  try {
    attempt = await beginAttempt(db, `oidc:${email ?? `${provider}:${claims.sub}`}`, context);
  } catch (error) {
    if (error instanceof AppError && error.code === 'login_locked') return { refused: 'login_locked', reason: 'login_locked' };
    throw error;
  }
  const refuse = async (reason: string): Promise<SignInRefused> => {
    await recordFailure(db, attempt, context, reason, { method: 'oidc', provider });
    return { refused: 'school_account_unknown', reason };
  };
  if (!email || !verified) return refuse('unverified_email');
  if (!settings.emailDomains.includes(email.slice(email.lastIndexOf('@') + 1))) return refuse('wrong_domain');

  const { staff, pupils } = await accountsOf(db, email);
  const candidates = [
    ...(staff?.active ? [{ area: 'admin' as const, ...staff }] : []),
    ...pupils.map((pupil) => ({ area: 'student' as const, ...pupil })),
  ];
  // One email on two accounts cannot say which is meant: the coordination fixes the records.
  if (candidates.length > 1) return refuse('ambiguous_account');
  const account = candidates[0];
  if (!account) return refuse(staff ? 'inactive_account' : 'unknown_account');

  const now = new Date();
  if (account.area === 'admin') await db.update(admins).set({ lastLogin: now }).where(eq(admins.id, account.id));
  else await db.update(students).set({ lastLogin: now }).where(eq(students.id, account.id));
  await clearFailures(db, attempt);
  const session = await createSession(db, account.area === 'admin' ? { adminId: account.id } : { studentUuid: account.id }, context);
  await recordAudit(db, {
    actor:
      account.area === 'admin'
        ? { kind: 'admin', id: account.id, label: account.name }
        : { kind: 'student', id: account.id, label: `${account.name} (${account.studentId})` },
    action: 'login.success',
    ip: context.ip,
    details: { method: 'oidc', provider },
  });
  return { ...session, area: account.area };
}
