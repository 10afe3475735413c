import type { QueryClient } from '@tanstack/react-query';
import { urlOf, type Route } from '../../shared/contract/route.ts';
import { routes } from '../../shared/contract/routes.ts';
import type { SessionUser } from '../../shared/auth.ts';
import type { LiveOperation } from '../../shared/ledger.ts';
import type { StudentSummary } from '../../shared/student-area.ts';
import { CLIENT_EVENT_TYPES, type ClientEvent, type ReadyEvent, type StudentBalances } from '../../shared/live-events.ts';
import { invalidateReads, queryKeyOf, routeKey } from './query-keys.ts';

type EventType = ClientEvent['type'];

const { auth, students, ledger, tags, adminStudents, dashboard, reports, store, families } = routes;

/**
 * Which routes' reads each pushed event makes stale, every read of them whatever its params ('all': events may have
 * been missed); only the reads a screen shows are read again. 'operations' carries the feed's lines themselves
 * (mergeFeedLines); 'tags' also makes the student's own session stale when the tag is theirs.
 */
export const INVALIDATES: Record<EventType, readonly Route[] | 'all'> = {
  // The balances themselves come with the event (setSessionBalances); the summary holds them beside the position.
  balance: [students.summary, ledger.myTransactions, ledger.myOperations, ledger.myEstelecas],
  // By board (rankingReads); the student's own new position comes with the event.
  ranking: [],
  tags: [tags.active, adminStudents.list],
  students: [adminStudents.list, students.directory, students.ranking, students.summary, dashboard.summary],
  operations: [],
  figures: [
    dashboard.summary,
    reports.overview,
    reports.timeline,
    reports.reasons,
    ledger.recentAdminMeritus,
    ledger.estelecasHistory,
    ledger.estelecasRanking,
    students.ranking,
    adminStudents.list,
  ],
  // The balance and the store come with events of their own; the message is shown (onNotice).
  notice: [],
  store: [store.items, store.myOrders, store.adminItems, store.orders],
  family: [families.children, families.childSummary],
  // Rare, and they touch what many screens show (the goal, the time zone, turma names): everything is read again.
  settings: 'all',
  refetch: 'all',
};

/**
 * Puts pushed lines at the top of every live feed already read, each kept at the length it asked for; a pushed line
 * the feed shows already replaces it (a reversed row, now marked as such). A feed being read right now is read again
 * instead: its answer may have been written before these lines and would drop them.
 */
export function mergeFeedLines(client: QueryClient, operations: LiveOperation[] | null): void {
  const feedKey = routeKey(ledger.liveOperations);
  for (const query of client.getQueryCache().findAll({ queryKey: feedKey })) {
    const shown = query.state.data as LiveOperation[] | undefined;
    const filter = (query.queryKey[1] as { query?: { limit?: number; authorId?: string } } | undefined)?.query;
    // A feed of one author is read again: a pushed line does not say whose it is.
    if (!operations || !shown || query.state.fetchStatus === 'fetching' || filter?.authorId) {
      void client.invalidateQueries({ queryKey: query.queryKey, exact: true });
      continue;
    }
    const limit = filter?.limit ?? shown.length;
    const pushed = new Map(operations.map((operation) => [operation.id, operation]));
    const known = new Set(shown.map((operation) => operation.id));
    const added = operations.filter((operation) => !known.has(operation.id));
    if (added.length === 0 && !shown.some((operation) => pushed.has(operation.id))) continue;
    const merged = [...added, ...shown.map((operation) => pushed.get(operation.id) ?? operation)]
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .slice(0, limit);
    client.setQueryData(query.queryKey, merged);
  }
}

/** Shows a student's new balances wherever the session's are shown (the sidebar, the cards), without a read. */
export function setSessionBalances(client: QueryClient, balances: StudentBalances): void {
  client.setQueryData<SessionUser | null>(queryKeyOf(auth.me), (user) =>
    user?.role === 'student' ? { ...user, student: { ...user.student, ...balances } } : user,
  );
}

/** The reads of the boards a ranking event names. */
const BOARD_READS = { meritus: students.ranking, estelecas: ledger.estelecasRanking } as const;

/** What an event makes stale besides its type's reads: the boards a ranking event names; the session, for one's own tag. */
function moreReads(event: ClientEvent): Route[] {
  if (event.type === 'tags' && event.mine) return [auth.me];
  if (event.type === 'ranking') return event.boards.map((board) => BOARD_READS[board]);
  return [];
}

/** Shows the student's new position in their summary, read or not, without a read. */
function setOwnPosition(client: QueryClient, own: { position: number; total: number }): void {
  client.setQueryData<StudentSummary>(queryKeyOf(students.summary), (summary) =>
    summary ? { ...summary, rank: { ...summary.rank, ...own } } : summary,
  );
}

/** What one pushed event changes in the client's cache. */
export function applyEvent(client: QueryClient, event: ClientEvent): void {
  if (event.type === 'operations') return mergeFeedLines(client, event.operations);
  if (event.type === 'balance') setSessionBalances(client, event.balances);
  if (event.type === 'ranking' && event.own) setOwnPosition(client, event.own);
  const stale = INVALIDATES[event.type];
  if (stale === 'all') {
    void client.invalidateQueries();
    return;
  }
  invalidateReads(client, [...stale, ...moreReads(event)]);
}

/**
 * Applies an event as sent; one whose data cannot be read (nothing the server sends) is applied by its type alone,
 * with the session read again since whatever it carried is unknown.
 */
function receive(client: QueryClient, type: EventType, data: unknown): void {
  let event: ClientEvent | undefined;
  try {
    event = JSON.parse(String(data)) as ClientEvent;
  } catch {
    event = undefined;
  }
  if (event?.type === type) return applyEvent(client, event);
  const stale =
    type === 'operations'
      ? [ledger.liveOperations]
      : type === 'ranking'
        ? [...Object.values(BOARD_READS), students.summary]
        : INVALIDATES[type];
  if (stale === 'all') void client.invalidateQueries();
  else invalidateReads(client, [...stale, auth.me]);
}

/** A 'notice' event's message, or null when its data cannot be read. */
function noticeOf(data: unknown): string | null {
  try {
    const event = JSON.parse(String(data)) as Partial<Extract<ClientEvent, { type: 'notice' }>>;
    return typeof event.message === 'string' ? event.message : null;
  } catch {
    return null;
  }
}

/**
 * Whether a read answered before the stream listened may have missed an event: the server heard one since this page
 * started loading (performance.now() counts from then, and every read of the page was sent after). A server that
 * does not say is taken as having heard one.
 */
export function mayHaveMissedAnEvent(ready: string, pageAgeMs: number): boolean {
  let since: unknown;
  try {
    since = (JSON.parse(ready) as Partial<ReadyEvent>).sinceLastEventMs;
  } catch {
    return true;
  }
  if (since === null) return false;
  return typeof since !== 'number' || since <= pageAgeMs;
}

const RECONNECT_MS = 5_000;
/** EventSource.CLOSED, which a Node implementation may not put on a global. */
const CLOSED = 2;

/** The EventSource to open: the browser's, or a Node implementation where the app's code runs outside one (bench/school-day.ts). */
export type EventSourceClass = new (url: string) => EventSource;

export type LiveConnectionOptions = {
  client: QueryClient;
  EventSource: EventSourceClass;
  /** Told when the stream opens (true) and when it drops (false). */
  onLiveChange: (live: boolean) => void;
  /** The stream's address (urlOf(routes.events.stream) in a browser; an absolute one elsewhere). */
  url?: string;
  /** How long ago the page started loading (performance.now() in a browser). */
  pageAgeMs?: () => number;
  /** Shows a 'notice' event's message (a toast in a browser). */
  onNotice?: (message: string) => void;
};

/**
 * Keeps one EventSource on the events stream (GET /api/events) until the returned function is called. Pushed events
 * invalidate the matching queries; after a dropped connection comes back, everything is refetched, since events may
 * have been missed meanwhile. The first ready refetches everything only when the page's first reads may have missed
 * an event (mayHaveMissedAnEvent). No React here: the school-day benchmark runs this same code in Node.
 */
export function connectLiveEvents(options: LiveConnectionOptions): () => void {
  const { client, onLiveChange } = options;
  const url = options.url ?? urlOf(routes.events.stream);
  const pageAgeMs = options.pageAgeMs ?? (() => performance.now());
  let source: EventSource | undefined;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let everOpen = false;
  let dropped = false;
  let stopped = false;

  const connect = () => {
    source = new options.EventSource(url);
    source.addEventListener('ready', (message) => {
      onLiveChange(true);
      if (everOpen ? dropped : mayHaveMissedAnEvent(message.data as string, pageAgeMs())) void client.invalidateQueries();
      everOpen = true;
      dropped = false;
    });
    source.onerror = () => {
      onLiveChange(false);
      dropped = true;
      // The browser retries by itself unless the stream was refused (e.g. an HTTP error).
      if (source?.readyState === CLOSED && !stopped) {
        source.close();
        // The server ends a stream with its session (logout elsewhere, removal, expiry): asking who is
        // signed in lets a 401 take the user to the login page now rather than at their next click.
        void client.invalidateQueries({ queryKey: routeKey(auth.me) });
        reconnectTimer = setTimeout(connect, RECONNECT_MS);
      }
    };
    for (const type of CLIENT_EVENT_TYPES) {
      source.addEventListener(type, (message) => receive(client, type, message.data));
    }
    source.addEventListener('notice', (message) => {
      const notice = noticeOf(message.data);
      if (notice) options.onNotice?.(notice);
    });
  };
  connect();
  return () => {
    stopped = true;
    clearTimeout(reconnectTimer);
    source?.close();
    onLiveChange(false);
  };
}
