import { sql, type Column, type SQL } from 'drizzle-orm';
import { students } from '../db/schema.ts';
import { AppError } from '../app-error.ts';

/*
 * What a member of the staff may see and act on (issue 34): a teacher, the students of their turmas; the coordination,
 * everyone. The scope comes from `turmaScopeOf(actor)` (modules/auth/actor.ts): null for every turma, or a teacher's
 * turma ids (none: nobody). Every read and write that a teacher may reach narrows itself with these, never with a copy.
 */

/** Every turma (null), or these turmas only (a teacher's; empty: none). */
export type TurmaScope = readonly string[] | null;

/** The condition "this turma id is in the scope", on a turma column or SQL expression: TRUE for every turma, FALSE for none. */
export function turmaInScope(turmaId: Column | SQL, scope: TurmaScope): SQL {
  if (scope === null) return sql`TRUE`;
  if (scope.length === 0) return sql`FALSE`;
  return sql`${turmaId} IN (${sql.join(
    scope.map((id) => sql`${id}`),
    sql`, `,
  )})`;
}

/** The condition "this student (a column or expression holding a student's row id) is of a turma in the scope". */
export function studentInScope(studentId: Column | SQL, scope: TurmaScope): SQL {
  if (scope === null) return sql`TRUE`;
  return sql`${studentId} IN (SELECT ${students.id} FROM ${students} WHERE ${turmaInScope(students.turmaId, scope)})`;
}

/** The condition "this ledger row (or attempt) names a student of the scope", on either side: TRUE for every turma. */
export function eitherStudentInScope(fromStudentId: Column | SQL, toStudentId: Column | SQL, scope: TurmaScope): SQL {
  if (scope === null) return sql`TRUE`;
  return sql`(${studentInScope(fromStudentId, scope)} OR ${studentInScope(toStudentId, scope)})`;
}

/** Whether a turma is in the scope. */
export function inScope(scope: TurmaScope, turmaId: string): boolean {
  return scope === null || scope.includes(turmaId);
}

/** Refuses to act on a student outside the scope: the teacher is told the student is not of their turmas. */
export function assertStudentInScope(scope: TurmaScope, student: { turmaId: string }): void {
  if (!inScope(scope, student.turmaId)) throw new AppError('student_outside_turmas');
}
