import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { students, studentTags } from '../../db/schema.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import { AppError } from '../../app-error.ts';
import { turmaScopeOf, type Principal, type StudentActor } from '../auth/actor.ts';
import { inScope, type TurmaScope } from '../../views/turma-scope.ts';
import { isOtherStudent, namesWhole, shownTo, viewerOf, type RankingPrivacy, type Viewer } from '../../views/student-privacy.ts';
import { photoAddress, selectStudents, type StudentRow } from '../../views/student-views.ts';
import { competitionPositions } from '../../../shared/student-figures.ts';
import { RANKING_PODIUM } from '../../../shared/constants.ts';
import { firstNameAndInitial, NEIGHBOURS_AROUND, RANKING_PRIVACY_TEXTS } from '../../../shared/ranking-privacy.ts';
import type { DirectoryPage, RankingAnswer, RankingEntry, RankingVisibilityResult, Recipient } from '../../../shared/students.ts';
import { searchStudents } from './student-search.ts';
import type { RankedStudent, RankingSnapshot } from './ranking-store.ts';
import type { EarnedBoard } from '../../views/earned-board.ts';

/** A view of the ranking: its rows placed among themselves, and each student's index in them. */
export type RankingView = { rows: readonly RankedStudent[]; indexOf(studentUuid: string): number | undefined };

/** Rows placed among themselves (the first is 1º), or the snapshot's own when none was left out. */
function placed(snapshot: RankingSnapshot, rows: readonly RankedStudent[]): RankingView {
  if (rows.length === snapshot.rows.length) return snapshot;
  const positions = competitionPositions(rows.map((row) => row.meritus));
  const placedRows = rows.map((row, index) => ({ ...row, position: positions[index]! }));
  const index = new Map(placedRows.map((row, at) => [row.id, at]));
  return { rows: placedRows, indexOf: (studentUuid) => index.get(studentUuid) };
}

/**
 * The ranking by what each current student earned in a school year or period (decision 036): the same students, rows
 * and privacy as the kept ranking, placed by their Méritus earned (ties by name), worked out once per moment and board.
 * A student who arrived late can lead a bimestre.
 */
export function earnedRanking(snapshot: RankingSnapshot, board: EarnedBoard): RankingSnapshot {
  return snapshot.memo(`earned:${board.from}:${board.to}:${board.version}`, () => {
    const rows = snapshot.rows
      .map((row) => ({ ...row, meritus: board.earned.get(row.id) ?? 0 }))
      .sort((a, b) => b.meritus - a.meritus || snapshot.compareNames(a.id, b.id));
    const positions = competitionPositions(rows.map((row) => row.meritus));
    const placedRows = rows.map((row, index) => ({ ...row, position: positions[index]! }));
    const index = new Map(placedRows.map((row, at) => [row.id, at]));
    const memos = new Map<string, unknown>();
    return {
      rows: placedRows,
      indexOf: (studentUuid) => index.get(studentUuid),
      turmaOf: snapshot.turmaOf,
      photoShared: snapshot.photoShared,
      compareNames: snapshot.compareNames,
      memo<T>(key: string, compute: () => T): T {
        if (!memos.has(key)) memos.set(key, compute());
        return memos.get(key) as T;
      },
    };
  });
}

/**
 * The ranking a viewer sees, worked out once per moment for all who share it (snapshot.memo): the students of the
 * turmas asked for (null: every turma), without those hidden from the viewer (decision 029) — the viewer themself is
 * always in their own view, placed among the others; nobody's position counts a student the viewer does not see.
 */
export function rankingViewOf(snapshot: RankingSnapshot, viewer: Viewer, privacy: RankingPrivacy, turmas: TurmaScope = null): RankingView {
  const hiding = viewer.kind !== 'staff' && privacy.hidingAllowed;
  const turmaKey = turmas === null ? '*' : [...turmas].sort().join(',');
  const shared = snapshot.memo(`view:${hiding}:${turmaKey}`, () =>
    placed(
      snapshot,
      snapshot.rows.filter((row) => (turmas === null || inScope(turmas, snapshot.turmaOf(row.id) ?? '')) && !(hiding && row.rankingHidden)),
    ),
  );
  if (viewer.kind !== 'student' || shared.indexOf(viewer.id) !== undefined) return shared;
  const own = snapshot.indexOf(viewer.id);
  if (own === undefined || !hiding || !snapshot.rows[own]!.rankingHidden) return shared;
  // A hidden student sees themself among the others: their row joins the shared view at their place.
  const me = snapshot.rows[own]!;
  const rows = [...shared.rows];
  const at = rows.findIndex((row) => snapshot.indexOf(row.id)! > own);
  rows.splice(at === -1 ? rows.length : at, 0, me);
  return placed(snapshot, rows);
}

/** The turmas an answer covers: the one asked for (a student: only their own; a teacher: one of theirs), else the asker's. */
function turmasAsked(snapshot: RankingSnapshot, asker: Principal, turma: string | undefined, known: readonly { id: string }[]): TurmaScope {
  const scope = turmaScopeOf(asker);
  if (turma === undefined) return scope;
  if (!known.some((candidate) => candidate.id === turma)) throw new AppError('turma_not_found', { status: 404 });
  if (asker.role === 'student' && snapshot.turmaOf(asker.id) !== turma) throw new AppError('ranking_turma_not_own');
  if (!inScope(scope, turma)) throw new AppError('turma_outside_turmas');
  return [turma];
}

/**
 * 'Só vizinhos': the podium, then the student's own row with NEIGHBOURS_AROUND rows above and below; where rows were
 * left out between them (the index in the rows kept) and whether any were below.
 */
function neighboursOf(
  rows: readonly RankedStudent[],
  myIndex: number | undefined,
): { rows: RankedStudent[]; gapAt: number | null; moreBelow: boolean } {
  const kept = new Set<number>();
  for (let index = 0; index < Math.min(RANKING_PODIUM, rows.length); index += 1) kept.add(index);
  if (myIndex !== undefined) {
    const last = Math.min(rows.length - 1, myIndex + NEIGHBOURS_AROUND);
    for (let index = Math.max(0, myIndex - NEIGHBOURS_AROUND); index <= last; index += 1) kept.add(index);
  }
  const indexes = [...kept].sort((a, b) => a - b);
  const gap = indexes.findIndex((index, at) => at > 0 && index > indexes[at - 1]! + 1);
  return {
    rows: indexes.map((index) => rows[index]!),
    gapAt: gap === -1 ? null : gap,
    moreBelow: (indexes.at(-1) ?? -1) < rows.length - 1,
  };
}

/**
 * One answer of the ranking (rankingQuery): the podium, the asking student's row, and the page asked for, or with
 * `around: 'me'` the page that holds that row. A page past the end has no rows; staff have no row of their own. Staff
 * see everyone whole (a teacher, their turmas); a student sees the others as the school's privacy rules say.
 */
export function rankingPage(
  ranking: RankingSnapshot,
  asker: Principal,
  privacy: RankingPrivacy,
  knownTurmas: readonly { id: string }[],
  query: { page?: number | undefined; size: number; around?: 'me' | undefined; turma?: string | undefined },
): RankingAnswer {
  // A family sees their child's position in the family area (as the school allows), not the school's list.
  if (asker.role === 'guardian') throw new AppError('forbidden');
  if (query.around && asker.role !== 'student') throw new AppError('ranking_no_own_row');
  const viewer = viewerOf(asker);
  const view = rankingViewOf(ranking, viewer, privacy, turmasAsked(ranking, asker, query.turma, knownTurmas));
  const viewIndex = viewer.kind === 'student' ? view.indexOf(viewer.id) : undefined;
  const mode = viewer.kind === 'staff' ? 'full' : privacy.mode;
  const neighbours = mode === 'neighbours' ? neighboursOf(view.rows, viewIndex) : undefined;
  const rows = neighbours?.rows ?? view.rows;
  const myIndex = viewIndex === undefined ? undefined : rows.indexOf(view.rows[viewIndex]!);
  const page = query.around ? Math.floor((myIndex ?? 0) / query.size) : (query.page ?? 0);
  const from = page * query.size;
  // A row's number in 'Anônimo' is its place in the whole list the student sees, not anything of the student's own.
  const entry = (row: RankedStudent, index: number): RankingEntry => {
    const whole = !isOtherStudent(viewer, row.id) || namesWhole(viewer, privacy);
    return {
      ...shownTo(viewer, privacy, { ...row, photoShared: ranking.photoShared(row.id) }, RANKING_PRIVACY_TEXTS.anonymousRow(index + 1)),
      meritus: row.meritus,
      estelecas: whole ? row.estelecas : null,
      position: row.position,
      ...(viewer.kind === 'staff' ? { hidden: privacy.hidingAllowed && row.rankingHidden } : {}),
    };
  };
  return {
    mode,
    total: rows.length,
    ranked: view.rows.length,
    podium: rows.slice(0, RANKING_PODIUM).map(entry),
    me: myIndex === undefined ? null : { ...entry(rows[myIndex]!, myIndex), index: myIndex },
    page,
    size: query.size,
    entries: rows.slice(from, from + query.size).map((row, offset) => entry(row, from + offset)),
    ...(neighbours ? { neighbours: { gapAt: neighbours.gapAt, moreBelow: neighbours.moreBelow } } : {}),
  };
}

/** The recipient search's row of a student, as the school's mode shows them (with the id the transfer names). */
function recipientOf(privacy: RankingPrivacy, row: StudentRow, byMatricula: boolean): Recipient {
  // Another student's photo only with the image consent (decision 030).
  const whole = {
    id: row.id,
    studentId: row.studentId,
    name: row.name,
    grade: row.grade,
    photo: row.imageConsent ? photoAddress(row) : null,
  };
  if (privacy.mode === 'full' || privacy.mode === 'neighbours') return whole;
  const name =
    byMatricula && privacy.mode === 'anonymous' ? RANKING_PRIVACY_TEXTS.recipientByMatricula(row.studentId) : firstNameAndInitial(row.name);
  return { ...whole, name, photo: null };
}

/**
 * A page of the students a student can send to (current students except themself), searched by name, matrícula or
 * turma, as the school's privacy rules show them (decision 029): those who chose not to appear are left out of the
 * browsing, and in 'Anônimo' nobody is browsed; a matrícula typed exactly still finds its student, for a transfer.
 */
export async function transferDirectory(
  db: Db,
  selfId: string,
  privacy: RankingPrivacy,
  { q, page, size }: { q?: string | undefined; page: number; size: number },
): Promise<DirectoryPage> {
  const typed = q?.trim();
  const [exact] = typed
    ? await selectStudents(db)
        .where(and(eq(students.studentId, typed), isNull(students.deletedAt), ne(students.id, selfId)))
        .limit(1)
    : [];
  if (exact && (privacy.mode === 'anonymous' || (privacy.hidingAllowed && exact.rankingHidden))) {
    return { items: page === 1 ? [recipientOf(privacy, exact, true)] : [], total: 1, page, size };
  }
  if (privacy.mode === 'anonymous') return { items: [], total: 0, page, size };
  const found = await searchStudents(
    db,
    {
      q,
      exceptId: selfId,
      byEmail: false,
      exceptHidden: privacy.hidingAllowed,
      shownName: privacy.mode === 'firstNameInitial' ? firstNameAndInitial : undefined,
    },
    { page, size },
  );
  return { items: found.rows.map((row) => recipientOf(privacy, row, false)), total: found.total, page, size };
}

/**
 * 'Não aparecer no ranking' (Meu Perfil): the student's choice, refused while the school does not allow hiding (appearing
 * again is always allowed). The ranking reads the student again by key and the next tick tells only those whose rows
 * moved; the tags' readers are told when the student holds a tag.
 */
export async function setRankingVisibility(
  deps: { db: Db; events: EventBus; settings: SettingsStore },
  student: StudentActor,
  hidden: boolean,
): Promise<RankingVisibilityResult> {
  if (hidden && !(await deps.settings.get()).rules.rankingHideAllowed) throw new AppError('ranking_hide_not_allowed');
  return deps.db.transaction(async (tx) => {
    const [changed] = await tx
      .update(students)
      .set({ rankingHidden: hidden })
      .where(and(eq(students.id, student.id), isNull(students.deletedAt)))
      .returning({ id: students.id });
    if (!changed) throw new AppError('student_not_found');
    await deps.events.publish(tx, { type: 'ranking_visibility', studentUuids: [student.id] });
    const [tagged] = await tx
      .select({ id: studentTags.id })
      .from(studentTags)
      .where(and(eq(studentTags.studentUuid, student.id), gt(studentTags.expiresAt, new Date())))
      .limit(1);
    if (tagged) await deps.events.publish(tx, { type: 'tags', studentUuids: [student.id] });
    return { hidden, message: hidden ? RANKING_PRIVACY_TEXTS.hidden : RANKING_PRIVACY_TEXTS.shown };
  });
}
