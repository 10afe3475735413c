/**
 * What the server pushes over /api/events. Students get only what concerns them
 * or is public; administrators get every operation.
 */
export type ClientEvent =
  | { type: 'balance' } // the signed-in student's balances or history changed
  | { type: 'ranking' } // some public balance changed
  | { type: 'tags' } // weekly tags or likes changed
  | { type: 'students' } // students were added, edited or removed
  | { type: 'operation'; status: 'completed' | 'failed' } // admins: a new entry in the live feed
  | { type: 'settings' } // the school's settings changed (name, time zone, rules, turmas)
  | { type: 'refetch' }; // events may have been missed (the server lost its database connection for a while): reload everything

/**
 * The stream's first message, once the server listens for the client. The page's first reads may have been answered
 * before that: `sinceLastEventMs` (how long ago the server heard the last event this user is told of, null if none
 * since it started) tells the page whether one of them can have missed an event.
 */
export type ReadyEvent = { sinceLastEventMs: number | null };

export const CLIENT_EVENT_TYPES = ['balance', 'ranking', 'tags', 'students', 'operation', 'settings', 'refetch'] as const;
