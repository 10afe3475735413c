import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import { rowsOf, type Database, type DbOrTx } from '../../db/client.ts';
import { schoolYearRollovers, schoolYears, students, studentTags, studentYearTurmas, turmas } from '../../db/schema.ts';
import { tryLockForTransaction } from '../../db/advisory-locks.ts';
import { AppError } from '../../app-error.ts';
import { writeBackup } from '../../backup/archive.ts';
import { fileSourceOf } from '../../backup/live-backup.ts';
import { sqlClientOf } from '../../backup/sql-client.ts';
import type { AdminActor } from '../auth/actor.ts';
import { endStudentSessions } from '../auth/auth.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { idempotencyRecord } from '../ledger/idempotency.ts';
import type { StudentRemovalStep } from '../students/admin-students.service.ts';
import { dateRangeOf, schoolToday, yearOfDay, type SchoolYearDeps } from './school-year.service.ts';
import { recordHonours } from './honours.ts';
import type { Currency } from '../../../shared/ledger-types.ts';
import {
  proposeTurmaMapping,
  rolloverSummary,
  type Destination,
  type Leaving,
  type RolloverCounts,
  type RolloverInput,
  type RolloverOutcome,
  type RolloverPreview,
} from '../../../shared/school-year.ts';

/** The rollover's needs besides the years': the configuration and the database for the automatic backup, and a removal's step. */
export type RolloverDeps = SchoolYearDeps & {
  config: Config;
  database: Database & { url?: string };
  beforeStudentRemoval: StudentRemovalStep;
};

type Context = { ip?: string | undefined; idempotencyKey?: unknown };
type Body = {
  mapping?: { turmas: Record<string, Destination>; students?: Record<string, Destination> };
  balances: RolloverInput['balances'];
};
type YearRow = typeof schoolYears.$inferSelect;

/** 'Encerramento do ano letivo 2026': the description of each closing entry, from the year's name. */
export function closingDescription(yearName: string): string {
  return `Encerramento do ${yearName.replace(/^Ano letivo/i, 'ano letivo')}`;
}

/** The year a rollover closes: the one containing today, or the last one that began before it. */
async function yearToClose(deps: SchoolYearDeps, db: DbOrTx): Promise<{ year: YearRow; closed: RolloverOutcome | undefined }> {
  const year = await yearOfDay(db, await schoolToday(deps));
  if (!year) throw new AppError('rollover_no_year');
  const [closed] = await db.select().from(schoolYearRollovers).where(eq(schoolYearRollovers.yearId, year.id));
  return { year, closed: closed?.outcome as RolloverOutcome | undefined };
}

/**
 * What a rollover would do, read from the school as it is (under the students' locks when `lock`): each current student's
 * destination, the counts, and a token that changes with anything the counts depend on.
 */
async function planOf(db: DbOrTx, year: YearRow, body: Body, lock: boolean) {
  const turmaRows = await db
    .select({ id: turmas.id, name: turmas.name, retired: sql<boolean>`${turmas.retiredAt} IS NOT NULL` })
    .from(turmas)
    .orderBy(asc(turmas.position), asc(turmas.createdAt));
  const query = db
    .select({
      id: students.id,
      studentId: students.studentId,
      name: students.name,
      turmaId: students.turmaId,
      meritus: students.meritus,
      estelecas: students.estelecas,
    })
    .from(students)
    .where(isNull(students.deletedAt))
    .orderBy(asc(students.id));
  const roster = lock ? await query.for('no key update') : await query;

  const activeTurmas = new Set(turmaRows.filter((turma) => !turma.retired).map((turma) => turma.id));
  const knownTurmas = new Set(turmaRows.map((turma) => turma.id));
  const current = new Set(roster.map((student) => student.id));
  const mapping = {
    turmas: body.mapping?.turmas ?? proposeTurmaMapping(turmaRows),
    students: body.mapping?.students ?? {},
  };
  const invalid = (details: Record<string, unknown>) => new AppError('rollover_destination_invalid', { status: 400, details });
  const checkDestination = (to: Destination, details: Record<string, unknown>) => {
    if (to !== 'graduated' && to !== 'left' && !activeTurmas.has(to)) throw invalid({ ...details, to });
  };
  for (const [from, to] of Object.entries(mapping.turmas)) {
    if (!knownTurmas.has(from)) throw invalid({ turmaId: from });
    checkDestination(to, { turmaId: from });
  }
  for (const [student, to] of Object.entries(mapping.students)) {
    if (!current.has(student)) throw invalid({ studentUuid: student });
    checkDestination(to, { studentUuid: student });
  }

  const plan = roster.map((student) => ({
    ...student,
    to: mapping.students[student.id] ?? mapping.turmas[student.turmaId] ?? student.turmaId,
  }));
  const closing = (currency: Currency) => (body.balances[currency] === 'close' ? plan.filter((student) => student[currency] > 0) : []);
  const closed = { meritus: closing('meritus'), estelecas: closing('estelecas') };
  const counts: RolloverCounts = {
    moving: plan.filter((student) => student.to !== student.turmaId && student.to !== 'graduated' && student.to !== 'left').length,
    staying: plan.filter((student) => student.to === student.turmaId).length,
    graduating: plan.filter((student) => student.to === 'graduated').length,
    leaving: plan.filter((student) => student.to === 'left').length,
    balancesClosed: closed.meritus.length + closed.estelecas.length,
    meritusClosed: closed.meritus.reduce((sum, student) => sum + student.meritus, 0),
    estelecasClosed: closed.estelecas.reduce((sum, student) => sum + student.estelecas, 0),
  };
  const sorted = (record: Record<string, string>) => Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1));
  const token = createHash('sha256')
    .update(
      JSON.stringify({
        year: year.id,
        mapping: { turmas: sorted(mapping.turmas), students: sorted(mapping.students) },
        balances: body.balances,
        turmas: turmaRows,
        roster: roster.map((student) => [student.id, student.turmaId, student.meritus, student.estelecas]),
      }),
    )
    .digest('base64url');
  const turmaList = turmaRows
    .filter((turma) => !turma.retired || roster.some((student) => student.turmaId === turma.id))
    .map((turma) => ({
      id: turma.id,
      name: turma.name,
      to: mapping.turmas[turma.id] ?? null,
      students: roster.filter((student) => student.turmaId === turma.id).length,
    }));
  return { plan, closed, counts, token, mapping, turmaList };
}

/** POST /api/admin/rollover/preview: what the rollover of the year would do, and the token its apply sends back. */
export async function previewRollover(deps: RolloverDeps, body: Body): Promise<RolloverPreview> {
  const { year, closed } = await yearToClose(deps, deps.db);
  if (closed) throw new AppError('school_year_closed', { message: `O ${year.name} já foi encerrado` });
  const { plan, counts, token, mapping, turmaList } = await planOf(deps.db, year, body, false);
  return {
    year: { id: year.id, name: year.name },
    token,
    mapping,
    balances: body.balances,
    counts,
    summary: rolloverSummary(counts),
    turmas: turmaList,
    students: plan.map(({ id, studentId, name, turmaId, to, meritus, estelecas }) => ({
      id,
      studentId,
      name,
      turmaId,
      to,
      meritus,
      estelecas,
    })),
  };
}

/** The applies under way in this process, by database: another one meanwhile is refused at once (the backup comes first). */
const running = new WeakSet<object>();

/**
 * POST /api/admin/rollover/apply: after an automatic backup (DATA_DIR/backups), in one transaction: the students move to
 * their destinations, those graduating or leaving are removed (they cannot sign in; their history stays), the balances
 * chosen are closed by a 'year_closing' entry each, the tags expire and the year is marked closed. A year closed already
 * is answered with its outcome (`applied: false`) and nothing changes; a token that no longer matches the school is
 * refused; another apply under way is refused.
 */
export async function applyRollover(
  deps: RolloverDeps,
  admin: AdminActor,
  body: Body & { token: string },
  context: Context = {},
): Promise<RolloverOutcome> {
  if (running.has(deps.db)) throw new AppError('rollover_running');
  running.add(deps.db);
  try {
    const idempotency =
      idempotencyRecord({ actorKey: `admin:${admin.id}`, key: context.idempotencyKey, request: { op: 'rollover', body } }) ?? null;
    if (idempotency) {
      const [row] = rowsOf<{ answer: { outcome: string; body: RolloverOutcome } | null }>(
        await deps.db.execute(sql`SELECT ledger_replay(${JSON.stringify(idempotency)}::jsonb) AS answer`),
      );
      if (row?.answer?.outcome === 'conflict') throw new AppError('idempotency_conflict');
      if (row?.answer) return row.answer.body;
    }
    const { year, closed } = await yearToClose(deps, deps.db);
    if (closed) return { ...closed, applied: false };
    if ((await planOf(deps.db, year, body, false)).token !== body.token) throw new AppError('rollover_stale');

    const backupFile = await backupBefore(deps, year);
    const span = (await dateRangeOf(deps, { year: year.id }))!;
    return await deps.db.transaction(async (tx) => {
      if (!(await tryLockForTransaction(tx, 'rollover'))) throw new AppError('rollover_running');
      const again = await yearToClose(deps, tx);
      if (again.closed) return { ...again.closed, applied: false };
      const plan = await planOf(tx, year, body, true);
      if (plan.token !== body.token) throw new AppError('rollover_stale');
      const now = new Date();
      // The Hall da Fama's honours, of the students and turmas as they are before anyone moves (decision 035).
      await recordHonours(tx, year.id, span);

      const byDestination = new Map<string, string[]>();
      for (const student of plan.plan) {
        if (student.to === student.turmaId) continue;
        byDestination.set(student.to, [...(byDestination.get(student.to) ?? []), student.id]);
      }
      const leaving = (kind: Leaving) => byDestination.get(kind) ?? [];
      // A student leaving has their pending orders refused and refunded while still a current student, before the closing.
      for (const id of [...leaving('graduated'), ...leaving('left')])
        await deps.beforeStudentRemoval(tx, deps.events, admin, id, context.ip);
      // The roster as the year closes: the year's reports by turma keep each student in this one (decision 036).
      await tx.insert(studentYearTurmas).select(
        tx
          .select({ yearId: sql<string>`${year.id}::uuid`.as('year_id'), studentId: students.id, turmaId: students.turmaId })
          .from(students)
          .where(isNull(students.deletedAt)),
      );
      for (const [to, ids] of byDestination) {
        if (to === 'graduated' || to === 'left') continue;
        await tx.update(students).set({ turmaId: to, updatedAt: now }).where(inArray(students.id, ids));
      }

      const batchId = randomUUID();
      for (const currency of ['meritus', 'estelecas'] as const) {
        if (body.balances[currency] !== 'close') continue;
        const column = sql.raw(currency);
        await tx.execute(sql`
          WITH old AS (SELECT id, ${column} AS amount FROM students WHERE deleted_at IS NULL AND ${column} > 0 ORDER BY id FOR NO KEY UPDATE),
          closed AS (UPDATE students s SET ${column} = 0, updated_at = ${now} FROM old WHERE s.id = old.id RETURNING s.id, old.amount)
          INSERT INTO ledger_entries (currency, type, amount, description, from_student_id, actor_kind, actor_admin_id, actor_name, batch_id, created_at)
          SELECT ${currency}, 'year_closing', amount, ${closingDescription(year.name)}, id, 'admin', ${admin.id}, ${admin.name}, ${batchId}, ${now}
            FROM closed`);
      }

      for (const kind of ['graduated', 'left'] as const) {
        const ids = leaving(kind);
        if (ids.length === 0) continue;
        await tx.update(students).set({ deletedAt: now, departure: kind, updatedAt: now }).where(inArray(students.id, ids));
        for (const id of ids) await endStudentSessions(tx, deps.events, id);
      }
      await tx
        .update(studentTags)
        .set({ expiresAt: now })
        .where(sql`${studentTags.expiresAt} > ${now}`);

      const outcome: RolloverOutcome = {
        applied: true,
        year: { id: year.id, name: year.name },
        appliedAt: now.toISOString(),
        backupFile,
        counts: plan.counts,
        summary: rolloverSummary(plan.counts),
      };
      await tx.insert(schoolYearRollovers).values({ yearId: year.id, appliedAt: now, appliedBy: admin.id, backupFile, outcome });
      await recordAudit(tx, {
        actor: { kind: 'admin', id: admin.id, label: admin.name },
        action: 'school_year.rollover',
        ip: context.ip,
        details: { yearId: year.id, counts: plan.counts, balances: body.balances, mapping: plan.mapping, backupFile },
      });
      if (idempotency)
        await tx.execute(sql`SELECT ledger_complete(${JSON.stringify(idempotency)}::jsonb, 200, ${JSON.stringify(outcome)}::jsonb)`);
      await deps.events.publish(tx, { type: 'students' });
      await deps.events.publish(tx, { type: 'ledger', studentUuids: 'all', status: 'completed', lines: 'all' });
      await deps.events.publish(tx, { type: 'tags', studentUuids: 'all' });
      return outcome;
    });
  } finally {
    running.delete(deps.db);
  }
}

/** The existing backup (decision 010), written to DATA_DIR/backups before anything changes; its failure changes nothing. */
async function backupBefore(deps: RolloverDeps, year: YearRow): Promise<string> {
  const folder = path.join(deps.config.dataDir, 'backups');
  const name = `virada-${year.name
    .normalize('NFD')
    .replace(/[^\w]+/g, '-')
    .toLowerCase()}-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`;
  let client;
  try {
    fs.mkdirSync(folder, { recursive: true });
    client = await sqlClientOf({ ...deps.database, url: deps.database.url ?? deps.config.databaseUrl });
    await writeBackup(client, path.join(folder, name), fileSourceOf(deps.config));
    return name;
  } catch (error) {
    throw new AppError('rollover_backup_failed', { details: { reason: (error as Error).message } });
  } finally {
    await client?.close();
  }
}
