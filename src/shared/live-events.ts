import type { LiveOperation, OperationResult } from './ledger.ts';

/** A student's balances as an operation left them. */
export type StudentBalances = OperationResult['balances'];

/**
 * What the server pushes over /api/events (decision 019). An event reaches only the screens it changes: a student hears
 * of their own operations at once, and of the ranking only when a position they see moved; staff get each operation's
 * line of the live feed, and the figures that many operations move at most once a tick (LIVE_TICK_MS).
 */
export type ClientEvent =
  | { type: 'balance'; balances: StudentBalances } // the signed-in student's balances (as they are now) or history changed
  | RankingEvent // coalesced: a row this user sees changed
  | { type: 'tags'; mine: boolean } // coalesced: weekly tags or likes changed (mine: a tag of the signed-in student)
  | { type: 'students' } // coalesced: students were added, edited or removed
  | { type: 'operations'; operations: LiveOperation[] | null } // staff: new lines of the live feed (null: too many to carry, read it again)
  | { type: 'figures' } // staff, coalesced: operations changed the dashboard, reports and lists
  | { type: 'notice'; message: string } // a student's own news to show as a toast (a turma goal's contributions given back)
  | { type: 'store' } // the Loja: the student's own orders changed (at once) or their catalogue (coalesced); staff: the order queue of their turmas (coalesced)
  | { type: 'family' } // a guardian: the balances, tags or orders of one of their children changed (at once)
  | { type: 'settings' } // the school's settings changed (name, time zone, rules, turmas)
  | { type: 'refetch' }; // events may have been missed (the server lost its database connection for a while): reload everything

/**
 * Rows a user sees moved: on the boards named (the Méritus podium and the rows around the student's own; the Estelecas
 * top list), and, when the student's own Méritus position is among them, that position among `total` students, which
 * the screens show without reading their summary again.
 */
export type RankingEvent = {
  type: 'ranking';
  boards: ('meritus' | 'estelecas')[];
  own: { position: number; total: number } | null;
};

/** How often coalesced events go out at most: a screen hears of the ranking or the figures once per tick, however many operations. */
export const LIVE_TICK_MS = 3_000;

/** The live feed's lines an 'operations' event carries at most; past it the event says to read the feed again. */
export const MAX_PUSHED_OPERATIONS = 100;

/**
 * The stream's first message, once the server listens for the client. The page's first reads may have been answered
 * before that: `sinceLastEventMs` (how long ago the server heard the last event this user is told of, null if none
 * since it started) tells the page whether one of them can have missed an event.
 */
export type ReadyEvent = { sinceLastEventMs: number | null };

export const CLIENT_EVENT_TYPES = [
  'balance',
  'ranking',
  'tags',
  'students',
  'operations',
  'figures',
  'store',
  'notice',
  'family',
  'settings',
  'refetch',
] as const;
