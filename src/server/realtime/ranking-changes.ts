import { ESTELECAS_TOP_LIMIT } from '../../shared/constants.ts';
import type { RankingEvent } from '../../shared/live-events.ts';
/** One current student's balances: what both boards order by; `hidden`: left out of the other students' boards (decision 029). */
export type Standing = { id: string; meritus: number; estelecas: number; hidden?: boolean | undefined };

/** The podium every ranking screen shows. */
const PODIUM = 3;
/**
 * The rows around their own that a student sees: the ranking screen opens on them and the dashboard names the position.
 * A change further away is not worth a read of theirs.
 */
export const OWN_WINDOW = 10;

type Board = 'meritus' | 'estelecas';
const BOARDS: readonly Board[] = ['meritus', 'estelecas'];

/** Where each student stands on a board: the position (ties share one) and the balance shown beside it. */
type Place = { position: number; balance: number };
/**
 * The boards the students see (hidden students left out), and where each hidden student stands in their own view:
 * among the others, as if they were the only one shown (rankingViewOf).
 */
export type Positions = Record<Board, Map<string, Place>> & { hidden: Map<string, Place> };

function placesOn(standings: readonly Standing[], board: Board): Map<string, Place> {
  const sorted = [...standings].sort((a, b) => b[board] - a[board]);
  const places = new Map<string, Place>();
  sorted.forEach((standing, index) => {
    const previous = sorted[index - 1];
    const position = previous && previous[board] === standing[board] ? places.get(previous.id)!.position : index + 1;
    places.set(standing.id, { position, balance: standing[board] });
  });
  return places;
}

export function positionsOf(standings: readonly Standing[]): Positions {
  const shown = standings.filter((standing) => !standing.hidden);
  const meritus = placesOn(shown, 'meritus');
  const balances = shown.map((standing) => standing.meritus).sort((a, b) => b - a);
  const hidden = new Map<string, Place>();
  for (const standing of standings) {
    if (!standing.hidden) continue;
    // One more than the shown students with more (balances are highest first).
    let low = 0;
    let high = balances.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (balances[middle]! > standing.meritus) low = middle + 1;
      else high = middle;
    }
    hidden.set(standing.id, { position: low + 1, balance: standing.meritus });
  }
  return { meritus, estelecas: placesOn(shown, 'estelecas'), hidden };
}

/**
 * What moved between two readings, on each board: the students whose place or balance changed (a hidden student's in
 * their own view too), and the positions whose row changed.
 */
export type RankingChanges = { students: Record<Board, Set<string>>; positions: Record<Board, number[]> };

export function changesBetween(before: Positions, after: Positions): RankingChanges {
  const changes: RankingChanges = { students: { meritus: new Set(), estelecas: new Set() }, positions: { meritus: [], estelecas: [] } };
  for (const board of BOARDS) {
    const moved = changes.students[board];
    const positions = new Set<number>();
    for (const [id, place] of after[board]) {
      const was = before[board].get(id);
      if (was && was.position === place.position && was.balance === place.balance) continue;
      moved.add(id);
      positions.add(place.position);
      if (was) positions.add(was.position);
    }
    for (const [id, was] of before[board]) {
      if (after[board].has(id)) continue;
      moved.add(id);
      positions.add(was.position);
    }
    changes.positions[board] = [...positions];
  }
  // A hidden student's own place moves nobody else's rows.
  for (const [id, place] of after.hidden) {
    const was = before.hidden.get(id);
    if (!was || was.position !== place.position || was.balance !== place.balance) changes.students.meritus.add(id);
  }
  return changes;
}

export function nothingChanged(changes: RankingChanges): boolean {
  return BOARDS.every((board) => changes.students[board].size === 0);
}

/**
 * What a student sees of a change, as the ranking event tells them (RankingEvent), or null when they see none of it:
 * rows of the Méritus podium or within OWN_WINDOW of their own, rows of the Estelecas top list (ESTELECAS_TOP_LIMIT),
 * and their own Méritus position when it moved.
 */
export function changeSeenBy(changes: RankingChanges, studentUuid: string, after: Positions): RankingEvent | null {
  const hidden = after.hidden.get(studentUuid);
  const place = after.meritus.get(studentUuid) ?? hidden;
  const nearOwn = (changed: number) => place !== undefined && Math.abs(changed - place.position) <= OWN_WINDOW;
  const ownMoved = changes.students.meritus.has(studentUuid);
  const boards: RankingEvent['boards'] = [];
  if (ownMoved || changes.positions.meritus.some((changed) => changed <= PODIUM || nearOwn(changed))) boards.push('meritus');
  if (changes.students.estelecas.has(studentUuid) || changes.positions.estelecas.some((changed) => changed <= ESTELECAS_TOP_LIMIT)) {
    boards.push('estelecas');
  }
  if (boards.length === 0) return null;
  const total = after.meritus.size + (hidden ? 1 : 0);
  return { type: 'ranking', boards, own: ownMoved && place ? { position: place.position, total } : null };
}
