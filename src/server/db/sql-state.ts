/**
 * The PostgreSQL SQLSTATE of a failed query (e.g. '23505' unique violation,
 * '40P01' deadlock), looking through the wrappers drivers and Drizzle add.
 */
export function sqlState(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
