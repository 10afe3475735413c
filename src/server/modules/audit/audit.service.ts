import { auditLog } from '../../db/schema.ts';
import type { DbOrTx } from '../../db/client.ts';

export type AuditActor =
  | { kind: 'student'; id: string; label: string }
  | { kind: 'admin'; id: string; label: string }
  | { kind: 'system'; label?: string }
  | { kind: 'anonymous'; label?: string };

export type AuditEntry = {
  actor: AuditActor;
  action: string;
  ip?: string | null | undefined;
  details?: Record<string, unknown>;
};

/** Appends to the audit log; callers pass the transaction when the entry must commit with their change. */
export async function recordAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorKind: entry.actor.kind,
    actorId: 'id' in entry.actor ? entry.actor.id : null,
    actorLabel: entry.actor.label ?? null,
    action: entry.action,
    ip: entry.ip ?? null,
    details: entry.details ?? {},
  });
}
