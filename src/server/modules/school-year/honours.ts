import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { awardIs } from '../../db/ledger-direction.ts';
import { HALL_OF_FAME_TOP } from '../../../shared/hall-of-fame-texts.ts';

/**
 * Writes a closing year's honours (the Hall da Fama, decision 035), in the rollover's transaction before anyone moves:
 * among the students current at the closing (those graduating included), each in the turma they are in then,
 * - 'meritus' / 'estelecas': what they earned in the year's days ([start, end)): the staff's awards they received, less
 *   what was reversed of them in those days — the reports' 'awarded' (ledger_counted, decision 025); transfers received
 *   and the Loja's refunds are not earned;
 * - 'tags': the tags the staff gave them in those days (each 'tag.add' of the audit log: extending a running tag gives it
 *   again), less the ones taken back ('tag.remove');
 * - 'turma': the first by Méritus earned in each turma;
 * - 'goals': the turma whose students contributed to most of the Loja's turma goals reached in those days and not given
 *   back (a goal open to several turmas counts for each turma that contributed to it).
 * The school-wide lists keep the first HALL_OF_FAME_TOP places; places are shared by ties (1º, 1º, 3º), so every student
 * tied with the last place stays. Only figures above zero are honoured.
 */
export async function recordHonours(tx: DbOrTx, yearId: string, span: { start: Date; end: Date }): Promise<void> {
  const { start, end } = span;
  await tx.execute(sql`
    WITH eligible AS (
      SELECT s.id, t.name AS turma_name FROM students s JOIN turmas t ON t.id = s.turma_id WHERE s.deleted_at IS NULL
    ), earned AS (
      SELECT e.to_student_id AS id,
             coalesce(sum(e.sign * e.amount) FILTER (WHERE e.currency = 'meritus'), 0) AS meritus,
             coalesce(sum(e.sign * e.amount) FILTER (WHERE e.currency = 'estelecas'), 0) AS estelecas
        FROM ledger_counted e
       WHERE e.created_at >= ${start} AND e.created_at < ${end} AND e.to_student_id IS NOT NULL AND ${awardIs(sql`e.type`, 'raises')}
       GROUP BY 1
    ), tagged AS (
      SELECT details->>'studentUuid' AS id, sum(CASE action WHEN 'tag.add' THEN 1 ELSE -1 END) AS tags
        FROM audit_log
       WHERE action IN ('tag.add', 'tag.remove') AND at >= ${start} AND at < ${end}
       GROUP BY 1
    ), figures AS (
      SELECT s.id, s.turma_name, coalesce(x.meritus, 0) AS meritus, coalesce(x.estelecas, 0) AS estelecas, coalesce(g.tags, 0) AS tags
        FROM eligible s LEFT JOIN earned x ON x.id = s.id LEFT JOIN tagged g ON g.id = s.id::text
    ), goals AS (
      SELECT s.turma_name, count(DISTINCT p.item_id) AS goals
        FROM store_goal_progress p
        JOIN store_goal_contributions c ON c.item_id = p.item_id
        JOIN eligible s ON s.id = c.student_id
       WHERE p.reached_at >= ${start} AND p.reached_at < ${end} AND p.refunded_at IS NULL
       GROUP BY 1
    ), honours AS (
      SELECT 'meritus' AS category, rank() OVER (ORDER BY meritus DESC) AS place, id, turma_name, meritus AS amount
        FROM figures WHERE meritus > 0
      UNION ALL
      SELECT 'estelecas', rank() OVER (ORDER BY estelecas DESC), id, turma_name, estelecas FROM figures WHERE estelecas > 0
      UNION ALL
      SELECT 'tags', rank() OVER (ORDER BY tags DESC), id, turma_name, tags FROM figures WHERE tags > 0
      UNION ALL
      SELECT 'turma', rank() OVER (PARTITION BY turma_name ORDER BY meritus DESC), id, turma_name, meritus FROM figures WHERE meritus > 0
      UNION ALL
      SELECT 'goals', rank() OVER (ORDER BY goals DESC), NULL, turma_name, goals FROM goals
    )
    INSERT INTO hall_of_fame_honours (year_id, category, place, student_id, turma_name, amount)
    SELECT ${yearId}::uuid, category, place::smallint, id, turma_name, amount::integer
      FROM honours
     WHERE place <= CASE WHEN category IN ('turma', 'goals') THEN 1 ELSE ${HALL_OF_FAME_TOP} END`);
}
