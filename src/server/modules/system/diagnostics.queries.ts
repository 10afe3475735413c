import { sql } from 'drizzle-orm';
import { rowsOf, type Db, type DbOrTx } from '../../db/client.ts';
import { typeSign } from '../../db/ledger-direction.ts';
import type { Currency } from '../../../shared/ledger-types.ts';
import type { DiagnosticCounters } from '../../../shared/system.ts';

/** The diagnostic's reads in SQL: each answers figures and keys, never text for the screen. */

async function scalar(db: DbOrTx, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = rowsOf<{ n: string | number | null }>(await db.execute(query));
  return Number(row?.n ?? 0);
}

/** PostgreSQL connections whose last statement is the event bus's LISTEN: it idles after it, and pg_stat_activity keeps it. */
export function eventListeners(db: Db): Promise<number> {
  return scalar(
    db,
    sql`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN "meritus_events"'`,
  );
}

export function adminCount(db: Db): Promise<number> {
  return scalar(db, sql`SELECT count(*) AS n FROM admins`);
}

/** Administrators with an empty required field, and which ones. */
export async function incompleteAdmins(db: Db): Promise<{ id: string; adminId: string; email: string; missing: string[] }[]> {
  const rows = rowsOf<{ id: string; admin_id: string; email: string; missing: string[] }>(
    await db.execute(sql`
      SELECT id, admin_id, email, array_remove(ARRAY[
               CASE WHEN btrim(admin_id) = '' THEN 'adminId' END,
               CASE WHEN btrim(name) = '' THEN 'name' END,
               CASE WHEN btrim(email) = '' THEN 'email' END,
               CASE WHEN password_hash = '' THEN 'password' END,
               CASE WHEN btrim(role) = '' THEN 'role' END], NULL) AS missing
        FROM admins
       WHERE btrim(admin_id) = '' OR btrim(name) = '' OR btrim(email) = '' OR password_hash = '' OR btrim(role) = ''
       ORDER BY created_at`),
  );
  return rows.map((row) => ({ id: row.id, adminId: row.admin_id, email: row.email, missing: row.missing }));
}

/** Emails (lower-cased) held by more than one administrator. */
export async function repeatedAdminEmails(db: Db): Promise<{ email: string; count: number }[]> {
  const rows = rowsOf<{ email: string; n: string | number }>(
    await db.execute(sql`SELECT lower(email) AS email, count(*) AS n FROM admins GROUP BY lower(email) HAVING count(*) > 1`),
  );
  return rows.map((row) => ({ email: row.email, count: Number(row.n) }));
}

/** Every student row, removed ones included, and how many of them are removed. */
export async function studentRowCounts(db: Db): Promise<{ all: number; removed: number }> {
  const [all, removed] = await Promise.all([
    scalar(db, sql`SELECT count(*) AS n FROM students`),
    scalar(db, sql`SELECT count(*) AS n FROM students WHERE deleted_at IS NOT NULL`),
  ]);
  return { all, removed };
}

/** Matrículas held by more than one current student. */
export async function repeatedStudentIds(db: Db): Promise<{ studentId: string; count: number }[]> {
  const rows = rowsOf<{ student_id: string; n: string | number }>(
    await db.execute(sql`SELECT student_id, count(*) AS n FROM students WHERE deleted_at IS NULL GROUP BY student_id HAVING count(*) > 1`),
  );
  return rows.map((row) => ({ studentId: row.student_id, count: Number(row.n) }));
}

/** Which of the named constraints exist and are validated. */
export async function validatedConstraints(db: Db, names: string[]): Promise<Set<string>> {
  const rows = rowsOf<{ conname: string; convalidated: boolean }>(
    await db.execute(
      sql`SELECT conname, convalidated FROM pg_constraint WHERE conname IN (${sql.join(
        names.map((name) => sql`${name}`),
        sql`, `,
      )})`,
    ),
  );
  return new Set(rows.filter((row) => row.convalidated).map((row) => row.conname));
}

/** What the ledger's rows add to the sum of all balances, per currency (transfers add nothing; a reversal takes its row back). */
export async function netFlows(db: Db): Promise<Record<Currency, number>> {
  const rows = rowsOf<{ currency: Currency; net: string | number }>(
    await db.execute(sql`
      SELECT currency, COALESCE(SUM(sign * ${typeSign(sql`type`)} * amount), 0) AS net
        FROM ledger_counted GROUP BY currency`),
  );
  const flows = { meritus: 0, estelecas: 0 };
  for (const row of rows) flows[row.currency] = Number(row.net);
  return flows;
}

/** Ledger rows whose sender or recipient is no student row, at most `limit`. */
export async function danglingEntries(db: Db, limit: number): Promise<{ id: string; side: string }[]> {
  return rowsOf<{ id: string; side: string }>(
    await db.execute(sql`
      SELECT e.id, CASE WHEN e.from_student_id IS NOT NULL AND f.id IS NULL THEN 'from' ELSE 'to' END AS side
        FROM ledger_entries e
        LEFT JOIN students f ON f.id = e.from_student_id
        LEFT JOIN students t ON t.id = e.to_student_id
       WHERE (e.from_student_id IS NOT NULL AND f.id IS NULL) OR (e.to_student_id IS NOT NULL AND t.id IS NULL)
       LIMIT ${limit}`),
  );
}

/** The ledger's rows of the last 7 days, per currency and type. */
export async function entriesLastWeek(db: Db): Promise<{ currency: string; type: string; count: number }[]> {
  const rows = rowsOf<{ currency: string; type: string; n: string | number }>(
    await db.execute(sql`
      SELECT currency, type, count(*) AS n FROM ledger_entries
       WHERE created_at > now() - interval '7 days' GROUP BY currency, type ORDER BY currency, type`),
  );
  return rows.map((row) => ({ currency: row.currency, type: row.type, count: Number(row.n) }));
}

/**
 * Sessions open, expired (by either expiry), and stale: expired before `staleBefore`, or idle
 * since before `staleIdleSince`.
 */
export async function sessionCounts(
  db: Db,
  bounds: { idleSince: Date; staleBefore: Date; staleIdleSince: Date },
): Promise<{ open: number; expired: number; stale: number }> {
  const [row] = rowsOf<{ open: string | number; expired: string | number; stale: string | number }>(
    await db.execute(sql`
      SELECT count(*) FILTER (WHERE expires_at > now() AND last_seen_at > ${bounds.idleSince}) AS open,
             count(*) FILTER (WHERE expires_at <= now() OR last_seen_at <= ${bounds.idleSince}) AS expired,
             count(*) FILTER (WHERE expires_at <= ${bounds.staleBefore} OR last_seen_at <= ${bounds.staleIdleSince}) AS stale
        FROM sessions`),
  );
  return { open: Number(row?.open ?? 0), expired: Number(row?.expired ?? 0), stale: Number(row?.stale ?? 0) };
}

type LoginWindow = { since: Date; max: number };

/** Accounts at an address, accounts and addresses with at least `max` settled failures since their window's start. */
export async function blockedLogins(
  db: Db,
  windows: { accountAndAddress: LoginWindow; account: LoginWindow; address: LoginWindow },
): Promise<{ accountsAtAddress: { account: string; ip: string }[]; accounts: string[]; addresses: string[] }> {
  const { accountAndAddress, account, address } = windows;
  const [accountsAtAddress, accounts, addresses] = await Promise.all([
    db.execute(sql`
      SELECT account_key, ip FROM login_failures WHERE NOT pending AND at > ${accountAndAddress.since}
       GROUP BY account_key, ip HAVING count(*) >= ${accountAndAddress.max}`),
    db.execute(sql`
      SELECT account_key FROM login_failures WHERE NOT pending AND at > ${account.since}
       GROUP BY account_key HAVING count(*) >= ${account.max}`),
    db.execute(sql`
      SELECT ip FROM login_failures WHERE NOT pending AND at > ${address.since}
       GROUP BY ip HAVING count(*) >= ${address.max}`),
  ]);
  return {
    accountsAtAddress: rowsOf<{ account_key: string; ip: string }>(accountsAtAddress).map((r) => ({ account: r.account_key, ip: r.ip })),
    accounts: rowsOf<{ account_key: string }>(accounts).map((r) => r.account_key),
    addresses: rowsOf<{ ip: string }>(addresses).map((r) => r.ip),
  };
}

/** The four counters of the screen. */
export async function diagnosticCounters(db: Db): Promise<DiagnosticCounters> {
  const [row] = rowsOf<Record<'administrators' | 'students' | 'transactions' | 'logs', string | number>>(
    await db.execute(sql`
      SELECT (SELECT count(*) FROM admins) AS administrators,
             (SELECT count(*) FROM students WHERE deleted_at IS NULL) AS students,
             (SELECT count(*) FROM ledger_entries) AS transactions,
             (SELECT count(*) FROM diagnostic_logs) AS logs`),
  );
  return {
    administrators: Number(row?.administrators ?? 0),
    students: Number(row?.students ?? 0),
    transactions: Number(row?.transactions ?? 0),
    logs: Number(row?.logs ?? 0),
  };
}
