import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import {
  ledgerReasonSums,
  ledgerSumsPending,
  ledgerTurmaDays,
  schoolSettings as schoolSettingsTable,
  staffTurmas,
  storeItemTurmas,
  students,
  turmas,
} from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { lockForTransaction } from '../../db/advisory-locks.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { encodePhoto } from '../../storage/photos.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, turmaScopeOf, type AdminActor } from '../auth/actor.ts';
import { turmaInScope } from '../../views/turma-scope.ts';
import { DEFAULT_TIME_ZONE } from '../../../shared/format.ts';
import { ERROR_MESSAGES, type ErrorCode } from '../../../shared/errors.ts';
import {
  DEFAULT_RULES,
  DEFAULT_SCHOOL_NAME,
  SETTINGS_TEXTS,
  isTimeZone,
  schoolRules,
  type AdminTurma,
  type PublicSettings,
  type SchoolInfoInput,
  type SchoolRules,
  type SchoolSettings,
  type Turma,
} from '../../../shared/settings.ts';

/**
 * The school's settings (decision 009): read through a cache per server instance, which every
 * instance drops when one of them commits a change (the event bus's 'settings' event, or a
 * resync after a lost connection), and the writing instance drops at once.
 */
export type SettingsStore = {
  get(): Promise<SchoolSettings>;
  /** Drops this instance's copy; the next get() reads the database. */
  invalidate(): void;
};

export type SettingsDeps = { db: Db; events: EventBus; settings: SettingsStore; storage: FileStorage };
type Context = { ip?: string | undefined };

/** Stored rules over the defaults, so a rule added later starts at its default; a stored value that no longer passes is ignored. */
function rulesFrom(stored: Record<string, unknown> | undefined): SchoolRules {
  const merged = { ...DEFAULT_RULES, ...stored };
  return schoolRules.safeParse(merged).data ?? DEFAULT_RULES;
}

function toTurma(row: typeof turmas.$inferSelect): Turma {
  return { id: row.id, name: row.name, retired: row.retiredAt !== null };
}

/** The settings as stored now: what the cache holds, and what a change reads under its lock. Everyone else reads the cache. */
async function readSchoolSettings(db: DbOrTx): Promise<SchoolSettings> {
  const [[row], turmaRows] = await Promise.all([
    db.select().from(schoolSettingsTable).where(eq(schoolSettingsTable.id, 1)),
    db.select().from(turmas).orderBy(asc(turmas.position), asc(turmas.createdAt)),
  ]);
  return {
    school: {
      name: row?.name ?? DEFAULT_SCHOOL_NAME,
      logoUrl: row?.logoUrl ?? null,
      // A zone this runtime does not know (an older ICU) would break every date on the screens.
      timeZone: row && isTimeZone(row.timeZone) ? row.timeZone : DEFAULT_TIME_ZONE,
    },
    rules: rulesFrom(row?.rules),
    turmas: turmaRows.map(toTurma),
  };
}

/** A safety net under the notifications: a copy older than this is read again. */
const CACHE_MS = 60_000;

export function createSettingsStore(db: Db, events: EventBus): SettingsStore {
  let cached: { value: Promise<SchoolSettings>; at: number } | undefined;
  const invalidate = () => {
    cached = undefined;
  };
  events.subscribe((event) => {
    if (event.type === 'settings' || event.type === 'resync') invalidate();
  });
  return {
    get() {
      const now = Date.now();
      if (!cached || now - cached.at > CACHE_MS) {
        const value = readSchoolSettings(db);
        const entry = { value, at: now };
        cached = entry;
        // A failed read is not kept: the next request tries again.
        value.catch(() => {
          if (cached === entry) invalidate();
        });
      }
      return cached.value;
    },
    invalidate,
  };
}

/** The school's name and logo, with what the server's configuration shows on the login page. */
export async function getPublicSettings(
  store: SettingsStore,
  login: Pick<PublicSettings, 'demo' | 'signInProviders'>,
): Promise<PublicSettings> {
  const { school } = await store.get();
  return { ...school, ...login };
}

/**
 * Runs a change of the settings in one transaction with its audit record and the bus event
 * (delivered to every instance if it commits), then drops this instance's copy at once.
 */
async function changeSettings<T>(deps: SettingsDeps, work: (tx: DbOrTx) => Promise<T>): Promise<T> {
  const result = await deps.db.transaction(async (tx) => {
    // One change at a time: a rename and an addition cannot both pick the same name or position.
    await lockForTransaction(tx, 'schoolSettings');
    const value = await work(tx);
    await deps.events.publish(tx, { type: 'settings' });
    return value;
  });
  deps.settings.invalidate();
  return result;
}

/** Writes some columns of the settings row, creating it with the defaults when missing. */
async function upsertSettings(tx: DbOrTx, admin: AdminActor, values: Partial<typeof schoolSettingsTable.$inferInsert>): Promise<void> {
  const set = { ...values, updatedBy: admin.id, updatedAt: new Date() };
  await tx
    .insert(schoolSettingsTable)
    .values({ id: 1, name: DEFAULT_SCHOOL_NAME, timeZone: DEFAULT_TIME_ZONE, ...set })
    .onConflictDoUpdate({ target: schoolSettingsTable.id, set });
}

// ---------------------------------------------------------------- the school

/**
 * Whether the database computes in the zone too, as the reports do: it does not know a few
 * names this runtime accepts (Canada/East-Saskatchewan, US/Pacific-New), and every report
 * would then fail.
 */
async function databaseKnowsZone(db: Db, zone: string): Promise<boolean> {
  try {
    await db.execute(sql`SELECT now() AT TIME ZONE ${zone}`);
    return true;
  } catch {
    return false;
  }
}

export async function updateSchoolInfo(
  deps: SettingsDeps,
  admin: AdminActor,
  input: SchoolInfoInput,
  context: Context = {},
): Promise<SchoolSettings> {
  const name = input.name.replace(/\s+/g, ' ').trim();
  if (!(await databaseKnowsZone(deps.db, input.timeZone))) throw new AppError('invalid_time_zone');
  await changeSettings(deps, async (tx) => {
    const before = (await readSchoolSettings(tx)).school;
    await upsertSettings(tx, admin, { name, timeZone: input.timeZone });
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'settings.school',
      ip: context.ip,
      details: { before: { name: before.name, timeZone: before.timeZone }, after: { name, timeZone: input.timeZone } },
    });
  });
  return deps.settings.get();
}

/** Stores an uploaded logo (checked by its bytes, re-encoded as the photos are) and removes the previous one. */
export async function setSchoolLogo(deps: SettingsDeps, admin: AdminActor, bytes: Buffer, context: Context = {}): Promise<SchoolSettings> {
  const { photo } = await encodePhoto(bytes);
  const stored = await deps.storage.put(`school/logo-${randomBytes(8).toString('hex')}.webp`, photo);
  let previous: string | null;
  try {
    previous = await replaceLogo(deps, admin, stored, 'settings.logo', context);
  } catch (error) {
    await deps.storage.remove(stored);
    throw error;
  }
  if (previous) await deps.storage.remove(previous);
  return deps.settings.get();
}

export async function removeSchoolLogo(deps: SettingsDeps, admin: AdminActor, context: Context = {}): Promise<SchoolSettings> {
  const previous = await replaceLogo(deps, admin, null, 'settings.logo_removed', context);
  if (previous) await deps.storage.remove(previous);
  return deps.settings.get();
}

async function replaceLogo(
  deps: SettingsDeps,
  admin: AdminActor,
  logoUrl: string | null,
  action: string,
  context: Context,
): Promise<string | null> {
  return changeSettings(deps, async (tx) => {
    const before = (await readSchoolSettings(tx)).school.logoUrl;
    await upsertSettings(tx, admin, { logoUrl });
    await recordAudit(tx, { actor: auditActor(admin), action, ip: context.ip, details: { from: before, to: logoUrl } });
    return before;
  });
}

// ---------------------------------------------------------------- the rules

export async function updateRules(
  deps: SettingsDeps,
  admin: AdminActor,
  input: SchoolRules,
  context: Context = {},
): Promise<SchoolSettings> {
  await changeSettings(deps, async (tx) => {
    const before = (await readSchoolSettings(tx)).rules;
    await upsertSettings(tx, admin, { rules: input });
    const changed = Object.fromEntries(
      Object.keys(input)
        .filter((key) => JSON.stringify(before[key as keyof SchoolRules]) !== JSON.stringify(input[key as keyof SchoolRules]))
        .map((key) => [key, { from: before[key as keyof SchoolRules], to: input[key as keyof SchoolRules] }]),
    );
    await recordAudit(tx, { actor: auditActor(admin), action: 'settings.rules', ip: context.ip, details: { changed } });
  });
  return deps.settings.get();
}

// ---------------------------------------------------------------- turmas

/** The school's turmas with their number of students; a teacher's own turmas only. */
export async function listAdminTurmas(db: Db, admin: AdminActor): Promise<AdminTurma[]> {
  const rows = await db
    .select({
      turma: turmas,
      students: sql<number>`(SELECT count(*) FROM students s WHERE s.turma_id = "turmas"."id" AND s.deleted_at IS NULL)`.mapWith(Number),
    })
    .from(turmas)
    .where(turmaInScope(turmas.id, turmaScopeOf(admin)))
    .orderBy(asc(turmas.position), asc(turmas.createdAt));
  return rows.map((row) => ({ ...toTurma(row.turma), students: row.students }));
}

function cleanName(name: string): string {
  return name.replace(/\s+/g, ' ').trim();
}

/** Two turma names that read alike: case, compatibility forms (º and o) and the kinds of dash ('-', '–', '—') aside. */
function turmaKey(name: string): string {
  return name
    .normalize('NFKC')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .toLocaleLowerCase('pt-BR');
}

/** Whether another turma already has a name that reads like this one (a school has a few dozen: compared here, one rule). */
async function nameTaken(tx: DbOrTx, name: string, except?: string): Promise<boolean> {
  const rows = await tx.select({ id: turmas.id, name: turmas.name }).from(turmas);
  return rows.some((row) => row.id !== except && turmaKey(row.name) === turmaKey(name));
}

export async function createTurma(
  deps: SettingsDeps,
  admin: AdminActor,
  input: { name: string },
  context: Context = {},
): Promise<{ message: string; turma: Turma }> {
  const name = cleanName(input.name);
  const turma = await changeSettings(deps, async (tx) => {
    if (await nameTaken(tx, name)) throw new AppError('turma_exists', { status: 409 });
    const [{ next } = { next: 0 }] = await tx
      .select({ next: sql<number>`coalesce(max(${turmas.position}), -1) + 1`.mapWith(Number) })
      .from(turmas);
    const [row] = await tx.insert(turmas).values({ name, position: next }).returning();
    await recordAudit(tx, { actor: auditActor(admin), action: 'turma.create', ip: context.ip, details: { turmaId: row!.id, name } });
    return toTurma(row!);
  });
  return { message: SETTINGS_TEXTS.turmaCreated(turma.name), turma };
}

/**
 * Renames a turma (its students reference it, so they follow), or retires / restores it.
 * The last active turma cannot be retired: new students need one.
 */
export async function updateTurma(
  deps: SettingsDeps,
  admin: AdminActor,
  id: string,
  input: { name?: string | undefined; retired?: boolean | undefined },
  context: Context = {},
): Promise<{ message: string; turma: Turma }> {
  return changeSettings(deps, async (tx) => {
    const [before] = await tx.select().from(turmas).where(eq(turmas.id, id)).for('update');
    if (!before) throw new AppError('turma_not_found', { status: 404 });
    const messages: string[] = [];
    let name = before.name;
    if (input.name !== undefined && cleanName(input.name) !== before.name) {
      name = cleanName(input.name);
      if (await nameTaken(tx, name, id)) throw new AppError('turma_exists', { status: 409 });
      await tx.update(turmas).set({ name }).where(eq(turmas.id, id));
      const [{ n: members } = { n: 0 }] = await tx.select({ n: count() }).from(students).where(eq(students.turmaId, id));
      await recordAudit(tx, {
        actor: auditActor(admin),
        action: 'turma.rename',
        ip: context.ip,
        details: { turmaId: id, from: before.name, to: name, students: members },
      });
      // Screens show the students' turma by name.
      if (members > 0) await deps.events.publish(tx, { type: 'students' });
      messages.push(SETTINGS_TEXTS.turmaRenamed(name));
    }
    let retiredAt = before.retiredAt;
    if (input.retired !== undefined && input.retired !== (before.retiredAt !== null)) {
      if (input.retired) {
        const [{ n } = { n: 0 }] = await tx
          .select({ n: count() })
          .from(turmas)
          .where(and(isNull(turmas.retiredAt), ne(turmas.id, id)));
        if (n === 0) throw new AppError('turma_last_active', { status: 409 });
      }
      retiredAt = input.retired ? new Date() : null;
      await tx.update(turmas).set({ retiredAt }).where(eq(turmas.id, id));
      await recordAudit(tx, {
        actor: auditActor(admin),
        action: input.retired ? 'turma.retire' : 'turma.restore',
        ip: context.ip,
        details: { turmaId: id, name },
      });
      messages.push(input.retired ? SETTINGS_TEXTS.turmaRetired(name) : SETTINGS_TEXTS.turmaRestored(name));
    }
    const turma = toTurma({ ...before, name, retiredAt });
    return { message: messages.join('. ') || SETTINGS_TEXTS.turmaUnchanged(name), turma };
  });
}

/**
 * Deletes a turma nothing keeps (decision 033): day one's default turmas the school does not have. Refused while any
 * student is or was in it (a removed student keeps their turma in the history), while a Loja item is only for it (the
 * item would be offered to every turma), or while the reports' sums count anything in it. Its sums rows, all zero then
 * (a student who left took their rows along), go with it; a teacher given it loses it (they had nobody there), and is
 * read anew on every instance. The row lock holds back a student or a teacher being given the turma meanwhile (they read
 * it FOR KEY SHARE); the ledger's queue is not folded here (the reports own that): rows still queued for the turma
 * refuse the deletion until the periodic fold has added them.
 */
export async function deleteTurma(deps: SettingsDeps, admin: AdminActor, id: string, context: Context = {}): Promise<{ message: string }> {
  return changeSettings(deps, async (tx) => {
    const [turma] = await tx.select().from(turmas).where(eq(turmas.id, id)).for('update');
    if (!turma) throw new AppError('turma_not_found', { status: 404 });
    const refusal = async (code: ErrorCode, table: typeof students | typeof storeItemTurmas | typeof ledgerSumsPending) => {
      const [row] = await tx.select({ turmaId: table.turmaId }).from(table).where(eq(table.turmaId, id)).limit(1);
      if (row) throw new AppError(code, { status: 409 });
    };
    await refusal('turma_has_students', students);
    await refusal('turma_has_store_items', storeItemTurmas);
    await refusal('turma_sums_pending', ledgerSumsPending);
    const [counted] = await tx
      .select({ turmaId: ledgerTurmaDays.turmaId })
      .from(ledgerTurmaDays)
      .where(
        and(
          eq(ledgerTurmaDays.turmaId, id),
          or(
            ne(ledgerTurmaDays.meritusAwarded, 0),
            ne(ledgerTurmaDays.meritusRemoved, 0),
            ne(ledgerTurmaDays.meritusTransferred, 0),
            ne(ledgerTurmaDays.meritusSpent, 0),
          ),
        ),
      )
      .limit(1);
    const [reasons] = await tx
      .select({ turmaId: ledgerReasonSums.turmaId })
      .from(ledgerReasonSums)
      .where(
        and(
          eq(ledgerReasonSums.turmaId, id),
          or(ne(ledgerReasonSums.operations, 0), ne(ledgerReasonSums.meritus, 0), ne(ledgerReasonSums.estelecas, 0)),
        ),
      )
      .limit(1);
    if (counted || reasons) throw new AppError('turma_has_history', { status: 409 });
    if (turma.retiredAt === null) {
      const [{ n } = { n: 0 }] = await tx
        .select({ n: count() })
        .from(turmas)
        .where(and(isNull(turmas.retiredAt), ne(turmas.id, id)));
      if (n === 0) throw new AppError('turma_last_active', { status: 409 });
    }
    await tx.delete(ledgerTurmaDays).where(eq(ledgerTurmaDays.turmaId, id));
    await tx.delete(ledgerReasonSums).where(eq(ledgerReasonSums.turmaId, id));
    const teachers = await tx.delete(staffTurmas).where(eq(staffTurmas.turmaId, id)).returning({ adminId: staffTurmas.adminId });
    for (const { adminId } of teachers) await deps.events.publish(tx, { type: 'staff_changed', adminId });
    await tx.delete(turmas).where(eq(turmas.id, id));
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'turma.delete',
      ip: context.ip,
      details: { turmaId: id, name: turma.name, teachers: teachers.map((teacher) => teacher.adminId) },
    });
    return { message: SETTINGS_TEXTS.turmaDeleted(turma.name) };
  });
}

/** A turma as the students' services use it: the id they store, the name they show. */
export type TurmaRef = { id: string; name: string };

/** The turmas new students may join, in the school's order. */
export async function activeTurmas(db: DbOrTx): Promise<TurmaRef[]> {
  return (
    db
      .select({ id: turmas.id, name: turmas.name })
      .from(turmas)
      .where(isNull(turmas.retiredAt))
      .orderBy(asc(turmas.position), asc(turmas.createdAt))
      // A deletion of one of them under way (deleteTurma) is waited for: a deleted turma is not answered.
      .for('key share')
  );
}

/**
 * The rule of a student's turma, for the students' services: the name must be one of the
 * school's turmas (any spelling of its case), and a student may join (or be created in) only
 * an active one; a student already in a retired turma (`currentId`) may stay. Answers the turma.
 */
export async function checkStudentTurma(db: DbOrTx, grade: string, currentId?: string): Promise<TurmaRef> {
  const [row] = await db
    .select()
    .from(turmas)
    .where(eq(sql`lower(${turmas.name})`, grade.trim().toLowerCase()))
    .limit(1)
    // A deletion of the turma under way (deleteTurma) is waited for: then the turma is not found.
    .for('key share');
  if (!row) throw new AppError('invalid_grade', { fields: { grade: ERROR_MESSAGES.invalid_grade } });
  if (row.retiredAt !== null && row.id !== currentId)
    throw new AppError('turma_retired', { status: 409, fields: { grade: 'Esta turma está desativada e não recebe novos estudantes' } });
  return { id: row.id, name: row.name };
}
