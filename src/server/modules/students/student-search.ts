import { and, asc, count, eq, gt, inArray, isNull, ne, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { students, turmas } from '../../db/schema.ts';
import { nameSortKey, selectStudents, type StudentRow } from '../../views/student-views.ts';
import { turmaInScope, type TurmaScope } from '../../views/turma-scope.ts';
import { queryWords, studentMatcher } from '../../../shared/student-match.ts';

export type StudentSearch = {
  q?: string | undefined;
  /** A turma's name: only its students. */
  turma?: string | undefined;
  /** Only students holding Estelecas. */
  withEstelecas?: boolean | undefined;
  /** Left out (the student searching for someone to send to). */
  exceptId?: string | undefined;
  /** Whether the email is searched too: staff only; a student must not learn a classmate's email by probing it. */
  byEmail: boolean;
  /** The turmas a teacher sees (turmaScopeOf); every turma when absent. */
  scope?: TurmaScope | undefined;
  /** Left out: students who chose 'Não aparecer no ranking' (another student browsing, while the school allows it). */
  exceptHidden?: boolean | undefined;
  /** The names as the searcher sees them ('Ana S.'): the words match those, so a search cannot probe a name not shown. */
  shownName?: ((name: string) => string) | undefined;
};

export type StudentSearchPage = { rows: StudentRow[]; total: number };

/** The list's one order, the same with or without a search, so pages neither repeat nor skip a student. */
const ORDER = [asc(nameSortKey), asc(students.studentId), asc(students.id)];

function conditionsOf(search: StudentSearch): SQL[] {
  const conditions: SQL[] = [isNull(students.deletedAt), turmaInScope(students.turmaId, search.scope ?? null)];
  if (search.turma) conditions.push(eq(turmas.name, search.turma));
  if (search.withEstelecas) conditions.push(gt(students.estelecas, 0));
  if (search.exceptId) conditions.push(ne(students.id, search.exceptId));
  if (search.exceptHidden) conditions.push(eq(students.rankingHidden, false));
  return conditions;
}

/**
 * A page of the current students matching a search. Without words the database pages. With words the server applies
 * the app's one search rule (shared/student-match, the rule the screens used before) to the few columns it reads of
 * each current student, then loads the page's rows whole: one rule, never a second copy in SQL that could disagree.
 * The words are letters and digits only (the rule splits on everything else), so '%' or '_' match nothing special.
 */
export async function searchStudents(
  db: DbOrTx,
  search: StudentSearch,
  { page, size }: { page: number; size: number },
): Promise<StudentSearchPage> {
  const where = and(...conditionsOf(search));
  const offset = (page - 1) * size;
  const words = queryWords(search.q ?? '');
  if (words.length === 0) {
    const [counted] = await db.select({ total: count() }).from(students).innerJoin(turmas, eq(turmas.id, students.turmaId)).where(where);
    const rows = await selectStudents(db)
      .where(where)
      .orderBy(...ORDER)
      .limit(size)
      .offset(offset);
    return { rows, total: counted?.total ?? 0 };
  }

  const candidates = await db
    .select({ id: students.id, name: students.name, studentId: students.studentId, grade: turmas.name, email: students.email })
    .from(students)
    .innerJoin(turmas, eq(turmas.id, students.turmaId))
    .where(where)
    .orderBy(...ORDER);
  const { shownName } = search;
  const seen = candidates.map((candidate) => ({
    ...candidate,
    name: shownName ? shownName(candidate.name) : candidate.name,
    email: search.byEmail ? candidate.email : null,
  }));
  const matched = studentMatcher(seen)(search.q ?? '');
  const ids = matched.slice(offset, offset + size).map((candidate) => candidate.id);
  if (ids.length === 0) return { rows: [], total: matched.length };
  const byId = new Map((await selectStudents(db).where(inArray(students.id, ids))).map((row) => [row.id, row]));
  return { rows: ids.flatMap((id) => byId.get(id) ?? []), total: matched.length };
}

/** How many current students the school has (of the scope's turmas). */
export async function currentStudentCount(db: DbOrTx, scope: TurmaScope = null): Promise<number> {
  const [counted] = await db
    .select({ total: count() })
    .from(students)
    .where(and(isNull(students.deletedAt), turmaInScope(students.turmaId, scope)));
  return counted?.total ?? 0;
}
