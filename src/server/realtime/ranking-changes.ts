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

/** What moved between two readings: the students whose place or balance changed, and the positions whose row changed. */
export type RankingChanges = { students: Set<string>; positions: Record<Board, number[]> };

export function changesBetween(before: Positions, after: Positions): RankingChanges {
  const students = new Set<string>();
  const positions = { meritus: new Set<number>(), estelecas: new Set<number>() };
  for (const board of BOARDS) {
    for (const [id, place] of after[board]) {
      const was = before[board].get(id);
      if (was && was.position === place.position && was.balance === place.balance) continue;
      students.add(id);
      positions[board].add(place.position);
      if (was) positions[board].add(was.position);
    }
    for (const [id, was] of before[board]) {
      if (after[board].has(id)) continue;
      students.add(id);
      positions[board].add(was.position);
    }
  }
  return { students, positions: { meritus: [...positions.meritus], estelecas: [...positions.estelecas] } };
}

export function nothingChanged(changes: RankingChanges): boolean {
  return changes.students.size === 0;
}

/**
 * Whether a student sees a change: their own row moved, or a row of the Méritus podium or around their own position,
 * or of the Estelecas top list (ESTELECAS_TOP_LIMIT) the Estelecas screen shows.
 */
export function seesChange(changes: RankingChanges, studentUuid: string, after: Positions): boolean {
  if (changes.students.has(studentUuid)) return true;
  const own = after.meritus.get(studentUuid)?.position;
  const nearOwn = (position: number) => own !== undefined && Math.abs(position - own) <= OWN_WINDOW;
  return (
    changes.positions.meritus.some((position) => position <= PODIUM || nearOwn(position)) ||
    changes.positions.estelecas.some((position) => position <= ESTELECAS_TOP_LIMIT)
  );
}
