import type { Db } from '../../db/client.ts';
import {
  BALANCE_BUCKETS,
  balanceBucketLabel,
  REPORT_TOP_LIMIT,
  type BalanceBucketRow,
  type ReportFigures,
  type RiserRow,
  type TurmaRow,
} from '../../../shared/reports.ts';
import type { ReportScope } from './report-school.ts';
import { NO_SUMS, reversalSums, scopeStudents, sumsAtBounds, tagsInPeriod, type ReversalSums, type Sums } from './reports.queries.ts';
import type { TagKind } from '../../../shared/constants.ts';
import { compareText } from '../../../shared/text-order.ts';

/** The overview's parts, all from one row per student of the scope. */

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);
const oneDecimal = (value: number) => Math.round(value * 10) / 10;

export type StudentRow = {
  id: string;
  student_id: string;
  name: string;
  turma_id: string;
  /** The turma's name. */
  grade: string;
  /** Of the chosen turmas at the end of the period / of the period before. */
  present: boolean;
  present_before: boolean;
  balance_start: number;
  balance_end: number;
  m_awarded: number;
  m_removed: number;
  m_sent: number;
  /** Received in transfers. */
  m_received: number;
  /** Estelecas held at the end of the period. */
  estelecas_end: number;
  e_awarded: number;
  e_removed: number;
  /** Spent in the Loja, less refunds (decision 026). */
  m_spent: number;
  e_spent: number;
  sent_ops: number;
  ops: number;
  m_awarded_before: number;
  m_removed_before: number;
  m_sent_before: number;
  e_awarded_before: number;
  e_removed_before: number;
  m_spent_before: number;
  e_spent_before: number;
  sent_ops_before: number;
  ops_before: number;
};

/**
 * Per student of the chosen turmas: balances at the start and end of the period and what each
 * student received, lost and sent in the period and the one before, as differences of the
 * sums at the bounds. Every figure, the turma table, the balance distribution and the students
 * who rose most come from these rows; stored balances are never read. With an author, what the
 * students received, lost and sent counts only the author's operations (students' transfers have
 * none); balances stay the students' own.
 */
export async function studentTotals(db: Db, scope: ReportScope): Promise<StudentRow[]> {
  const [sums, students, authored] = await Promise.all([
    sumsAtBounds(db, scope),
    scopeStudents(db, scope),
    scope.authorId === null ? undefined : sumsAtBounds(db, scope, scope.authorId),
  ]);
  const balance = (s: Sums) => s.m_awarded - s.m_removed + s.m_in - s.m_out - s.m_spent;
  const estelecas = (s: Sums) => s.e_awarded - s.e_removed + s.e_in - s.e_out - s.e_spent;
  return students.flatMap((student) => {
    const [, start, end] = sums.get(student.id) ?? [NO_SUMS, NO_SUMS, NO_SUMS];
    if (!student.created && end!.ops === 0) return [];
    const flows = (authored ?? sums).get(student.id) ?? [NO_SUMS, NO_SUMS, NO_SUMS];
    const change = (from: number, to: number, column: keyof Sums) => flows[to]![column] - flows[from]![column];
    return [
      {
        id: student.id,
        student_id: student.student_id,
        name: student.name,
        turma_id: student.turma_id,
        grade: student.grade,
        present: student.present === true,
        present_before: student.present_before === true,
        balance_start: balance(start!),
        balance_end: balance(end!),
        m_awarded: change(1, 2, 'm_awarded'),
        m_removed: change(1, 2, 'm_removed'),
        m_sent: change(1, 2, 'm_out'),
        m_received: change(1, 2, 'm_in'),
        estelecas_end: estelecas(end!),
        e_awarded: change(1, 2, 'e_awarded'),
        e_removed: change(1, 2, 'e_removed'),
        m_spent: change(1, 2, 'm_spent'),
        e_spent: change(1, 2, 'e_spent'),
        sent_ops: change(1, 2, 'sent_ops'),
        ops: change(1, 2, 'ops'),
        m_awarded_before: change(0, 1, 'm_awarded'),
        m_removed_before: change(0, 1, 'm_removed'),
        m_sent_before: change(0, 1, 'm_out'),
        e_awarded_before: change(0, 1, 'e_awarded'),
        e_removed_before: change(0, 1, 'e_removed'),
        m_spent_before: change(0, 1, 'm_spent'),
        e_spent_before: change(0, 1, 'e_spent'),
        sent_ops_before: change(0, 1, 'sent_ops'),
        ops_before: change(0, 1, 'ops'),
      },
    ];
  });
}

/** `reversed`: the reversals of the period, their own line; each reversed row has left the figures above on the reversal's date. */
export function figuresOf(rows: StudentRow[], reversed: ReversalSums): ReportFigures {
  const total = (pick: (row: StudentRow) => number) => rows.reduce((sum, row) => sum + pick(row), 0);
  const count = (pick: (row: StudentRow) => boolean) => rows.filter(pick).length;
  const enrolled = { current: count((r) => r.present), previous: count((r) => r.present_before) };
  const participants = { current: count((r) => r.present && r.ops > 0), previous: count((r) => r.present_before && r.ops_before > 0) };
  return {
    meritusAwarded: { current: total((r) => r.m_awarded), previous: total((r) => r.m_awarded_before) },
    meritusRemoved: { current: total((r) => r.m_removed), previous: total((r) => r.m_removed_before) },
    meritusTransferred: { current: total((r) => r.m_sent), previous: total((r) => r.m_sent_before) },
    estelecasAwarded: { current: total((r) => r.e_awarded), previous: total((r) => r.e_awarded_before) },
    estelecasRemoved: { current: total((r) => r.e_removed), previous: total((r) => r.e_removed_before) },
    meritusSpent: { current: total((r) => r.m_spent), previous: total((r) => r.m_spent_before) },
    estelecasSpent: { current: total((r) => r.e_spent), previous: total((r) => r.e_spent_before) },
    meritusReversed: { current: reversed.current.meritus, previous: reversed.previous.meritus },
    estelecasReversed: { current: reversed.current.estelecas, previous: reversed.previous.estelecas },
    activeStudents: {
      current: count((r) => r.present && r.sent_ops > 0),
      previous: count((r) => r.present_before && r.sent_ops_before > 0),
    },
    participation: {
      current: percent(participants.current, enrolled.current),
      previous: percent(participants.previous, enrolled.previous),
    },
    enrolled,
    participants,
  };
}

/** One row per turma of the filter (all of the school's when none is chosen), in the school's order. */
export function turmaRows(rows: StudentRow[], scope: ReportScope): TurmaRow[] {
  const chosen = new Set(scope.turmas?.map((turma) => turma.id));
  const turmas = scope.turmas === null ? scope.school.turmas : scope.school.turmas.filter((turma) => chosen.has(turma.id));
  return turmas.map((turma) => {
    const own = rows.filter((row) => row.turma_id === turma.id);
    const present = own.filter((row) => row.present);
    const students = present.length;
    const balance = present.reduce((sum, row) => sum + row.balance_end, 0);
    const participants = present.filter((row) => row.ops > 0).length;
    return {
      turma: turma.name,
      students,
      awarded: own.reduce((sum, row) => sum + row.m_awarded, 0),
      removed: own.reduce((sum, row) => sum + row.m_removed, 0),
      transferred: own.reduce((sum, row) => sum + row.m_sent, 0),
      spent: own.reduce((sum, row) => sum + row.m_spent, 0),
      estelecasSpent: own.reduce((sum, row) => sum + row.e_spent, 0),
      balance,
      averageBalance: students === 0 ? 0 : oneDecimal(balance / students),
      participants,
      participation: percent(participants, students),
    };
  });
}

export function balanceRows(rows: StudentRow[]): BalanceBucketRow[] {
  const present = rows.filter((row) => row.present);
  return BALANCE_BUCKETS.map((bucket) => ({
    label: balanceBucketLabel(bucket),
    min: bucket.min,
    max: bucket.max,
    students: present.filter((row) => row.balance_end >= bucket.min && (bucket.max === null || row.balance_end <= bucket.max)).length,
  }));
}

/** The students whose Méritus grew most in the period (only those that grew), ties by name. */
export function riserRows(rows: StudentRow[]): RiserRow[] {
  return rows
    .filter((row) => row.present && row.balance_end > row.balance_start)
    .map((row) => ({
      id: row.id,
      studentId: row.student_id,
      name: row.name,
      grade: row.grade,
      start: row.balance_start,
      end: row.balance_end,
      change: row.balance_end - row.balance_start,
    }))
    .sort((a, b) => b.change - a.change || compareText(a.name, b.name))
    .slice(0, REPORT_TOP_LIMIT);
}

/**
 * A line per student of a report's scope (issue 36), with what the screen's figures sum, so the turma report, the
 * workbook's Alunos sheet and a turma's statements list the same students and add up to the same figures.
 */
export type StudentLine = {
  id: string;
  studentId: string;
  name: string;
  turma: string;
  /** No longer enrolled at the period's end (listed for the operations they had in it). */
  left: boolean;
  start: number;
  awarded: number;
  removed: number;
  received: number;
  sent: number;
  spent: number;
  end: number;
  estelecas: number;
  tags: TagKind[];
};

/**
 * Every student of the scope enrolled at the period's end, and every one who left with operations in it, by name; with the
 * scope's figures and turma rows, summed from the same rows (report-overview.ts), so the lines add up to them.
 */
export async function studentLines(
  db: Db,
  scope: ReportScope,
): Promise<{ lines: StudentLine[]; figures: ReportFigures; turmas: TurmaRow[] }> {
  const [rows, reversed, tags] = await Promise.all([studentTotals(db, scope), reversalSums(db, scope), tagsInPeriod(db, scope)]);
  const lines = rows
    .filter((row) => row.present || row.ops !== 0)
    .map((row) => ({
      id: row.id,
      studentId: row.student_id,
      name: row.name,
      turma: row.grade,
      left: !row.present,
      start: row.balance_start,
      awarded: row.m_awarded,
      removed: row.m_removed,
      received: row.m_received,
      sent: row.m_sent,
      spent: row.m_spent,
      end: row.balance_end,
      estelecas: row.estelecas_end,
      tags: tags.get(row.id) ?? [],
    }))
    .sort((a, b) => compareText(a.name, b.name) || compareText(a.studentId, b.studentId));
  return { lines, figures: figuresOf(rows, reversed), turmas: turmaRows(rows, scope) };
}
