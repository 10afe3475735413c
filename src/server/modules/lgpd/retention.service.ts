import { eq, sql } from 'drizzle-orm';
import { rowsOf, type Db, type DbOrTx } from '../../db/client.ts';
import { schoolSettings } from '../../db/schema.ts';
import { lockForTransaction } from '../../db/advisory-locks.ts';
import { AppError } from '../../app-error.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, type AdminActor } from '../auth/actor.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import { DEFAULT_SCHOOL_NAME } from '../../../shared/settings.ts';
import { DEFAULT_TIME_ZONE } from '../../../shared/format.ts';
import {
  DEFAULT_PRIVACY,
  RETENTION_PREVIEW_LIMIT,
  schoolPrivacy,
  type PrivacyPage,
  type RetentionPreview,
  type SchoolPrivacy,
  type SchoolPrivacyInput,
} from '../../../shared/lgpd.ts';
import { eraseStudentData, type EraseDeps } from './erase.service.ts';

const DAY_MS = 86_400_000;
/** How long a new retention choice waits before the sweep first acts on it: the preview stands for a day. */
export const RETENTION_GRACE_MS = DAY_MS;
/** The sweep runs once a day; its timer looks every hour (a server restarted mid-day catches up). */
export const RETENTION_SWEEP_EVERY_MS = DAY_MS;
export const RETENTION_CHECK_MS = 3_600_000;

/** The stored privacy block over the defaults; a stored value that no longer passes is ignored. */
export async function readPrivacy(db: DbOrTx): Promise<SchoolPrivacy> {
  const [row] = await db.select({ privacy: schoolSettings.privacy }).from(schoolSettings).where(eq(schoolSettings.id, 1));
  return schoolPrivacy.safeParse({ ...DEFAULT_PRIVACY, ...row?.privacy }).data ?? DEFAULT_PRIVACY;
}

async function writePrivacy(tx: DbOrTx, privacy: SchoolPrivacy): Promise<void> {
  await tx
    .insert(schoolSettings)
    .values({ id: 1, name: DEFAULT_SCHOOL_NAME, timeZone: DEFAULT_TIME_ZONE, privacy })
    .onConflictDoUpdate({ target: schoolSettings.id, set: { privacy } });
}

/** Saves the contact and the retention; a new retention period starts the day of grace again (its preview). */
export async function savePrivacy(
  db: Db,
  admin: AdminActor,
  input: Required<Pick<SchoolPrivacyInput, 'contact'>> & { retentionMonths: number | null },
  context: { ip?: string | undefined } = {},
  now: Date = new Date(),
): Promise<SchoolPrivacy> {
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, 'schoolSettings');
    const before = await readPrivacy(tx);
    const retentionChanged = before.retentionMonths !== input.retentionMonths;
    const after: SchoolPrivacy = {
      ...before,
      contact: input.contact,
      retentionMonths: input.retentionMonths,
      retentionStartsAt:
        input.retentionMonths === null
          ? null
          : retentionChanged
            ? new Date(now.getTime() + RETENTION_GRACE_MS).toISOString()
            : before.retentionStartsAt,
    };
    await writePrivacy(tx, after);
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'settings.privacy',
      ip: context.ip,
      details: { contact: after.contact, retentionMonths: after.retentionMonths, retentionStartsAt: after.retentionStartsAt },
    });
    return after;
  });
}

type Inactive = { id: string; student_id: string; name: string; grade: string; last_activity: Date | string };

/**
 * The students the retention reaches (decision 030): not yet erased, whose latest activity is older than `months` months
 * before `now`, where activity is a sign-in, a ledger row on either side, being registered, and being removed; and with no
 * order of the Loja still pending (refusing it refunds the student: the coordination decides).
 */
function inactiveQuery(months: number, now: Date, limit: number | null) {
  return sql`WITH activity AS (
      SELECT s.id, s.student_id, s.name, t.name AS grade,
        greatest(coalesce(s.last_login, s.created_at), s.created_at, s.deleted_at,
          (SELECT max(created_at) FROM ledger_entries WHERE from_student_id = s.id),
          (SELECT max(created_at) FROM ledger_entries WHERE to_student_id = s.id)) AS last_activity
      FROM students s JOIN turmas t ON t.id = s.turma_id
      WHERE s.erased_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM store_orders o WHERE o.student_id = s.id AND o.status = 'pending')
    )
    SELECT id, student_id, name, grade, last_activity FROM activity
    WHERE last_activity < ${now.toISOString()}::timestamptz - make_interval(months => ${months}::int)
    ORDER BY name COLLATE "und-x-icu", id
    ${limit === null ? sql`` : sql`LIMIT ${limit}`}`;
}

async function inactiveStudents(db: DbOrTx, months: number, now: Date, limit: number | null): Promise<Inactive[]> {
  return rowsOf<Inactive>(await db.execute(inactiveQuery(months, now, limit)));
}

/** Who a retention of `months` would anonymise today. Nothing changes. */
export async function retentionPreview(db: Db, months: number, now: Date = new Date()): Promise<RetentionPreview> {
  const [all, first] = await Promise.all([
    rowsOf<{ n: number | string }>(await db.execute(sql`SELECT count(*) AS n FROM (${inactiveQuery(months, now, null)}) AS q`)),
    inactiveStudents(db, months, now, RETENTION_PREVIEW_LIMIT),
  ]);
  return {
    total: Number(all[0]?.n ?? 0),
    students: first.map((row) => ({
      id: row.id,
      studentId: row.student_id,
      name: row.name,
      grade: row.grade,
      lastActivity: new Date(row.last_activity).toISOString(),
    })),
  };
}

/**
 * The daily retention sweep: once the day of grace after the choice has passed and a day after its last run, anonymises
 * every inactive student (eraseStudentData, as the system) and records what it did. One instance claims each run under
 * the settings' lock. Answers how many were anonymised.
 */
export async function sweepRetention(deps: EraseDeps, now: Date = new Date()): Promise<number> {
  const claimed = await deps.db.transaction(async (tx) => {
    await lockForTransaction(tx, 'schoolSettings');
    const privacy = await readPrivacy(tx);
    if (privacy.retentionMonths === null || !privacy.retentionStartsAt) return null;
    if (now.getTime() < Date.parse(privacy.retentionStartsAt)) return null;
    if (privacy.lastSweepAt && now.getTime() - Date.parse(privacy.lastSweepAt) < RETENTION_SWEEP_EVERY_MS - RETENTION_CHECK_MS) return null;
    await writePrivacy(tx, { ...privacy, lastSweepAt: now.toISOString() });
    return privacy;
  });
  if (!claimed) return 0;
  const months = claimed.retentionMonths!;
  const system = { role: 'system', name: 'Anonimização de inativos' } as const;
  const names: string[] = [];
  for (const student of await inactiveStudents(deps.db, months, now, null)) {
    try {
      const { name } = await eraseStudentData(deps, system, student.id, { reason: `Inativo há mais de ${months} meses` });
      names.push(name);
    } catch (error) {
      // Erased meanwhile (by the coordination or another instance): nothing left to do for them.
      if (!(error instanceof AppError && error.code === 'student_already_erased')) throw error;
    }
  }
  await deps.db.transaction(async (tx) => {
    await lockForTransaction(tx, 'schoolSettings');
    await writePrivacy(tx, { ...(await readPrivacy(tx)), lastSweepErased: names.length });
    await recordAudit(tx, {
      actor: auditActor(system),
      action: 'privacy.retention_sweep',
      details: { months, erased: names.length, names },
    });
  });
  return names.length;
}

/** What the public privacy page shows: the school's name and the contact it wrote, nothing else. */
export async function privacyPage(db: Db, settings: SettingsStore): Promise<PrivacyPage> {
  const [{ school }, privacy] = await Promise.all([settings.get(), readPrivacy(db)]);
  return { schoolName: school.name, contact: privacy.contact };
}
