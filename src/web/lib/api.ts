import { BUILD_HEADER, CLIENT_THROTTLE } from '../../shared/constants.ts';
import { auth } from '../../shared/contract/auth.ts';
import { urlOf, type AddressOf, type AnswerOf, type ArgsOf, type Method, type RequestOf, type Route } from '../../shared/contract/route.ts';
import { CORE_ERROR_MESSAGES as ERROR_MESSAGES, isCoreErrorCode } from '../../shared/messages-core.ts';
import { REQUEST_ID_HEADER } from '../../shared/request-id.ts';
import { takeFirstAnswer } from './first-answers.ts';
import { noteServerBuild } from './build-version.ts';

/**
 * The app's only retry layer (the query client does not retry): a request that is safe to
 * repeat (a read, a sign-in, or a write carrying an Idempotency-Key) is sent up to MAX_ATTEMPTS
 * times while it meets a network failure or a server error, after the wait the server's
 * Retry-After asks (at most MAX_RETRY_AFTER_MS) or a doubling one. A 4xx is an answer, never retried.
 */
export const MAX_ATTEMPTS = 3;
export const RETRY_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 504]);
/** Revalidated answers kept (the ranking's pages a long scroll loaded, the summary); the oldest goes first. */
const REVALIDATED_MAX = 100;

export const MAX_RETRY_AFTER_MS = 10_000;

/** Answers that say the server, or the database behind it, could not be reached: a failure of the connection, not of the request. */
const UNREACHABLE_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** Calls whose 401 is an answer, not an expired session. */
const SESSION_CALLS: readonly Route[] = [auth.me, auth.studentLogin, auth.adminLogin, auth.logout];

/** Writes safe to repeat without a key: a sign-in sent twice opens at most one more session, which the second answer's cookie replaces. */
const SIGN_INS: readonly Route[] = [auth.studentLogin, auth.adminLogin];

/** An API failure with the stable code and the pt-BR text to show. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;
  /** What the server said besides the message (who is short of a refused removal); read with the code's schema. */
  readonly details: unknown;
  /** The server's id of the failed request (X-Request-Id), which its log line carries; null when no answer came. */
  readonly requestId: string | null;

  constructor(
    status: number,
    code: string,
    message: string,
    fields?: Record<string, string>,
    details?: unknown,
    requestId: string | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.details = details;
    this.requestId = requestId;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * A request the server refused with a reason for the user (a matrícula in use, a balance too low; a full disk, 507,
 * which someone must free), not a failure of the server or the network.
 */
export function isRefusal(error: unknown): error is ApiError {
  return isApiError(error) && ((error.status >= 400 && error.status < 500 && error.code !== 'internal') || error.code === 'storage_full');
}

/**
 * The server's pt-BR message, which may carry particulars (how long to wait before signing
 * in again); the text known for the code when the answer has none (a proxy's error page, which
 * only ever carries the transport and session codes: a domain refusal always comes with its message).
 */
function messageFor(code: string, serverMessage: string | undefined): string {
  if (serverMessage) return serverMessage;
  return isCoreErrorCode(code) ? ERROR_MESSAGES[code] : ERROR_MESSAGES.internal;
}

/** A route answered with JSON; a file's or a stream's address comes from `urlOf`. */
export type JsonRoute = Route & { answer: 'json' };

/**
 * What a call sends besides the route's params, query and body. Its answer's type is the route's (AnswerOf, from its
 * response schema): the answer is not parsed again here, because the server checks each answer against that schema
 * before sending it.
 */
export type CallOptions = {
  /** Sent as the Idempotency-Key header; makes a write safe to retry. */
  idempotencyKey?: string;
  signal?: AbortSignal;
};

/** The argument of a call of route R: its params, query and body as its schemas read them, and the call's options. */
export type CallArgs<R> = ArgsOf<RequestOf<R> & CallOptions>;

export type ApiClientOptions = {
  fetch?: typeof fetch;
  /** The answer the page already holds for a GET of this URL, if any (first-answers.ts): no request then. */
  firstAnswer?: (url: string) => { answer: unknown } | undefined;
  retryDelayMs?: number;
  now?: () => number;
};

/** The failure a non-2xx answer stands for (also for answers read outside the client, e.g. an upload sent with XMLHttpRequest). */
export async function toApiError(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const error = (body as { error?: { code?: unknown; message?: unknown; fields?: unknown; details?: unknown } } | undefined)?.error;
  const code = typeof error?.code === 'string' ? error.code : response.status >= 500 ? 'internal' : 'bad_request';
  const serverMessage = typeof error?.message === 'string' ? error.message : undefined;
  const fields = error?.fields && typeof error.fields === 'object' ? (error.fields as Record<string, string>) : undefined;
  return new ApiError(
    response.status,
    code,
    messageFor(code, serverMessage),
    fields,
    error?.details,
    response.headers.get(REQUEST_ID_HEADER),
  );
}

/** The wait a retryable answer's Retry-After asks (seconds or a date), within MAX_RETRY_AFTER_MS; null without one. */
function retryAfterMs(response: Response, now: number): number | null {
  const value = response.headers.get('Retry-After');
  if (!value) return null;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : null;
}

/** Waits `ms`, or fails at once with the signal's reason when the caller gives up meanwhile. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Builds the one fetch client of the app: JSON in and out, same-origin cookies, pt-BR
 * errors, the retries (see MAX_ATTEMPTS), a guard against bursts of identical requests,
 * and a hook for expired sessions.
 */
export function createApiClient(options: ApiClientOptions = {}) {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const retryDelayMs = options.retryDelayMs ?? 400;
  const now = options.now ?? (() => Date.now());
  const recent = new Map<string, number[]>();
  /**
   * The latest answer of each revalidated read (a route with `revalidate`) with its ETag, by address: the tag goes back
   * as If-None-Match, and a 304 gives the kept answer again (the same object, so the screen has nothing to redraw).
   * The browser's own cache would do it too, but only where there is one: the client also runs in Node (the benches).
   */
  const revalidated = new Map<string, { etag: string; answer: unknown }>();
  let onUnauthorized: (() => void) | undefined;
  let onReconnecting: ((reconnecting: boolean) => void) | undefined;
  /** Calls waiting to try again after the server could not be reached. */
  let reconnecting = 0;

  function keepRevalidated(url: string, etag: string | null, answer: unknown): void {
    revalidated.delete(url);
    if (!etag) return;
    revalidated.set(url, { etag, answer });
    if (revalidated.size > REVALIDATED_MAX) revalidated.delete(revalidated.keys().next().value!);
  }

  /**
   * Counts the request when fewer than CLIENT_THROTTLE.maxIdentical identical ones ran within
   * the window (returns 0); otherwise returns how long until the oldest of them leaves it.
   */
  function throttleWait(key: string): number {
    const time = now();
    const times = (recent.get(key) ?? []).filter((at) => time - at < CLIENT_THROTTLE.windowMs);
    if (times.length >= CLIENT_THROTTLE.maxIdentical) {
      recent.set(key, times);
      return times[0]! + CLIENT_THROTTLE.windowMs - time;
    }
    times.push(time);
    recent.set(key, times);
    if (recent.size > 200) {
      for (const [other, otherTimes] of recent) {
        if (otherTimes.every((at) => time - at >= CLIENT_THROTTLE.windowMs)) recent.delete(other);
      }
    }
    return 0;
  }

  /**
   * A burst of identical writes is refused. A burst of identical reads (pushed events
   * arriving faster than the window) waits its turn instead, however many wait with it, so
   * the screen ends up fresh and never shows a load error for it.
   */
  async function throttle(method: Method, key: string, signal: AbortSignal | undefined): Promise<void> {
    let wait = throttleWait(key);
    if (wait === 0) return;
    if (method !== 'GET') throw new ApiError(429, 'client_throttled', ERROR_MESSAGES.client_throttled);
    while (wait > 0) {
      await pause(wait, signal);
      wait = throttleWait(key);
    }
  }

  /** One call of a route; resolves with its answer's JSON, unparsed (see CallOptions), or null for a 204. */
  async function call<R extends JsonRoute>(route: R, ...[args]: CallArgs<R>): Promise<AnswerOf<R>> {
    const { params, query, body, idempotencyKey, signal } = (args ?? {}) as { body?: unknown } & CallOptions & AddressOf<Route>;
    const method = route.method;
    const url = urlOf<Route>(route, { params, query });
    const inPage = method === 'GET' ? options.firstAnswer?.(url) : undefined;
    if (inPage) return inPage.answer as AnswerOf<R>;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    const held = route.revalidate ? revalidated.get(url) : undefined;
    if (held) headers['If-None-Match'] = held.etag;
    const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
    let payload: BodyInit | undefined;
    if (isForm) payload = body;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
    }

    await throttle(method, `${method} ${url} ${isForm ? '[form]' : (payload ?? '')}`, signal);

    const maxAttempts = method === 'GET' || idempotencyKey || SIGN_INS.includes(route) ? MAX_ATTEMPTS : 1;
    let response: Response | undefined;
    // Counted once per call, from its first retry for want of a connection until it is answered or gives up.
    let counted = false;
    const retryingUnreachable = () => {
      if (counted) return;
      counted = true;
      if (reconnecting++ === 0) onReconnecting?.(true);
    };
    try {
      for (let attempt = 1; ; attempt += 1) {
        // Doubling waits (400 ms, 800 ms) give a restarting server a moment, unless it says how long.
        const backoff = retryDelayMs * 2 ** (attempt - 1);
        try {
          response = await doFetch(url, { method, headers, body: payload, credentials: 'same-origin', signal });
        } catch (cause) {
          if (signal?.aborted) throw cause;
          if (attempt < maxAttempts) {
            retryingUnreachable();
            await pause(backoff, signal);
            continue;
          }
          throw new ApiError(0, 'network', ERROR_MESSAGES.network);
        }
        if (!response.ok && RETRY_STATUSES.has(response.status) && attempt < maxAttempts) {
          if (UNREACHABLE_STATUSES.has(response.status)) retryingUnreachable();
          await pause(retryAfterMs(response, now()) ?? backoff, signal);
          continue;
        }
        break;
      }
    } finally {
      if (counted && --reconnecting === 0) onReconnecting?.(false);
    }

    // Which front end the server serves now: a page of an older build reloads to it (build-version.ts).
    noteServerBuild(response.headers.get(BUILD_HEADER));
    if (response.status === 304 && held) return held.answer as AnswerOf<R>;
    if (!response.ok) {
      const error = await toApiError(response);
      if (response.status === 401 && !SESSION_CALLS.includes(route)) onUnauthorized?.();
      throw error;
    }
    if (response.status === 204) return null as AnswerOf<R>;
    const text = await response.text();
    const answer: unknown = text ? JSON.parse(text) : null;
    if (route.revalidate) keepRevalidated(url, response.headers.get('ETag'), answer);
    return answer as AnswerOf<R>;
  }

  return {
    call,
    /** What to do when a call answers 401 (the session expired or was ended elsewhere). */
    onUnauthorized(handler: (() => void) | undefined): void {
      onUnauthorized = handler;
    },
    /**
     * Told `true` when a call starts retrying because the server could not be reached (no answer, or 502, 503,
     * 504), and `false` once no call is retrying any more (each was answered or gave up).
     */
    onReconnecting(handler: ((reconnecting: boolean) => void) | undefined): void {
      onReconnecting = handler;
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The app's client, which answers a signed-in page's first reads with what the page came with. */
export const api = createApiClient({ firstAnswer: takeFirstAnswer });

/** Calls a route of the contract (src/shared/contract) with the app's client: `call(routes.students.ranking)`. */
export const call = api.call;
