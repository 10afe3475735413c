import { ERROR_MESSAGES, type ErrorCode } from '../shared/errors.ts';

const STATUS: Partial<Record<ErrorCode, number>> = {
  unauthenticated: 401,
  student_login_failed: 401,
  admin_login_failed: 401,
  forbidden: 403,
  csrf: 403,
  not_found: 404,
  student_not_found: 404,
  idempotency_conflict: 409,
  idempotency_in_progress: 409,
  student_id_taken: 409,
  email_taken: 409,
  rate_limited: 429,
  live_streams_full: 429,
  live_streams_account_full: 429,
  login_locked: 429,
  body_too_large: 413,
  internal: 500,
  service_unavailable: 503,
};

/** How long a client waits before retrying a request the database could not serve (PostgreSQL restarting takes a few seconds). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 3;

/** An expected failure with a stable code; the error handler turns it into status + pt-BR message. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  /** Sent as `Retry-After` (seconds) when the refusal ends at a known time. */
  readonly retryAfterSeconds: number | undefined;
  /** The pt-BR message of each invalid field, as for a request refused by its schema. */
  readonly fields: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    options: {
      status?: number;
      details?: Record<string, unknown>;
      message?: string;
      retryAfterSeconds?: number;
      fields?: Record<string, string>;
    } = {},
  ) {
    super(options.message ?? ERROR_MESSAGES[code]);
    this.code = code;
    this.status = options.status ?? STATUS[code] ?? 400;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.fields = options.fields;
  }
}

/** The answer to a request the database could not serve: 503 with Retry-After, never 500. */
export function serviceUnavailable(): AppError {
  return new AppError('service_unavailable', { retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS });
}
