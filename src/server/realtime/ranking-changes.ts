import { ESTELECAS_TOP_LIMIT } from '../../shared/constants.ts';
import type { RankingEvent } from '../../shared/live-events.ts';
/** One current student's balances: what both boards order by. */
export type Standing = { id: string; meritus: number; estelecas: number };

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
export type Positions = Record<Board, Map<string, Place>>;

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
  return { meritus: placesOn(standings, 'meritus'), estelecas: placesOn(standings, 'estelecas') };
}

/** What moved between two readings, on each board: the students whose place or balance changed, and the positions whose row changed. */
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
  const place = after.meritus.get(studentUuid);
  const nearOwn = (changed: number) => place !== undefined && Math.abs(changed - place.position) <= OWN_WINDOW;
  const ownMoved = changes.students.meritus.has(studentUuid);
  const boards: RankingEvent['boards'] = [];
  if (ownMoved || changes.positions.meritus.some((changed) => changed <= PODIUM || nearOwn(changed))) boards.push('meritus');
  if (changes.students.estelecas.has(studentUuid) || changes.positions.estelecas.some((changed) => changed <= ESTELECAS_TOP_LIMIT)) {
    boards.push('estelecas');
  }
  if (boards.length === 0) return null;
  return { type: 'ranking', boards, own: ownMoved && place ? { position: place.position, total: after.meritus.size } : null };
}
