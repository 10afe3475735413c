import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.ts';
import type { AdminActor } from '../auth/actor.ts';
import { startOfWeekIn } from '../../../shared/format.ts';
import { ADMIN_OPERATION_TYPES, isCredit, typesThat, type AdminOperationType } from '../../../shared/ledger-types.ts';
import type { AwardBudget, BudgetLeft } from '../../../shared/ledger.ts';

/**
 * A teacher's weekly award budget (issue 34): admins.weekly_budget_meritus / _estelecas, null for no
 * limit; the coordination has none. The week begins on Monday at midnight in the school's time zone
 * (startOfWeekIn). It counts the teacher's awards of the week (deductions give nothing back), summed
 * by ledger_awarded_since() in ledger.sql, the one place that says what counts: ledger_admin_operation()
 * checks it under the teacher's lock, and GET /api/me/budget reads it.
 */

/** The types that award: what the budget counts. */
const AWARD_TYPES = typesThat(ADMIN_OPERATION_TYPES, 'raises');

/** What ledger_admin_operation() needs to hold an award to its author's budget (it reads the limit itself, under the lock). */
export type BudgetCheck = { weekStart: string; types: readonly AdminOperationType[] };

/** The check an administrator's operation carries: a teacher's award made now; null for the rest (history written in the past too). */
export function budgetCheck(admin: AdminActor, type: AdminOperationType, timeZone: string, at: Date | undefined): BudgetCheck | null {
  if (admin.staffRole !== 'teacher' || !isCredit(type) || at) return null;
  return { weekStart: startOfWeekIn(timeZone, new Date()).toISOString(), types: AWARD_TYPES };
}

function left(weeklyBudget: number | null, spent: number): BudgetLeft | null {
  return weeklyBudget === null ? null : { weeklyBudget, spent, remaining: Math.max(weeklyBudget - spent, 0) };
}

/** What a member of the staff may still award this week, per currency (null: no limit). */
export async function awardBudget(db: Db, admin: AdminActor, timeZone: string, now: Date = new Date()): Promise<AwardBudget> {
  const weekStart = startOfWeekIn(timeZone, now).toISOString();
  const types = sql`ARRAY[${sql.join(
    AWARD_TYPES.map((type) => sql`${type}`),
    sql`, `,
  )}]::text[]`;
  const [row] = rowsOf<{ meritus: number | null; estelecas: number | null; spent_meritus: string; spent_estelecas: string }>(
    await db.execute(sql`
      SELECT weekly_budget_meritus AS meritus, weekly_budget_estelecas AS estelecas,
             ledger_awarded_since(id, 'meritus', ${weekStart}::timestamptz, ${types}) AS spent_meritus,
             ledger_awarded_since(id, 'estelecas', ${weekStart}::timestamptz, ${types}) AS spent_estelecas
        FROM admins WHERE id = ${admin.id} AND role = 'teacher'`),
  );
  if (!row) return { weekStart, meritus: null, estelecas: null };
  return {
    weekStart,
    meritus: left(row.meritus, Number(row.spent_meritus)),
    estelecas: left(row.estelecas, Number(row.spent_estelecas)),
  };
}
