import type { DeliveredEvent } from '../realtime/event-bus.ts';

/**
 * What each current or past student earned in a school year or period: the Méritus awarded in its days, less the
 * awards taken back (decision 036). Kept by the reports module (`earned-boards.ts`, from the day sums of decision 011)
 * and ranked by the students module, which cannot import the reports.
 */
export type EarnedBoard = {
  from: string;
  to: string;
  /** '3º bimestre de 2026', 'Ano letivo 2025'. */
  label: string;
  /** Each student's Méritus earned in the span (absent: none). Replaced, never edited, when it changes. */
  earned: ReadonlyMap<string, number>;
  /** Changes whenever `earned` does: part of the key of what is worked out from it. */
  version: number;
};

export type EarnedBoards = {
  /** The board of `year=`/`period=` (dateRangeOf), brought up to date with every change heard before the call. */
  of(query: { year?: string | undefined; period?: string | undefined }, now?: Date): Promise<EarnedBoard>;
  /** A change committed or being committed: the open boards read its students again on their next read. */
  hear(event: DeliveredEvent): void;
};
