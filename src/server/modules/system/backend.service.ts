import { sql } from 'drizzle-orm';
import { rowsOf, type Database, type Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import type { InstanceMetrics } from '../../plugins/metrics.ts';
import { SESSION_IDLE_MS } from '../../../shared/constants.ts';
import { OVERVIEW_COUNTS, recordHealth, type ConfigEntry, type OverviewCount, type SystemOverview } from '../../../shared/system.ts';
import { instanceView } from './monitoring.service.ts';
import { photoFiles } from './photo-files.ts';
import { appVersion, databaseRoundTrip, databaseVersion, diskSpace, migrationStatus, storageWritable } from './system-health.ts';
import { formatMs, formatSize } from '../../../shared/format.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { SettingsStore } from '../settings/settings.service.ts';

export type SystemDeps = { database: Database; config: Config; metrics: InstanceMetrics; settings: SettingsStore; storage: FileStorage };

type CountRow = Record<
  | 'students_active'
  | 'students_removed'
  | 'administrators'
  | 'meritus_entries'
  | 'estelecas_entries'
  | 'refused_attempts'
  | 'tags'
  | 'open_sessions',
  string | number
>;

async function recordCounts(db: Db): Promise<Omit<Record<OverviewCount, number>, 'images'>> {
  const idleSince = new Date(Date.now() - SESSION_IDLE_MS);
  const [row] = rowsOf<CountRow>(
    await db.execute(sql`
      SELECT (SELECT count(*) FROM students WHERE deleted_at IS NULL) AS students_active,
             (SELECT count(*) FROM students WHERE deleted_at IS NOT NULL) AS students_removed,
             (SELECT count(*) FROM admins) AS administrators,
             (SELECT count(*) FROM ledger_entries WHERE currency = 'meritus') AS meritus_entries,
             (SELECT count(*) FROM ledger_entries WHERE currency = 'estelecas') AS estelecas_entries,
             (SELECT count(*) FROM audit_log WHERE action = 'ledger.refused') AS refused_attempts,
             (SELECT count(*) FROM student_tags WHERE expires_at > now()) AS tags,
             (SELECT count(*) FROM sessions WHERE expires_at > now() AND last_seen_at > ${idleSince}) AS open_sessions
    `),
  );
  const n = (key: keyof CountRow) => Number(row?.[key] ?? 0);
  return {
    studentsActive: n('students_active'),
    studentsRemoved: n('students_removed'),
    administrators: n('administrators'),
    meritusEntries: n('meritus_entries'),
    estelecasEntries: n('estelecas_entries'),
    refusedAttempts: n('refused_attempts'),
    tags: n('tags'),
    openSessions: n('open_sessions'),
  };
}

/** The newest diagnostic run (fixes aside): when, and how it went. */
export async function lastDiagnostic(db: Db): Promise<SystemOverview['health']['lastDiagnostic']> {
  const [row] = rowsOf<{ at: Date | string; errors: string | number; warnings: string | number }>(
    await db.execute(sql`
      SELECT max(at) AS at, count(*) FILTER (WHERE status = 'error') AS errors, count(*) FILTER (WHERE status = 'warning') AS warnings
        FROM diagnostic_logs
       WHERE run_id = (SELECT run_id FROM diagnostic_logs WHERE run_id IS NOT NULL AND category <> 'FIX' ORDER BY at DESC, id DESC LIMIT 1)
    `),
  );
  if (!row?.at) return null;
  const errors = Number(row.errors);
  const warnings = Number(row.warnings);
  return { at: new Date(row.at).toISOString(), status: errors > 0 ? 'error' : warnings > 0 ? 'warning' : 'success', errors, warnings };
}

export async function systemOverview({ database, config, metrics, storage: fileStorage }: SystemDeps): Promise<SystemOverview> {
  const db = database.db;
  // Timed alone: beside the other queries it would measure their wait too.
  const roundTripMs = await databaseRoundTrip(db);
  const [counts, files, migrations, disk, storage, last, databaseName] = await Promise.all([
    recordCounts(db),
    photoFiles(fileStorage),
    migrationStatus(db),
    diskSpace(config.dataDir),
    storageWritable(config.uploadsDir),
    lastDiagnostic(db),
    databaseVersion(database),
  ]);
  const allCounts: Record<OverviewCount, number> = { ...counts, images: files.filter((file) => !file.key.endsWith('.thumb.webp')).length };
  const totalRecords = OVERVIEW_COUNTS.reduce((sum, key) => sum + allCounts[key], 0);
  const imageBytes = files.reduce((sum, file) => sum + file.bytes, 0);
  return {
    instance: instanceView(metrics),
    versions: { app: appVersion(), node: process.version, database: databaseName },
    databaseMode: database.kind,
    counts: allCounts,
    imageBytes,
    totalRecords,
    recordHealth: recordHealth(totalRecords),
    health: {
      database: { ok: true, detail: `Respondeu em ${formatMs(roundTripMs)}`, roundTripMs },
      migrations,
      disk,
      storage: { ok: storage.ok, detail: storage.ok ? `${storage.detail} (${formatSize(imageBytes)} em imagens)` : storage.detail },
      lastDiagnostic: last,
    },
  };
}

/** The effective configuration, read-only, secrets masked (config.ts decides which). */
export function configurationEntries(config: Config): ConfigEntry[] {
  return config.settings.map(({ name, value, source, secret, description }) => ({ name, value, source, secret, description }));
}
