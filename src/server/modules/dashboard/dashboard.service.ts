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
  type DashboardPeriod,
  type DashboardQuery,
  type DashboardStat,
  type DashboardSummary,
  type GoalTarget,
  type GoalView,
} from '../../../shared/dashboard.ts';
import type { Currency } from '../../../shared/ledger-types.ts';
import { storeSpending } from '../reports/report-store.queries.ts';
import { GOAL_DEFINITIONS, GOAL_IDS, isGoalId, percentChange, type GoalId } from '../../../shared/dashboard-definitions.ts';
import { dayIn, progressPercent } from '../../../shared/format.ts';
import { addDays, daysBetween, type ResolvedPeriod } from '../../../shared/reports.ts';
import { periodOf, type ReportDeps } from '../reports/reports.service.ts';
import { awardedIn, dashboardFigures, operationsPerDay, spanBounds } from './dashboard.queries.ts';

function stat(value: number, previous: number): DashboardStat {
  return { value, change: { previous, delta: value - previous, percent: percentChange(value, previous) } };
}

/** The chart's bars: a day each up to two weeks, a week (its first day, then each Monday) up to 15 weeks, else a month. */
function barsOf(period: { from: string; to: string }): { bucket: DashboardPeriod['bucket']; starts: string[] } {
  const days = daysBetween(period.from, period.to);
  const bucket = days <= 14 ? 'day' : days <= 15 * 7 ? 'week' : 'month';
  const starts: string[] = [];
  for (let day = period.from; day <= period.to; day = addDays(day, 1)) {
    const monday = new Date(`${day}T00:00:00Z`).getUTCDay() === 1;
    if (day === period.from || bucket === 'day' || (bucket === 'week' ? monday : day.endsWith('-01'))) starts.push(day);
  }
  return { bucket, starts };
}

/** Méritus operations per bar of the period's chart (barsOf), empty bars as 0. */
async function activity(
  db: Db,
  scope: TurmaScope,
  timeZone: string,
  period: ResolvedPeriod,
  starts: string[],
  now: Date,
): Promise<ActivityDay[]> {
  const counts = await operationsPerDay(db, scope, timeZone, period, now);
  const bars = starts.map((date) => ({ date, count: 0 }));
  let bar = 0;
  for (let day = period.from; day <= period.to; day = addDays(day, 1)) {
    if (starts[bar + 1] === day) bar += 1;
    bars[bar]!.count += counts.get(day) ?? 0;
  }
  return bars;
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

/**
 * The dashboard's figures (a teacher's: over their turmas); days and months are the school's calendar (its time zone).
 * Operations, awards, the Loja and the chart are of the query's period, resolved as the reports' (`periodOf`): a school
 * year or period through `dateRangeOf()`, the last 7 days ('7d') without one.
 */
export async function dashboardSummary(
  deps: ReportDeps,
  admin: AdminActor,
  query: DashboardQuery,
  now: Date = new Date(),
): Promise<DashboardSummary> {
  const { db } = deps;
  const { timeZone } = (await deps.settings.get()).school;
  const today = dayIn(timeZone, now);
  const period = await periodOf(deps, { period: query.period ?? '7d', year: query.year }, today, now);
  const scope = turmaScopeOf(admin);
  const chart = barsOf(period);
  const [f, bars, storedGoals, store, awardedInPeriod, awardedInMonth] = await Promise.all([
    dashboardFigures(db, scope, timeZone, now, { ...period, weekFrom: addDays(today, -6) }),
    activity(db, scope, timeZone, period, chart.starts, now),
    db.select().from(goals),
    storeSpending(db, { ...spanBounds(period, timeZone, now), turmas: scope }),
    awardedIn(db, scope, timeZone, period),
    awardedIn(db, scope, timeZone, { from: `${today.slice(0, 8)}01`, to: today }),
  ]);
  const spentIn = (currency: Currency) =>
    store.items.filter((item) => item.currency === currency).reduce((total, item) => total + item.spent, 0);
  const participationRate = f.total === 0 ? 0 : Math.round((f.with_balance / f.total) * 1000) / 10;
  return {
    totalStudents: stat(f.total, f.total_then),
    meritusInCirculation: stat(f.circulation, f.circulation - f.net_since_week),
    transactions7d: stat(
      bars.reduce((total, bar) => total + bar.count, 0),
      f.transactions_before,
    ),
    activeStudents: stat(f.active, f.active_before),
    overview: {
      participationRate,
      studentsWithBalance: f.with_balance,
      averagePerStudent: f.total === 0 ? 0 : Math.round(f.circulation / f.total),
      weeklyActivity: bars,
    },
    goals: goalViews(storedGoals, {
      participation: participationRate,
      weekly_transactions: f.transactions_week,
      monthly_awarded: awardedInMonth,
    }),
    store: {
      spent: { meritus: spentIn('meritus'), estelecas: spentIn('estelecas') },
      awarded: awardedInPeriod,
      openOrders: store.openOrders.count,
      oldestOrderAt: store.openOrders.oldestAt,
      soldOut: store.soldOut.map(({ itemId, name }) => ({ itemId, name })),
      topItems: store.items
        .filter((item) => item.spent > 0)
        .slice(0, DASHBOARD_TOP_ITEMS)
        .map(({ itemId, name, currency, spent, units }) => ({ itemId, name, currency, spent, units })),
    },
    period: {
      label: period.label,
      from: period.from,
      to: period.to,
      previousFrom: period.previousFrom,
      previousTo: period.previousTo,
      bucket: chart.bucket,
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
