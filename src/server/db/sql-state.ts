type Failure = { code?: unknown; message?: unknown; cause?: unknown };

/** An error and the errors it wraps (drivers and Drizzle add wrappers), outermost first. */
function* chainOf(error: unknown): Generator<Failure> {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    yield current as Failure;
    current = (current as Failure).cause;
  }
}

/**
 * The PostgreSQL SQLSTATE of a failed query (e.g. '23505' unique violation,
 * '40P01' deadlock), looking through the wrappers drivers and Drizzle add.
 */
export function sqlState(error: unknown): string | undefined {
  for (const { code } of chainOf(error)) {
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * SQLSTATEs of a database that cannot serve now: class 08 (connection exception), 57P01–57P03 (shutting
 * down by an administrator's command, after a crash, or not yet accepting connections), 53300 (too many connections).
 */
const UNAVAILABLE_STATES = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/** Node's codes for a connection that could not be made or was cut. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/**
 * What pg says, with no code, of a connection lost or not opened in time, and PGlite of a database closed (the
 * server is stopping): their messages are all there is to tell them by.
 */
const UNAVAILABLE_MESSAGES = new RegExp(
  '^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|' +
    'Cannot use a pool after calling end|PGlite is clos(ed|ing))',
);

/**
 * Whether a request failed because the database could not be reached (PostgreSQL stopped, restarting or
 * unreachable; the embedded database closed): a failure of the moment, not of the request, worth retrying.
 */
export function isConnectionFailure(error: unknown): boolean {
  for (const { code, message } of chainOf(error)) {
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  }
  return false;
}
