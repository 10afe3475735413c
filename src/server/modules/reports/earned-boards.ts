import type { Db } from '../../db/client.ts';
import type { DeliveredEvent, EventBus } from '../../realtime/event-bus.ts';
import type { EarnedBoard, EarnedBoards } from '../../views/earned-board.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import { dateRangeOf } from '../school-year/school-year.service.ts';
import { spanLabel } from '../../../shared/school-year.ts';
import { sumsAtBounds } from './reports.queries.ts';

/** Spans kept at once (the screens ask for this period, the year and a few past ones): the oldest asked is dropped past it. */
const MAX_BOARDS = 24;
/** More changed students than this in one go: reading the whole span once is cheaper than reading them by key. */
const PATCH_LIMIT = 200;

type Kept = {
  from: string;
  to: string;
  /** The span's end (exclusive): an operation after it changes nothing in it. */
  end: Date;
  earned: Map<string, number>;
  version: number;
  changed: Set<string>;
  whole: boolean;
  heard: number;
  applied: number;
  running: Promise<void> | null;
};

/**
 * The boards of Méritus earned per school year or period (GET /api/ranking?by=earned), kept per instance like the
 * ranking (decision 018): read whole once from the day sums (two look-ups per student), then each operation heard has
 * its students read again on the next read of a span still open, once for every reader (decision 019). A closed span
 * never changes: an operation, a reversal included, counts on its own date.
 */
export function createEarnedBoards(db: Db, events: EventBus, settings: SettingsStore): EarnedBoards & { close(): void } {
  const boards = new Map<string, Kept>();

  const read = async (board: Kept, ids: string[] | undefined): Promise<Map<string, number>> => {
    const { timeZone } = (await settings.get()).school;
    const sums = await sumsAtBounds(db, {
      period: { previousFrom: board.from, from: board.from, to: board.to },
      school: { timeZone },
      turmas: null,
      ...(ids === undefined ? {} : { students: ids }),
    });
    const earned = new Map(ids === undefined ? [] : board.earned);
    for (const id of ids ?? []) earned.delete(id);
    for (const [id, [, start, end]] of sums) {
      const value = end!.m_awarded - start!.m_awarded;
      if (value !== 0) earned.set(id, value);
    }
    return earned;
  };

  const step = async (board: Kept) => {
    try {
      const generation = board.heard;
      const ids = [...board.changed];
      const whole = board.whole || ids.length > PATCH_LIMIT;
      board.changed = new Set();
      board.whole = false;
      try {
        board.earned = await read(board, whole ? undefined : ids);
        board.version += 1;
      } catch (error) {
        board.whole = true;
        throw error;
      }
      board.applied = generation;
    } finally {
      board.running = null;
    }
  };

  const hear = (event: DeliveredEvent) => {
    if (event.type === 'resync') {
      for (const board of boards.values()) {
        board.whole = true;
        board.heard += 1;
      }
      return;
    }
    if (event.type !== 'ledger' || event.status !== 'completed') return;
    const now = Date.now();
    for (const board of boards.values()) {
      if (now >= board.end.getTime()) continue;
      if (event.studentUuids === 'all') board.whole = true;
      else for (const id of event.studentUuids) board.changed.add(id);
      board.heard += 1;
    }
  };

  const unsubscribe = events.subscribe(hear);
  return {
    async of(query, now = new Date()): Promise<EarnedBoard> {
      const range = (await dateRangeOf({ db, settings }, query, now))!;
      const key = `${range.from}:${range.to}`;
      let board = boards.get(key);
      if (board) boards.delete(key);
      else
        board = {
          from: range.from,
          to: range.to,
          end: range.end,
          earned: new Map(),
          version: 0,
          changed: new Set(),
          whole: true,
          heard: 1,
          applied: 0,
          running: null,
        };
      // Kept in the order last asked, so the one dropped is the one asked longest ago.
      boards.set(key, board);
      if (boards.size > MAX_BOARDS) boards.delete(boards.keys().next().value!);
      const target = board.heard;
      while (board.applied < target) {
        board.running ??= step(board);
        await board.running;
      }
      return {
        from: range.from,
        to: range.to,
        label: spanLabel(range.year.name, range.period?.name ?? null),
        earned: board.earned,
        version: board.version,
      };
    },
    hear,
    close: unsubscribe,
  };
}
