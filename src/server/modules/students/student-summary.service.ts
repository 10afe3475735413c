import { and, eq, gte, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ledgerEntries, students } from '../../db/schema.ts';
import { awardIs, directionIs } from '../../db/ledger-direction.ts';
import { AppError } from '../../app-error.ts';
import { CHANGE_WINDOW_DAYS } from '../../../shared/constants.ts';
import type { StudentSummary } from '../../../shared/student-area.ts';
import { goalPercent, goalRemaining } from '../../../shared/student-figures.ts';
import type { RankingStore } from './ranking-store.ts';
import { rankingViewOf, type RankingView } from './students.service.ts';
import type { RankingPrivacy } from '../../views/student-privacy.ts';
import { storeGoalOf } from './store-goal.service.ts';

const DAY_MS = 86_400_000;

/** A sum that is 0 rather than null when no row matches; PostgreSQL returns bigint sums as text. */
const total = (expression: ReturnType<typeof sql>) => sql`COALESCE(SUM(${expression}), 0)`.mapWith(Number);

/**
 * The competition position of a balance among the other students of the student's view of the ranking (rankingViewOf:
 * those hidden from them left out), the student's own row left aside (it may be a moment older than the balance just
 * read): one more than those with more.
 */
function positionAmong(view: RankingView, studentUuid: string, meritus: number): number {
  const { rows } = view;
  // Rows are by Méritus, highest first: the first row with no more than `meritus` ends those above.
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (rows[middle]!.meritus > meritus) low = middle + 1;
    else high = middle;
  }
  const myIndex = view.indexOf(studentUuid);
  return low + 1 - (myIndex !== undefined && myIndex < low ? 1 : 0);
}

/** The position held with the balances of CHANGE_WINDOW_DAYS ago, among today's students of the view (the newer ones had 0 then). */
function positionBefore(view: RankingView, past: ReadonlyMap<string, number>, studentUuid: string): number {
  const mine = past.get(studentUuid) ?? 0;
  let above = 0;
  for (const row of view.rows) if (row.id !== studentUuid && (past.get(row.id) ?? 0) > mine) above += 1;
  return above + 1;
}

/** The signed-in student's figures: balances, rank with ties, the school's Méritus goal and what changed recently. */
export async function studentSummary(
  db: Db,
  ranking: RankingStore,
  studentUuid: string,
  goal: number,
  privacy: RankingPrivacy,
  now: Date = new Date(),
): Promise<StudentSummary> {
  const since = new Date(now.getTime() - CHANGE_WINDOW_DAYS * DAY_MS);
  const [me] = await db
    .select({ meritus: students.meritus, totalEarned: students.totalEarned, estelecas: students.estelecas })
    .from(students)
    .where(and(eq(students.id, studentUuid), isNull(students.deletedAt)));
  if (!me) throw new AppError('student_not_found');

  const incoming = eq(ledgerEntries.toStudentId, studentUuid);
  const outgoing = eq(ledgerEntries.fromStudentId, studentUuid);
  const recent = gte(ledgerEntries.createdAt, since);
  const isMeritus = eq(ledgerEntries.currency, 'meritus');
  const isEstelecas = eq(ledgerEntries.currency, 'estelecas');
  const amount = ledgerEntries.amount;

  const [[flows], current, past, [peak], storeGoal] = await Promise.all([
    db
      .select({
        meritusNet: total(sql`CASE WHEN ${isMeritus} AND ${recent} THEN CASE WHEN ${incoming} THEN ${amount} ELSE -${amount} END END`),
        // A reversed award (a reversal whose only party is the student as sender, decision 025) is no longer earned.
        earned: total(
          sql`CASE WHEN ${isMeritus} AND ${recent} AND ${incoming} AND ${awardIs(ledgerEntries.type, 'raises')} THEN ${amount}
                   WHEN ${isMeritus} AND ${recent} AND ${outgoing} AND ${isNull(ledgerEntries.toStudentId)}
                        AND ${directionIs(ledgerEntries.type, 'reverses')} THEN -${amount} END`,
        ),
        estelecasNet: total(sql`CASE WHEN ${isEstelecas} AND ${recent} THEN CASE WHEN ${incoming} THEN ${amount} ELSE -${amount} END END`),
        estelecasReceived: total(sql`CASE WHEN ${isEstelecas} AND ${incoming} THEN ${amount} END`),
        estelecasReceivedRecent: total(sql`CASE WHEN ${isEstelecas} AND ${incoming} AND ${recent} THEN ${amount} END`),
        estelecasSent: total(
          sql`CASE WHEN ${isEstelecas} AND ${outgoing} AND ${directionIs(ledgerEntries.type, 'moves')} THEN ${amount} END`,
        ),
        estelecasDeducted: total(
          sql`CASE WHEN ${isEstelecas} AND ${outgoing} AND ${awardIs(ledgerEntries.type, 'lowers')} THEN ${amount} END`,
        ),
      })
      .from(ledgerEntries)
      .where(or(incoming, outgoing)),
    ranking.current(),
    ranking.balancesBefore(now),
    // Highest Estelecas balance ever held: the maximum of the running sum of the student's rows.
    db.select({ value: sql`COALESCE(MAX(running.balance), 0)`.mapWith(Number) }).from(
      sql`(
          SELECT SUM(CASE WHEN ${incoming} THEN ${amount} ELSE -${amount} END)
                 OVER (ORDER BY ${ledgerEntries.createdAt}, ${ledgerEntries.id}) AS balance
            FROM ${ledgerEntries}
           WHERE ${isEstelecas} AND (${incoming} OR ${outgoing})
        ) AS running`,
    ),
    storeGoalOf(db, studentUuid),
  ]);

  const view = rankingViewOf(current, { kind: 'student', id: studentUuid }, privacy);
  return {
    meritus: me.meritus,
    totalEarned: me.totalEarned,
    estelecas: me.estelecas,
    rank: {
      position: positionAmong(view, studentUuid, me.meritus),
      total: view.rows.length + (view.indexOf(studentUuid) === undefined ? 1 : 0),
      positionBefore: positionBefore(view, past, studentUuid),
    },
    goal: { target: goal, percent: goalPercent(me.meritus, goal), remaining: goalRemaining(me.meritus, goal) },
    storeGoal,
    recent: { meritusNet: flows?.meritusNet ?? 0, earned: flows?.earned ?? 0, estelecasNet: flows?.estelecasNet ?? 0 },
    estelecasStats: {
      received: flows?.estelecasReceived ?? 0,
      receivedRecent: flows?.estelecasReceivedRecent ?? 0,
      sent: flows?.estelecasSent ?? 0,
      deducted: flows?.estelecasDeducted ?? 0,
      peak: Math.max(peak?.value ?? 0, me.estelecas),
    },
  };
}
