import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { goals } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, turmaScopeOf, type AdminActor } from '../auth/actor.ts';
import type { TurmaScope } from '../../views/turma-scope.ts';
import {
  DASHBOARD_TOP_ITEMS,
  type ActivityDay,
  type DashboardStat,
  type DashboardSummary,
  type GoalTarget,
  type GoalView,
} from '../../../shared/dashboard.ts';
import type { Currency } from '../../../shared/ledger-types.ts';
import { storeSpending } from '../reports/report-store.queries.ts';
import { GOAL_DEFINITIONS, GOAL_IDS, isGoalId, percentChange, type GoalId } from '../../../shared/dashboard-definitions.ts';
import { dayIn, progressPercent } from '../../../shared/format.ts';
import { DAY, dashboardFigures, operationsPerDay, weekBounds } from './dashboard.queries.ts';

function stat(value: number, previous: number): DashboardStat {
  return { value, change: { previous, delta: value - previous, percent: percentChange(value, previous) } };
}

/** The last 7 calendar days of the school's time zone, oldest first, ending today. */
function lastSevenDays(timeZone: string, now: Date): string[] {
  return Array.from({ length: 7 }, (_, index) => dayIn(timeZone, new Date(now.getTime() - (6 - index) * DAY)));
}

/** Méritus operations per calendar day of the school's time zone over the last 7 days, with empty days as 0. */
async function weeklyActivity(db: Db, scope: TurmaScope, timeZone: string, now: Date): Promise<ActivityDay[]> {
  const days = lastSevenDays(timeZone, now);
  const counts = await operationsPerDay(db, scope, timeZone, days[0]!, now);
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

/** The dashboard's figures (a teacher's: over their turmas); days and months are the school's calendar (its time zone). */
export async function dashboardSummary(db: Db, admin: AdminActor, timeZone: string, now: Date = new Date()): Promise<DashboardSummary> {
  // Operations count over the weekly chart's days (today and the 6 before, the school's calendar), so the card is the chart's sum.
  const weekStart = lastSevenDays(timeZone, now)[0]!;
  const scope = turmaScopeOf(admin);
  const [f, activity, storedGoals, store] = await Promise.all([
    dashboardFigures(db, scope, timeZone, now, weekStart),
    weeklyActivity(db, scope, timeZone, now),
    db.select().from(goals),
    storeSpending(db, { ...weekBounds(weekStart, timeZone, now), turmas: scope }),
  ]);
  const spentIn = (currency: Currency) =>
    store.items.filter((item) => item.currency === currency).reduce((total, item) => total + item.spent, 0);
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
    store: {
      spent: { meritus: spentIn('meritus'), estelecas: spentIn('estelecas') },
      awarded: f.awarded_week,
      openOrders: store.openOrders.count,
      oldestOrderAt: store.openOrders.oldestAt,
      soldOut: store.soldOut.map(({ itemId, name }) => ({ itemId, name })),
      topItems: store.items
        .filter((item) => item.spent > 0)
        .slice(0, DASHBOARD_TOP_ITEMS)
        .map(({ itemId, name, currency, spent, units }) => ({ itemId, name, currency, spent, units })),
    },
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
