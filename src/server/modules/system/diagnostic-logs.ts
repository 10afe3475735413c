import { diagnosticLogs } from '../../db/schema.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { DiagnosticCategory, DiagnosticLog, DiagnosticStatus } from '../../../shared/system.ts';

/** One finding of a check or a fix, as diagnostic_logs keeps it. */
export type Entry = { category: DiagnosticCategory; status: DiagnosticStatus; message: string; details?: Record<string, unknown> };

/** Lists in details are cut here: the message carries the total. */
export const DETAIL_LIST_MAX = 50;

export function first<T>(list: T[]): T[] {
  return list.slice(0, DETAIL_LIST_MAX);
}

export function toLog(row: typeof diagnosticLogs.$inferSelect): DiagnosticLog {
  return { id: row.id, at: row.at.toISOString(), category: row.category, status: row.status, message: row.message, details: row.details };
}

/** Writes entries to diagnostic_logs (so every instance and every restart sees them), in order; `runId` groups a run's. */
export async function writeLogs(db: DbOrTx, runId: string | null, entries: Entry[]): Promise<DiagnosticLog[]> {
  if (entries.length === 0) return [];
  const rows = await db
    .insert(diagnosticLogs)
    .values(
      entries.map((entry) => ({
        runId,
        category: entry.category,
        status: entry.status,
        message: entry.message,
        details: entry.details ?? {},
      })),
    )
    .returning();
  return rows.sort((a, b) => a.id - b.id).map(toLog);
}
