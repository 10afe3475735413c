import { eq, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.ts';
import { goals } from '../../db/schema.ts';
import { directionIs } from '../../db/ledger-direction.ts';
import { AppError } from '../../app-error.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, type AdminActor } from '../auth/actor.ts';
import type { ActivityDay, DashboardStat, DashboardSummary, GoalTarget, GoalView } from '../../../shared/dashboard.ts';
import { GOAL_DEFINITIONS, GOAL_IDS, isGoalId, percentChange, type GoalId } from '../../../shared/dashboard-definitions.ts';
import { dayIn, progressPercent } from '../../../shared/format.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;


function stat(value: number, previous: number): DashboardStat {
  return { value, change: { previous, delta: value - previous, percent: percentChange(value, previous) } };
}

/** The last 7 calendar days of the school's time zone, oldest first, ending today. */
function lastSevenDays(timeZone: string, now: Date): string[] {
  return Array.from({ length: 7 }, (_, index) => dayIn(timeZone, new Date(now.getTime() - (6 - index) * DAY)));
}

type Figures = {
  total: number;
  total_then: number;
  circulation: number;
  net_since_week: number;
  with_balance: number;
  active: number;
  active_before: number;
  transactions: number;
  transactions_before: number;
  awarded_month: number;
};

/**
 * Every figure of the dashboard in one round trip. Balances "then" are derived from
 * today's balances minus what the ledger changed since, for the students who exist now.
 */
async function figures(db: Db, timeZone: string, now: Date): Promise<Figures> {
  const at = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const nowIso = now.toISOString();
  // Operations count over the weekly chart's days (today and the 6 before, the school's calendar), so the card is the chart's sum.
  const weekStart = lastSevenDays(timeZone, now)[0]!;
  const [row] = rowsOf<Record<keyof Figures, string | number>>(
    await db.execute(sql`
      WITH current_students AS (SELECT id, meritus, last_login FROM students WHERE deleted_at IS NULL)
      SELECT
        (SELECT count(*) FROM current_students) AS total,
        (SELECT count(*) FROM students
          WHERE created_at <= ${at(30 * DAY)}::timestamptz
            AND (deleted_at IS NULL OR deleted_at > ${at(30 * DAY)}::timestamptz)) AS total_then,
        (SELECT coalesce(sum(meritus), 0) FROM current_students) AS circulation,
        (SELECT coalesce(sum(CASE WHEN t.id IS NOT NULL THEN e.amount ELSE 0 END)
                       - sum(CASE WHEN f.id IS NOT NULL THEN e.amount ELSE 0 END), 0)
           FROM ledger_entries e
           LEFT JOIN current_students t ON t.id = e.to_student_id
           LEFT JOIN current_students f ON f.id = e.from_student_id
          WHERE e.currency = 'meritus'
            AND e.created_at > ${at(7 * DAY)}::timestamptz AND e.created_at <= ${nowIso}::timestamptz) AS net_since_week,
        (SELECT count(*) FROM current_students WHERE meritus > 0) AS with_balance,
        (SELECT count(*) FROM current_students
          WHERE last_login > ${at(DAY)}::timestamptz AND last_login <= ${nowIso}::timestamptz) AS active,
        (SELECT count(DISTINCT a.actor_id) FROM audit_log a JOIN current_students s ON s.id = a.actor_id
          WHERE a.action = 'login.success' AND a.actor_kind = 'student'
            AND a.at > ${at(2 * DAY)}::timestamptz AND a.at <= ${at(DAY)}::timestamptz) AS active_before,
        (SELECT count(*) FROM ledger_entries
          WHERE currency = 'meritus'
            AND created_at >= (${weekStart}::date::timestamp AT TIME ZONE ${timeZone}) AND created_at <= ${nowIso}::timestamptz) AS transactions,
        (SELECT count(*) FROM ledger_entries
          WHERE currency = 'meritus'
            AND created_at >= ((${weekStart}::date - 7)::timestamp AT TIME ZONE ${timeZone})
            AND created_at < (${weekStart}::date::timestamp AT TIME ZONE ${timeZone})) AS transactions_before,
        (SELECT coalesce(sum(amount), 0) FROM ledger_entries
          WHERE currency = 'meritus' AND ${directionIs(sql`type`, 'raises')}
            AND created_at >= (date_trunc('month', ${nowIso}::timestamptz AT TIME ZONE ${timeZone}) AT TIME ZONE ${timeZone})
            AND created_at <= ${nowIso}::timestamptz) AS awarded_month
    `),
  );
  const numbers = {} as Figures;
  for (const key of Object.keys(row ?? {}) as (keyof Figures)[]) numbers[key] = Number(row![key]);
  return numbers;
}

/** Méritus operations per calendar day of the school's time zone over the last 7 days, with empty days as 0. */
async function weeklyActivity(db: Db, timeZone: string, now: Date): Promise<ActivityDay[]> {
  const days = lastSevenDays(timeZone, now);
  const nowIso = now.toISOString();
  const rows = rowsOf<{ day: string; n: string | number }>(
    await db.execute(sql`
      SELECT to_char((created_at AT TIME ZONE ${timeZone})::date, 'YYYY-MM-DD') AS day, count(*) AS n
        FROM ledger_entries
       WHERE currency = 'meritus'
         AND created_at >= (${days[0]}::date::timestamp AT TIME ZONE ${timeZone})
         AND created_at <= ${nowIso}::timestamptz
       GROUP BY 1
    `),
  );
  const counts = new Map(rows.map((r) => [r.day, Number(r.n)]));
  return days.map((date) => ({ date, count: counts.get(date) ?? 0 }));
}

type StoredGoal = typeof goals.$inferSelect;

function goalViews(stored: StoredGoal[], current: Record<GoalId, number>): GoalView[] {
  const byId = new Map(stored.map((goal) => [goal.id, goal]));
  return GOAL_IDS.map((id) => {
    const definition = GOAL_DEFINITIONS[id];
    const row = byId.get(id);
    const target = row?.target ?? definition.defaultTarget;
    return {
      id,
      label: row?.label ?? definition.label,
      description: definition.description,
      unit: definition.unit,
      target,
      current: current[id],
      progress: Math.round(progressPercent(current[id], target) * 10) / 10,
      updatedAt: row?.updatedAt.toISOString() ?? null,
    };
  });
}

/** The dashboard's figures; days and months are the school's calendar (its time zone). */
export async function dashboardSummary(db: Db, timeZone: string, now: Date = new Date()): Promise<DashboardSummary> {
  const [f, activity, storedGoals] = await Promise.all([figures(db, timeZone, now), weeklyActivity(db, timeZone, now), db.select().from(goals)]);
  const participationRate = f.total === 0 ? 0 : Math.round((f.with_balance / f.total) * 1000) / 10;
  return {
    totalStudents: stat(f.total, f.total_then),
    meritusInCirculation: stat(f.circulation, f.circulation - f.net_since_week),
    transactions7d: stat(f.transactions, f.transactions_before),
    activeStudents: stat(f.active, f.active_before),
    overview: {
      participationRate,
      studentsWithBalance: f.with_balance,
      averagePerStudent: f.total === 0 ? 0 : Math.round(f.circulation / f.total),
      weeklyActivity: activity,
    },
    goals: goalViews(storedGoals, {
      participation: participationRate,
      weekly_transactions: f.transactions,
      monthly_awarded: f.awarded_month,
    }),
    generatedAt: now.toISOString(),
  };
}

/** Sets a goal's target; the first change stores the row the defaults stood in for. */
export async function updateGoalTarget(
  db: Db,
  admin: AdminActor,
  id: string,
  input: { target: number },
  context: { ip?: string | undefined } = {},
): Promise<GoalTarget> {
  if (!isGoalId(id)) throw new AppError('goal_not_found', { status: 404 });
  const definition = GOAL_DEFINITIONS[id];
  if (input.target > definition.max) {
    throw new AppError(definition.unit === 'percent' ? 'goal_percent_range' : 'goal_invalid_target');
  }
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(goals).where(eq(goals.id, id)).for('update');
    const now = new Date();
    const [row] = await tx
      .insert(goals)
      .values({ id, label: definition.label, target: input.target, updatedAt: now })
      .onConflictDoUpdate({ target: goals.id, set: { target: input.target, updatedAt: now } })
      .returning();
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'goal.update',
      ip: context.ip,
      details: { goal: id, from: before?.target ?? definition.defaultTarget, to: input.target },
    });
    return { id, label: row!.label, target: row!.target, updatedAt: row!.updatedAt.toISOString() };
  });
}
