import { randomBytes, randomUUID } from 'node:crypto';
import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { admins, diagnosticLogs } from '../../db/schema.ts';
import { createStaffMember } from '../staff/staff.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, type AdminActor } from '../auth/actor.ts';
import { DIAGNOSTIC_TEXTS } from '../../../shared/diagnostic-texts.ts';
import {
  DEFAULT_ADMIN,
  DIAGNOSTIC_LOG_LIMIT,
  SYSTEM_TEXTS,
  type DiagnosticCategory,
  type DiagnosticLogList,
  type DiagnosticRun,
  type FixAdministratorsResult,
  type FixId,
  type FixPreview,
  type FixResult,
} from '../../../shared/system.ts';
import type { SystemDeps } from './backend.service.ts';
import { runChecks } from './diagnostic-checks.ts';
import { FIXES } from './diagnostic-fixes.ts';
import { first, toLog, writeLogs } from './diagnostic-logs.ts';
import { diagnosticCounters } from './diagnostics.queries.ts';

/**
 * Debug & Diagnóstico: real checks per category (diagnostic-checks.ts), each written to
 * diagnostic_logs (diagnostic-logs.ts), and fixes that show what they change before changing
 * it (diagnostic-fixes.ts). A balance that disagrees with its ledger is reported, never rewritten.
 */

type Context = { ip?: string | undefined };

export async function runDiagnostics(deps: SystemDeps, actor: AdminActor): Promise<DiagnosticRun> {
  const db = deps.database.db;
  const runId = randomUUID();
  const at = new Date().toISOString();
  const entries = await runChecks(deps, actor);
  const logs = await writeLogs(db, runId, entries);
  const fixes = [...new Set(entries.flatMap((entry) => (typeof entry.details?.fix === 'string' ? [entry.details.fix as FixId] : [])))];
  return { runId, at, logs, counters: await diagnosticCounters(db), fixes };
}

export async function listLogs(db: Db, category: DiagnosticCategory | undefined): Promise<DiagnosticLogList> {
  const rows = await db
    .select()
    .from(diagnosticLogs)
    .where(category ? eq(diagnosticLogs.category, category) : undefined)
    .orderBy(desc(diagnosticLogs.at), desc(diagnosticLogs.id))
    .limit(DIAGNOSTIC_LOG_LIMIT);
  return { logs: rows.map(toLog), counters: await diagnosticCounters(db) };
}

export async function clearLogs(db: Db, admin: AdminActor, context: Context): Promise<{ removed: number }> {
  return db.transaction(async (tx) => {
    const removed = (await tx.delete(diagnosticLogs).returning({ id: diagnosticLogs.id })).length;
    await recordAudit(tx, { actor: auditActor(admin), action: 'diagnostics.logs_cleared', ip: context.ip, details: { removed } });
    return { removed };
  });
}

/**
 * Creates the default administrator only when there is none, with a random password
 * returned once: createStaffMember looks and creates under the administrators' lock, so two clicks
 * at once (on any instances) create one. Then the diagnostic runs again.
 */
export async function fixAdministrators(deps: SystemDeps, admin: AdminActor, context: Context): Promise<FixAdministratorsResult> {
  const db = deps.database.db;
  const password = randomBytes(12).toString('base64url');
  const email = deps.config.firstAdmin?.email ?? DEFAULT_ADMIN.email;
  const created = await createStaffMember(
    { db },
    admin,
    { name: DEFAULT_ADMIN.name, email, password },
    { ip: context.ip, onlyIfNone: true },
  );
  if (created) {
    const message = DIAGNOSTIC_TEXTS.fix.adminCreated(created.adminId, created.email);
    await writeLogs(db, null, [{ category: 'FIX', status: 'success', message, details: { fix: 'administrators', before: 0, after: 1 } }]);
  } else {
    const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(admins);
    await writeLogs(db, null, [
      { category: 'FIX', status: 'info', message: SYSTEM_TEXTS.adminExists, details: { fix: 'administrators', before: n, after: n } },
    ]);
  }
  const run = await runDiagnostics(deps, admin);
  return {
    created: created !== null,
    admin: created && { adminId: created.adminId, name: created.name, email: created.email },
    password: created ? password : null,
    run,
  };
}

export async function previewFix(deps: SystemDeps, fix: FixId): Promise<FixPreview> {
  return { fix, items: await FIXES[fix].candidates(deps) };
}

/**
 * Applies a fix to the keys of its preview that still need it (anything else is ignored,
 * so a repeated or stale confirmation changes nothing more), logged as FIX with the count
 * before and after, and audited.
 */
export async function applyFix(deps: SystemDeps, admin: AdminActor, fix: FixId, keys: string[], context: Context): Promise<FixResult> {
  const definition = FIXES[fix];
  const current = await definition.candidates(deps);
  const wanted = new Set(keys);
  const chosen = current.filter((item) => wanted.has(item.key));
  if (chosen.length > 0) await definition.apply(deps, chosen);
  const after = (await definition.candidates(deps)).length;
  const applied = chosen.length > 0;
  const details = { fix, before: current.length, after, changed: first(chosen.map((item) => item.label)) };
  const db = deps.database.db;
  const [log] = await db.transaction(async (tx) => {
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: `diagnostics.fix.${fix}`,
      ip: context.ip,
      details: { before: current.length, after, keys: first(chosen.map((item) => item.key)) },
    });
    return writeLogs(tx, null, [
      applied
        ? { category: 'FIX', status: 'success', message: DIAGNOSTIC_TEXTS.fix.applied(definition.done, chosen.length), details }
        : { category: 'FIX', status: 'info', message: SYSTEM_TEXTS.nothingToFix, details },
    ]);
  });
  return { fix, applied: chosen, before: current.length, after, log: log! };
}
