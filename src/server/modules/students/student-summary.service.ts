import { and, eq, gte, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ledgerEntries, students } from '../../db/schema.ts';
import { directionIs } from '../../db/ledger-direction.ts';
import { AppError } from '../../app-error.ts';
import { CHANGE_WINDOW_DAYS } from '../../../shared/constants.ts';
import type { StudentSummary } from '../../../shared/student-area.ts';
import { competitionRank, goalPercent, goalRemaining } from '../../../shared/student-figures.ts';

const DAY_MS = 86_400_000;

/** A sum that is 0 rather than null when no row matches; PostgreSQL returns bigint sums as text. */
const total = (expression: ReturnType<typeof sql>) => sql`COALESCE(SUM(${expression}), 0)`.mapWith(Number);

/**
 * Every current student's Méritus balance now and as it stood at `since`. The ledger
 * holds every change (stored balance = sum of its rows), so the earlier balance is
 * today's minus the net of the rows written after `since`. A student who did not exist
 * yet counts with 0 then, which never places anyone below them (ties share a position).
 */
async function meritusNowAndBefore(db: Db, since: Date): Promise<{ id: string; now: number; before: number }[]> {
  const delta = db
    .select({
      studentUuid: sql<string>`s.student`.as('student'),
      net: sql<number>`SUM(s.delta)`.as('net'),
    })
    .from(
      sql`(
        SELECT ${ledgerEntries.toStudentId} AS student, ${ledgerEntries.amount} AS delta FROM ${ledgerEntries}
         WHERE ${ledgerEntries.currency} = 'meritus'
           AND ${ledgerEntries.toStudentId} IS NOT NULL AND ${ledgerEntries.createdAt} >= ${since}
        UNION ALL
        SELECT ${ledgerEntries.fromStudentId}, -${ledgerEntries.amount} FROM ${ledgerEntries}
         WHERE ${ledgerEntries.currency} = 'meritus'
           AND ${ledgerEntries.fromStudentId} IS NOT NULL AND ${ledgerEntries.createdAt} >= ${since}
      ) AS s`,
    )
    .groupBy(sql`s.student`)
    .as('delta');
  return db
    .select({
      id: students.id,
      now: students.meritus,
      before: sql`${students.meritus} - COALESCE(${delta.net}, 0)`.mapWith(Number),
    })
    .from(students)
    .leftJoin(delta, eq(delta.studentUuid, students.id))
    .where(isNull(students.deletedAt));
}

/** The signed-in student's figures: balances, rank with ties, the school's Méritus goal and what changed recently. */
export async function studentSummary(db: Db, studentUuid: string, goal: number, now: Date = new Date()): Promise<StudentSummary> {
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

  const [[flows], balances, [peak]] = await Promise.all([
    db
      .select({
        meritusNet: total(sql`CASE WHEN ${isMeritus} AND ${recent} THEN CASE WHEN ${incoming} THEN ${amount} ELSE -${amount} END END`),
        earned: total(
          sql`CASE WHEN ${isMeritus} AND ${recent} AND ${incoming} AND ${directionIs(ledgerEntries.type, 'raises')} THEN ${amount} END`,
        ),
        estelecasNet: total(sql`CASE WHEN ${isEstelecas} AND ${recent} THEN CASE WHEN ${incoming} THEN ${amount} ELSE -${amount} END END`),
        estelecasReceived: total(sql`CASE WHEN ${isEstelecas} AND ${incoming} THEN ${amount} END`),
        estelecasReceivedRecent: total(sql`CASE WHEN ${isEstelecas} AND ${incoming} AND ${recent} THEN ${amount} END`),
        estelecasSent: total(
          sql`CASE WHEN ${isEstelecas} AND ${outgoing} AND ${directionIs(ledgerEntries.type, 'moves')} THEN ${amount} END`,
        ),
        estelecasDeducted: total(
          sql`CASE WHEN ${isEstelecas} AND ${outgoing} AND ${directionIs(ledgerEntries.type, 'lowers')} THEN ${amount} END`,
        ),
      })
      .from(ledgerEntries)
      .where(or(incoming, outgoing)),
    meritusNowAndBefore(db, since),
    // Highest Estelecas balance ever held: the maximum of the running sum of the student's rows.
    db.select({ value: sql`COALESCE(MAX(running.balance), 0)`.mapWith(Number) }).from(
      sql`(
          SELECT SUM(CASE WHEN ${incoming} THEN ${amount} ELSE -${amount} END)
                 OVER (ORDER BY ${ledgerEntries.createdAt}, ${ledgerEntries.id}) AS balance
            FROM ${ledgerEntries}
           WHERE ${isEstelecas} AND (${incoming} OR ${outgoing})
        ) AS running`,
    ),
  ]);

  const nowValues = balances.map((row) => row.now);
  const beforeValues = balances.map((row) => row.before);
  const mine = balances.find((row) => row.id === studentUuid);
  const before = mine?.before ?? me.meritus;

  return {
    meritus: me.meritus,
    totalEarned: me.totalEarned,
    estelecas: me.estelecas,
    rank: {
      position: competitionRank(me.meritus, nowValues),
      total: balances.length,
      positionBefore: competitionRank(before, beforeValues),
    },
    goal: { target: goal, percent: goalPercent(me.meritus, goal), remaining: goalRemaining(me.meritus, goal) },
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
