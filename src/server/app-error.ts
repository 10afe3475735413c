import { ERROR_MESSAGES, type ErrorCode } from '../shared/errors.ts';

const STATUS: Partial<Record<ErrorCode, number>> = {
  unauthenticated: 401,
  session_password_reset: 401,
  student_login_failed: 401,
  admin_login_failed: 401,
  forbidden: 403,
  csrf: 403,
  archive_not_own_image: 403,
  student_outside_turmas: 403,
  turma_outside_turmas: 403,
  password_change_required: 403,
  ranking_turma_not_own: 403,
  ranking_hide_not_allowed: 403,
  not_found: 404,
  student_not_found: 404,
  report_no_top_students: 404,
  entry_not_found: 404,
  receipt_not_found: 404,
  reversal_not_own: 403,
  reversal_transfer_coordination: 403,
  already_reversed: 409,
  reversal_not_reversible: 409,
  reversal_store_entry: 409,
  idempotency_conflict: 409,
  idempotency_in_progress: 409,
  student_id_taken: 409,
  award_budget_exceeded: 422,
  email_taken: 409,
  staff_not_found: 404,
  staff_last_coordinator: 409,
  staff_self: 409,
  store_item_not_found: 404,
  store_order_not_found: 404,
  store_sold_out: 409,
  store_limit_reached: 409,
  store_unavailable: 409,
  store_goal_reached: 409,
  store_goal_exceeds: 409,
  store_goal_below_raised: 409,
  store_goal_locked: 409,
  store_not_a_goal: 409,
  store_order_not_pending: 409,
  store_stock_below_orders: 409,
  store_too_many_items: 409,
  school_year_overlap: 409,
  school_year_name_taken: 409,
  school_year_not_found: 404,
  school_period_not_found: 404,
  school_year_none_current: 404,
  school_year_closed: 409,
  rollover_no_year: 409,
  rollover_stale: 409,
  rollover_running: 409,
  rollover_backup_failed: 503,
  student_already_erased: 409,
  hall_of_fame_year_not_found: 404,
  honour_not_found: 404,
  honour_certificate_not_own: 403,
  guardian_code_invalid: 422,
  guardian_email_taken: 409,
  guardian_already_linked: 409,
  guardian_link_not_found: 404,
  family_child_not_found: 404,
  mail_disabled: 409,
  mail_link_invalid: 400,
  rate_limited: 429,
  live_streams_full: 429,
  live_streams_account_full: 429,
  login_locked: 429,
  body_too_large: 413,
  storage_full: 507,
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

/** Errors of a full disk or an exhausted quota. */
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);
/** libvips (sharp) gives the system's message, not its code. */
const DISK_FULL_MESSAGE = /no space left on device|disk quota exceeded/i;

/** Whether writing a file failed because the server's disk (or the account's quota) is full: a 507 'storage_full', never a 500. */
export function isDiskFull(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return (typeof code === 'string' && DISK_FULL_CODES.has(code)) || DISK_FULL_MESSAGE.test(error.message);
}

/** The answer to a request the database could not serve: 503 with Retry-After, never 500. */
export function serviceUnavailable(): AppError {
  return new AppError('service_unavailable', { retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS });
}
