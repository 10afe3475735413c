import { auditLog } from '../../db/schema.ts';
import { canRunPrepared, runPrepared, type Db, type DbOrTx, type PreparedStatement } from '../../db/client.ts';

export type AuditActor =
  | { kind: 'student'; id: string; label: string }
  | { kind: 'admin'; id: string; label: string }
  | { kind: 'guardian'; id: string; label: string }
  | { kind: 'system'; label?: string }
  | { kind: 'anonymous'; label?: string };

export type AuditEntry = {
  actor: AuditActor;
  action: string;
  ip?: string | null | undefined;
  details?: Record<string, unknown>;
};

/**
 * Outside a transaction the entry is written by a prepared statement: refused transfers and
 * failed sign-ins are written as often as requests come, and the query builder cost each one
 * about 100 µs of the server's CPU. A transaction keeps the builder: a prepared statement
 * would run on another connection of the pool.
 */
const INSERT_AUDIT: PreparedStatement = {
  name: 'audit_insert',
  text: 'INSERT INTO audit_log (actor_kind, actor_id, actor_label, action, ip, details) VALUES ($1, $2, $3, $4, $5, $6::jsonb) RETURNING id',
};

/** Appends to the audit log and answers the entry's id; callers pass the transaction when the entry must commit with their change. */
export async function recordAudit(db: DbOrTx, entry: AuditEntry): Promise<number> {
  const row = {
    actorKind: entry.actor.kind,
    actorId: 'id' in entry.actor ? entry.actor.id : null,
    actorLabel: entry.actor.label ?? null,
    action: entry.action,
    ip: entry.ip ?? null,
    details: entry.details ?? {},
  };
  if (canRunPrepared(db)) {
    const [inserted] = await runPrepared<{ id: string | number }>(db as Db, INSERT_AUDIT, [
      row.actorKind,
      row.actorId,
      row.actorLabel,
      row.action,
      row.ip,
      JSON.stringify(row.details),
    ]);
    // A bigserial: node-postgres reads it as text.
    return Number(inserted!.id);
  }
  const [inserted] = await db.insert(auditLog).values(row).returning({ id: auditLog.id });
  return inserted!.id;
}
