import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import type { RankingStore } from '../students/ranking-store.ts';
import { studentSummary } from '../students/student-summary.service.ts';
import { rankingPrivacyOf } from '../../views/student-privacy.ts';
import { formatAmount, formatInstant, formatNumber, startOfWeekIn } from '../../../shared/format.ts';
import { FAMILY_AREA_PATH, MAIL_TEXTS, WEEKLY_SUMMARY_TEXTS } from '../../../shared/mail-texts.ts';
import { ADMIN_OPERATION_TYPES, typesThat, type Currency } from '../../../shared/ledger-types.ts';
import type { SchoolRules } from '../../../shared/settings.ts';
import { queueMail } from './outbox.service.ts';
import { renderHtml, renderText, type MailBlock } from './mail-render.ts';
import { unsubscribeUrls } from './mail-preferences.service.ts';

/*
 * The weekly summary (decision 038): each Monday, for the week that ended (Monday to Monday in the school's time zone),
 * a message to each guardian per child they followed by then, unless they turned it off. The job runs every hour and
 * queues only what is missing: the dedupe key (guardian, child, week) makes every run after the first queue nothing.
 */

/** The job looks every hour; a server down on Monday morning catches up when it starts. */
export const WEEKLY_SUMMARY_CHECK_MS = 3_600_000;

export type WeeklySummaryDeps = { db: Db; settings: SettingsStore; ranking: RankingStore; publicUrl: string };

/** The week a summary at `now` is about: from the Monday before last to the last Monday, at midnight of the school. */
export function summaryWeek(timeZone: string, now: Date): { start: Date; end: Date } {
  const end = startOfWeekIn(timeZone, now);
  return { start: startOfWeekIn(timeZone, new Date(end.getTime() - 3.5 * 86_400_000)), end };
}

type Recipient = { guardian_id: string; email: string; student_id: string; name: string; meritus: number; estelecas: number };
type Movement = { currency: Currency; description: string; direction: 'earned' | 'lost'; amount: number | string; times: number | string };

/** Who gets a summary of the week not yet queued: guardians (not opted out) of current children linked before it ended. */
async function recipientsOf(db: Db, week: { end: Date }, weekKey: string): Promise<Recipient[]> {
  return rowsOf<Recipient>(
    await db.execute(sql`
      SELECT g.id AS guardian_id, g.email, s.id AS student_id, s.name, s.meritus, s.estelecas
      FROM guardian_students gs
      JOIN guardians g ON g.id = gs.guardian_id
      JOIN students s ON s.id = gs.student_id AND s.deleted_at IS NULL
      WHERE gs.created_at < ${week.end.toISOString()}::timestamptz
        AND NOT EXISTS (SELECT 1 FROM mail_opt_outs o WHERE o.guardian_id = g.id)
        AND NOT EXISTS (SELECT 1 FROM mail_outbox m WHERE m.dedupe_key = 'weekly:' || g.id || ':' || s.id || ':' || ${weekKey})
      ORDER BY g.id, gs.created_at`),
  );
}

/** The staff's operations that raise a balance (awards) and that lower one (removals, penalties), as SQL lists. */
const typeList = (types: readonly string[]) =>
  sql.join(
    types.map((type) => sql`${type}`),
    sql`, `,
  );
const AWARD_TYPES = typeList(typesThat(ADMIN_OPERATION_TYPES, 'raises'));
const PENALTY_TYPES = typeList(typesThat(ADMIN_OPERATION_TYPES, 'lowers'));

/**
 * The week's awards and (when the school shows them to families) removals and penalties, by reason. An operation the
 * staff reversed by the time the summary is made was a mistake: it is left out, as its reversal is.
 */
async function movementsOf(db: Db, studentUuid: string, week: { start: Date; end: Date }, penalties: boolean): Promise<Movement[]> {
  return rowsOf<Movement>(
    await db.execute(sql`
      SELECT currency, description, CASE WHEN to_student_id IS NOT NULL THEN 'earned' ELSE 'lost' END AS direction,
        sum(amount) AS amount, count(*) AS times
      FROM ledger_entries e
      WHERE created_at >= ${week.start.toISOString()}::timestamptz AND created_at < ${week.end.toISOString()}::timestamptz
        AND ((to_student_id = ${studentUuid} AND type IN (${AWARD_TYPES}))
          ${penalties ? sql`OR (from_student_id = ${studentUuid} AND type IN (${PENALTY_TYPES}))` : sql``})
        AND NOT EXISTS (SELECT 1 FROM ledger_entries r WHERE r.reverses_entry_id = e.id)
      GROUP BY currency, description, direction
      ORDER BY direction, sum(amount) DESC, description`),
  );
}

/** The message of one child's week, as the guardian reads it. */
export function weeklySummaryBlocks(input: {
  name: string;
  weekLabel: string;
  meritus: number;
  estelecas: number;
  movements: Movement[];
  penaltiesShown: boolean;
  ranking: { position: number; of: number } | null;
  familyUrl: string;
  unsubscribeUrl: string;
}): MailBlock[] {
  const texts = WEEKLY_SUMMARY_TEXTS;
  const line = (movement: Movement) => ({
    label: Number(movement.times) > 1 ? `${movement.description} (${formatNumber(Number(movement.times))}×)` : movement.description,
    value: `${movement.direction === 'earned' ? '+' : '−'}${formatAmount(movement.currency, Number(movement.amount))}`,
  });
  const earned = input.movements.filter((movement) => movement.direction === 'earned');
  const lost = input.movements.filter((movement) => movement.direction === 'lost');
  const blocks: MailBlock[] = [
    { kind: 'paragraph', text: texts.intro(input.name, input.weekLabel) },
    { kind: 'heading', text: texts.balances },
    {
      kind: 'lines',
      lines: [
        { label: 'Méritus', value: formatAmount('meritus', input.meritus) },
        { label: 'Estelecas', value: formatAmount('estelecas', input.estelecas) },
        ...(input.ranking ? [{ label: texts.ranking, value: texts.position(input.ranking.position, input.ranking.of) }] : []),
      ],
    },
    { kind: 'heading', text: texts.earned },
    earned.length > 0 ? { kind: 'lines', lines: earned.map(line) } : { kind: 'paragraph', text: texts.nothingEarned },
  ];
  if (input.penaltiesShown) {
    blocks.push(
      { kind: 'heading', text: texts.lost },
      lost.length > 0 ? { kind: 'lines', lines: lost.map(line) } : { kind: 'paragraph', text: texts.nothingLost },
    );
  }
  blocks.push(
    { kind: 'link', label: texts.open, url: input.familyUrl },
    { kind: 'small', text: texts.why, link: { label: texts.unsubscribe, url: input.unsubscribeUrl } },
  );
  return blocks;
}

/**
 * Queues the summaries of the week that ended before `now` still missing (none when this server sends no email: the
 * caller passes no deps then). Answers how many it queued.
 */
export async function queueWeeklySummaries(deps: WeeklySummaryDeps, now: Date = new Date()): Promise<number> {
  const school = await deps.settings.get();
  const rules: SchoolRules = school.rules;
  const timeZone = school.school.timeZone;
  const week = summaryWeek(timeZone, now);
  const weekKey = week.start.toISOString().slice(0, 10);
  const day = (at: Date) => formatInstant(at, { day: '2-digit', month: '2-digit' }, timeZone);
  const weekLabel = WEEKLY_SUMMARY_TEXTS.week(day(week.start), day(new Date(week.end.getTime() - 1)));
  const familyUrl = new URL(FAMILY_AREA_PATH, deps.publicUrl).toString();
  const privacy = rankingPrivacyOf(rules);
  let queued = 0;
  for (const row of await recipientsOf(deps.db, week, weekKey)) {
    const optOut = await unsubscribeUrls(deps.db, deps.publicUrl, row.guardian_id);
    const [movements, figures] = await Promise.all([
      movementsOf(deps.db, row.student_id, week, rules.familiesSeePenalties),
      rules.familiesSeeRanking ? studentSummary(deps.db, deps.ranking, row.student_id, rules.meritusGoal, privacy, now) : null,
    ]);
    const doc = {
      school: school.school.name,
      title: MAIL_TEXTS.summarySubject(row.name),
      blocks: weeklySummaryBlocks({
        name: row.name,
        weekLabel,
        meritus: row.meritus,
        estelecas: row.estelecas,
        movements,
        penaltiesShown: rules.familiesSeePenalties,
        ranking: figures ? { position: figures.rank.position, of: figures.rank.total } : null,
        familyUrl,
        unsubscribeUrl: optOut.page,
      }),
    };
    const added = await queueMail(deps.db, {
      kind: 'weekly_summary',
      to: row.email,
      subject: doc.title,
      text: renderText(doc),
      html: renderHtml(doc),
      unsubscribeUrl: optOut.oneClick,
      studentUuid: row.student_id,
      guardianId: row.guardian_id,
      dedupeKey: `weekly:${row.guardian_id}:${row.student_id}:${weekKey}`,
    });
    if (added) queued += 1;
  }
  return queued;
}
