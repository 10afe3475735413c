import { sql, type SQL } from 'drizzle-orm';

/**
 * Every PostgreSQL advisory lock Méritus takes, by name, each with its own key: two jobs
 * that share a key wait on each other for nothing. Keys live only here; the SQL functions
 * of ledger.sql write theirs as a literal, which a test holds equal to this table.
 */
export const ADVISORY_LOCKS = {
  /** Instances starting together migrate and create the first data one at a time (held by a session, client.ts). */
  startup: 727374,
  /** ledger.sql: one fold of the queued report sums at a time; a student's change of turma waits for it. */
  ledgerSums: 727375,
  /** Administrators are created and removed one at a time (the school never loses its last one; an email is taken once). */
  admins: 727376,
  /** Changes of the school's settings and turmas, one at a time. */
  schoolSettings: 727377,
  /** Reason presets, one change at a time. */
  reasonPresets: 727378,
  /** The one-time removal of metadata from archive originals stored before it existed: one instance runs it (held by a connection of its own). */
  archiveStoredMetadata: 727379,
  /** The school years and their periods, one change at a time (their dates are checked against the others'). */
  schoolYears: 727390,
  /** One year's rollover at a time: another apply meanwhile is refused at once, not queued (decision 031). */
  rollover: 727391,
  /** Erasures of students' personal data, one at a time: each takes the next 'Aluno removido #n' (decision 030). */
  studentErasures: 727392,
} as const;

export type AdvisoryLockName = keyof typeof ADVISORY_LOCKS;

/** Takes a lock until the caller's transaction ends. */
export async function lockForTransaction(tx: { execute(query: SQL): PromiseLike<unknown> }, name: AdvisoryLockName): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${ADVISORY_LOCKS[name]})`);
}

/** Takes a lock until the caller's transaction ends if no one holds it: false when another holds it (the caller refuses, not waits). */
export async function tryLockForTransaction(tx: { execute(query: SQL): PromiseLike<unknown> }, name: AdvisoryLockName): Promise<boolean> {
  // Shaped as node-postgres or PGlite answers (client.ts's rowsOf; not imported here, client.ts imports this file).
  const result = (await tx.execute(sql`SELECT pg_try_advisory_xact_lock(${ADVISORY_LOCKS[name]}) AS locked`)) as
    { rows: { locked: boolean }[] } | { locked: boolean }[];
  const [row] = Array.isArray(result) ? result : result.rows;
  return row?.locked === true;
}

/** The statements that take and release a lock held by one connection until released, for code holding a raw client. */
export function sessionLockStatements(name: AdvisoryLockName): { lock: string; unlock: string; tryLock: string } {
  const key = ADVISORY_LOCKS[name];
  return {
    lock: `SELECT pg_advisory_lock(${key})`,
    unlock: `SELECT pg_advisory_unlock(${key})`,
    tryLock: `SELECT pg_try_advisory_lock(${key}) AS locked`,
  };
}
