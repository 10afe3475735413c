import { ESTELECAS_TOP_LIMIT } from '../../shared/constants.ts';
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
 * What a student sees of a change: nothing, or rows of the boards (the Méritus podium, a row within OWN_WINDOW of
 * their own, the Estelecas top list of ESTELECAS_TOP_LIMIT), and whether their own Méritus place is among them (the
 * position their summary shows).
 */
export function changeSeenBy(changes: RankingChanges, studentUuid: string, after: Positions): { seen: boolean; own: boolean } {
  const own = changes.students.meritus.has(studentUuid);
  const position = after.meritus.get(studentUuid)?.position;
  const nearOwn = (changed: number) => position !== undefined && Math.abs(changed - position) <= OWN_WINDOW;
  const seen =
    own ||
    changes.students.estelecas.has(studentUuid) ||
    changes.positions.meritus.some((changed) => changed <= PODIUM || nearOwn(changed)) ||
    changes.positions.estelecas.some((changed) => changed <= ESTELECAS_TOP_LIMIT);
  return { seen, own };
}
