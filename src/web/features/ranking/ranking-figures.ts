import type { PublicStudent } from '../../../shared/auth.ts';
import { competitionPositions } from '../../../shared/student-figures.ts';

export type RankedStudent = PublicStudent & {
  /** Competition ranking: ties share a position (1, 2, 2, 4). */
  position: number;
  /** Balance as a share of the highest balance, 0–100, for the bar. */
  share: number;
};

/** The ranking as the screen shows it; the list arrives ordered by Méritus, highest first. */
export function rankStudents(list: readonly PublicStudent[]): RankedStudent[] {
  const sorted = [...list].sort((a, b) => b.meritus - a.meritus);
  const positions = competitionPositions(sorted.map((student) => student.meritus));
  const top = sorted[0]?.meritus ?? 0;
  return sorted.map((student, index) => ({
    ...student,
    position: positions[index]!,
    share: top > 0 ? (student.meritus / top) * 100 : 0,
  }));
}

/** Which rows to render for a window-scrolled list of fixed-height rows. */
export function visibleRange(options: {
  count: number;
  rowHeight: number;
  listTop: number;
  scrollY: number;
  viewportHeight: number;
  overscan: number;
}): { start: number; end: number; firstVisible: number; lastVisible: number } {
  const { count, rowHeight, listTop, scrollY, viewportHeight, overscan } = options;
  const offset = scrollY - listTop;
  const firstVisible = Math.min(count, Math.max(0, Math.floor(offset / rowHeight)));
  const lastVisible = Math.min(count, Math.max(0, Math.ceil((offset + viewportHeight) / rowHeight)));
  return {
    start: Math.max(0, firstVisible - overscan),
    end: Math.min(count, lastVisible + overscan),
    firstVisible,
    lastVisible,
  };
}
