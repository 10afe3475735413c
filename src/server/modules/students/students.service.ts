import type { Db } from '../../db/client.ts';
import { AppError } from '../../app-error.ts';
import { turmaScopeOf, type Principal } from '../auth/actor.ts';
import { inScope } from '../../views/turma-scope.ts';
import { competitionPositions } from '../../../shared/student-figures.ts';
import type { PublicStudent } from '../../../shared/auth.ts';
import { RANKING_PODIUM } from '../../../shared/constants.ts';
import type { DirectoryPage, RankingAnswer, RankingEntry } from '../../../shared/students.ts';
import { searchStudents } from './student-search.ts';
import { activeTagsByStudent, toPublicStudent, type PhotoViewer, type StudentRow } from '../../views/student-views.ts';
import type { RankingSnapshot } from './ranking-store.ts';

async function withTags(db: Db, rows: StudentRow[], viewer: PhotoViewer): Promise<PublicStudent[]> {
  const tags = await activeTagsByStudent(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toPublicStudent(row, tags.get(row.id) ?? [], viewer));
}

/**
 * A teacher's ranking: the rows of their turmas, placed among themselves (the first of their turmas is 1º). Filtered
 * in memory from the kept ranking, with no database work; the coordination and the students see the whole school.
 */
function rowsSeenBy(ranking: RankingSnapshot, asker: Principal): readonly RankingEntry[] {
  const scope = turmaScopeOf(asker);
  if (scope === null) return ranking.rows;
  const rows = ranking.rows.filter((row) => inScope(scope, ranking.turmaOf(row.id) ?? ''));
  const positions = competitionPositions(rows.map((row) => row.meritus));
  return rows.map((row, index) => ({ ...row, position: positions[index]! }));
}

/**
 * One answer of the ranking (rankingQuery): the podium, the asking student's row, and the page asked for, or with
 * `around: 'me'` the page that holds that row. A page past the end has no rows; staff have no row of their own.
 */
export function rankingPage(
  ranking: RankingSnapshot,
  asker: Principal,
  query: { page?: number | undefined; size: number; around?: 'me' | undefined },
): RankingAnswer {
  if (query.around && asker.role !== 'student') throw new AppError('ranking_no_own_row');
  const rows = rowsSeenBy(ranking, asker);
  // Another student's photo reaches a student only with the image consent (decision 030): the rows answered, not all.
  const seen = (row: RankingEntry): RankingEntry =>
    asker.role !== 'student' || row.id === asker.id || ranking.photoShared(row.id) || row.photo === null ? row : { ...row, photo: null };
  const myIndex = asker.role === 'student' ? ranking.indexOf(asker.id) : undefined;
  const page = query.around ? Math.floor((myIndex ?? 0) / query.size) : (query.page ?? 0);
  const from = page * query.size;
  return {
    total: rows.length,
    podium: rows.slice(0, RANKING_PODIUM).map(seen),
    me: myIndex === undefined ? null : { ...rows[myIndex]!, index: myIndex },
    page,
    size: query.size,
    entries: rows.slice(from, from + query.size).map(seen),
  };
}

/** A page of the students a student can send to (current students except themself), searched by name, matrícula or turma. */
export async function transferDirectory(
  db: Db,
  selfId: string,
  { q, page, size }: { q?: string | undefined; page: number; size: number },
): Promise<DirectoryPage> {
  const found = await searchStudents(db, { q, exceptId: selfId, byEmail: false }, { page, size });
  return { items: await withTags(db, found.rows, { role: 'student', id: selfId }), total: found.total, page, size };
}
