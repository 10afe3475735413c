import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { schoolPeriods, schoolYearRollovers, schoolYears } from '../../db/schema.ts';
import { lockForTransaction } from '../../db/advisory-locks.ts';
import { sqlState } from '../../db/sql-state.ts';
import { AppError } from '../../app-error.ts';
import { auditActor, type AdminActor, type SystemActor } from '../auth/actor.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import { timeZoneOf } from '../store/store-records.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import { dayIn, midnightIn } from '../../../shared/format.ts';
import { CURRENT, periodName, schoolYearInput, type SchoolYear, type SchoolYearInput } from '../../../shared/school-year.ts';
import { addDays } from '../../../shared/reports.ts';

/** What the school year's services need: the database, and the settings for the school's time zone (its 'today'). */
export type SchoolYearDeps = { db: Db; events: EventBus; settings?: SettingsStore };

type YearRow = typeof schoolYears.$inferSelect;
type PeriodRow = typeof schoolPeriods.$inferSelect;
type Context = { ip?: string | undefined };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Today in the school's time zone (YYYY-MM-DD): the current year and period are the ones containing it. */
export async function schoolToday(deps: SchoolYearDeps, now: Date = new Date()): Promise<string> {
  return dayIn(await timeZoneOf(deps), now);
}

function yearView(year: YearRow, periods: readonly PeriodRow[], closedAt: Date | null, today: string): SchoolYear {
  return {
    id: year.id,
    name: year.name,
    startDate: year.startDate,
    endDate: year.endDate,
    periodKind: year.periodKind,
    periods: periods
      .filter((period) => period.yearId === year.id)
      .sort((a, b) => a.position - b.position)
      .map((period) => ({
        id: period.id,
        position: period.position,
        name: periodName(year.periodKind, period.position),
        startDate: period.startDate,
        endDate: period.endDate,
      })),
    current: year.startDate <= today && today <= year.endDate,
    closedAt: closedAt?.toISOString() ?? null,
  };
}

async function readYears(db: DbOrTx, today: string, ids?: readonly string[]): Promise<SchoolYear[]> {
  const years = await db
    .select({ year: schoolYears, closedAt: schoolYearRollovers.appliedAt })
    .from(schoolYears)
    .leftJoin(schoolYearRollovers, eq(schoolYearRollovers.yearId, schoolYears.id))
    .where(ids ? inArray(schoolYears.id, [...ids]) : undefined)
    .orderBy(asc(schoolYears.startDate));
  if (years.length === 0) return [];
  const periods = await db
    .select()
    .from(schoolPeriods)
    .where(
      inArray(
        schoolPeriods.yearId,
        years.map((row) => row.year.id),
      ),
    );
  return years.map((row) => yearView(row.year, periods, row.closedAt, today));
}

/** Every school year, oldest first, with its periods; `current` marks the one containing today. */
export async function listSchoolYears(deps: SchoolYearDeps, now: Date = new Date()): Promise<{ years: SchoolYear[] }> {
  return { years: await readYears(deps.db, await schoolToday(deps, now)) };
}

/** The year containing `day`, or the latest that began before it (the days between two years count in the one before). */
export async function yearOfDay(db: DbOrTx, day: string): Promise<YearRow | undefined> {
  const [year] = await db
    .select()
    .from(schoolYears)
    .where(lte(schoolYears.startDate, day))
    .orderBy(sql`${schoolYears.startDate} DESC`)
    .limit(1);
  return year;
}

/** Refuses dates that share a day with another year's, naming it; the exclusion constraint holds the same at commit. */
async function checkNoOverlap(tx: DbOrTx, input: { startDate: string; endDate: string }, exceptId?: string): Promise<void> {
  const [other] = await tx
    .select({ name: schoolYears.name })
    .from(schoolYears)
    .where(
      and(
        sql`daterange(${schoolYears.startDate}, ${schoolYears.endDate}, '[]') && daterange(${input.startDate}::date, ${input.endDate}::date, '[]')`,
        exceptId ? sql`${schoolYears.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  if (other) throw new AppError('school_year_overlap', { status: 409, message: `As datas se sobrepõem às do ${other.name}` });
}

/** A write's failure the checks above did not foresee (two requests at once): the constraint's own refusal. */
function constraintRefusal(error: unknown): never {
  const state = sqlState(error);
  if (state === '23505') throw new AppError('school_year_name_taken');
  if (state === '23P01') throw new AppError('school_year_overlap');
  if (state === '23514') throw new AppError('school_period_outside_year', { status: 400 });
  throw error;
}

async function writePeriods(tx: DbOrTx, yearId: string, periods: SchoolYearInput['periods']): Promise<void> {
  // Each position keeps its period's id (a report's link to '2º bimestre' still names it); the constraints are checked at commit.
  for (const [index, period] of periods.entries()) {
    await tx
      .insert(schoolPeriods)
      .values({ yearId, position: index + 1, startDate: period.startDate, endDate: period.endDate })
      .onConflictDoUpdate({
        target: [schoolPeriods.yearId, schoolPeriods.position],
        set: { startDate: period.startDate, endDate: period.endDate },
      });
  }
  await tx.delete(schoolPeriods).where(and(eq(schoolPeriods.yearId, yearId), gt(schoolPeriods.position, periods.length)));
}

/** A new school year with its periods (the coordination). */
export async function createSchoolYear(
  deps: SchoolYearDeps,
  admin: AdminActor | SystemActor,
  body: SchoolYearInput,
  context: Context = {},
): Promise<SchoolYear> {
  const input = schoolYearInput.parse(body);
  const today = await schoolToday(deps);
  try {
    return await deps.db.transaction(async (tx) => {
      await lockForTransaction(tx, 'schoolYears');
      await checkNoOverlap(tx, input);
      const [year] = await tx
        .insert(schoolYears)
        .values({ name: input.name, startDate: input.startDate, endDate: input.endDate, periodKind: input.periodKind })
        .onConflictDoNothing()
        .returning();
      if (!year) throw new AppError('school_year_name_taken');
      await writePeriods(tx, year.id, input.periods);
      await recordAudit(tx, {
        actor: auditActor(admin),
        action: 'school_year.create',
        ip: context.ip,
        details: { yearId: year.id, ...input },
      });
      return (await readYears(tx, today, [year.id]))[0]!;
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    return constraintRefusal(error);
  }
}

/** A year's name, dates, kind and periods, changed whole (the coordination); a closed year no longer changes. */
export async function updateSchoolYear(
  deps: SchoolYearDeps,
  admin: AdminActor,
  id: string,
  body: SchoolYearInput,
  context: Context = {},
): Promise<SchoolYear> {
  if (!UUID.test(id)) throw new AppError('school_year_not_found');
  const input = schoolYearInput.parse(body);
  const today = await schoolToday(deps);
  try {
    return await deps.db.transaction(async (tx) => {
      await lockForTransaction(tx, 'schoolYears');
      const [before] = await readYears(tx, today, [id]);
      if (!before) throw new AppError('school_year_not_found');
      if (before.closedAt) throw new AppError('school_year_closed');
      await checkNoOverlap(tx, input, id);
      const [taken] = await tx
        .select({ id: schoolYears.id })
        .from(schoolYears)
        .where(and(sql`lower(${schoolYears.name}) = lower(${input.name})`, sql`${schoolYears.id} <> ${id}`));
      if (taken) throw new AppError('school_year_name_taken');
      await tx
        .update(schoolYears)
        .set({ name: input.name, startDate: input.startDate, endDate: input.endDate, periodKind: input.periodKind, updatedAt: new Date() })
        .where(eq(schoolYears.id, id));
      await writePeriods(tx, id, input.periods);
      await recordAudit(tx, {
        actor: auditActor(admin),
        action: 'school_year.update',
        ip: context.ip,
        details: { yearId: id, before: { ...before, current: undefined }, after: input },
      });
      return (await readYears(tx, today, [id]))[0]!;
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    return constraintRefusal(error);
  }
}

/**
 * What a report or the ranking selects with `year=` and `period=` ('atual', a year's id, a period's id): its calendar
 * days (from, to, both included) and the instants they span in the school's time zone ([start, end), end exclusive),
 * which an index on a row's instant reads as one range. Undefined when neither is given (no year filter). A period given
 * with a year must be one of its periods; 'atual' is the year or period containing today.
 */
export async function dateRangeOf(
  deps: Pick<SchoolYearDeps, 'db' | 'settings'>,
  query: { year?: string | undefined; period?: string | undefined },
  now: Date = new Date(),
): Promise<
  | {
      from: string;
      to: string;
      start: Date;
      end: Date;
      year: { id: string; name: string };
      period: { id: string; name: string } | null;
    }
  | undefined
> {
  if (query.year === undefined && query.period === undefined) return undefined;
  const timeZone = await timeZoneOf(deps);
  const today = dayIn(timeZone, now);
  const years = await readYears(deps.db, today);
  const wanted = query.year?.toLowerCase();
  const year =
    wanted === undefined
      ? undefined
      : wanted === CURRENT
        ? (years.find((candidate) => candidate.current) ?? refuse('school_year_none_current'))
        : (years.find((candidate) => candidate.id === wanted) ?? refuse('school_year_not_found'));
  let span: { id: string; name: string; startDate: string; endDate: string } | null = null;
  let owner = year;
  if (query.period !== undefined) {
    const inYears = year ? [year] : years;
    const found =
      query.period === CURRENT
        ? inYears
            .flatMap((candidate) => candidate.periods.map((period) => ({ period, candidate })))
            .find(({ period }) => period.startDate <= today && today <= period.endDate)
        : inYears
            .flatMap((candidate) => candidate.periods.map((period) => ({ period, candidate })))
            .find(({ period }) => period.id === query.period!.toLowerCase());
    if (!found) {
      if (query.period === CURRENT) refuse('school_year_none_current');
      if (year && years.some((candidate) => candidate.periods.some((period) => period.id === query.period!.toLowerCase())))
        refuse('school_year_period_mismatch', 400);
      refuse('school_period_not_found');
    }
    span = found.period;
    owner = found.candidate;
  }
  const chosen = span ?? owner!;
  const from = chosen.startDate;
  const to = chosen.endDate;
  const midnight = (day: string) => midnightIn(timeZone, Date.parse(`${day}T00:00:00Z`));
  return {
    from,
    to,
    start: midnight(from),
    end: midnight(addDays(to, 1)),
    year: { id: owner!.id, name: owner!.name },
    period: span ? { id: span.id, name: span.name } : null,
  };
}

function refuse(
  code: 'school_year_none_current' | 'school_year_not_found' | 'school_period_not_found' | 'school_year_period_mismatch',
  status?: number,
): never {
  throw new AppError(code, status === undefined ? {} : { status });
}
