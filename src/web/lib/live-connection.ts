import type { QueryClient } from '@tanstack/react-query';
import { urlOf, type Route } from '../../shared/contract/route.ts';
import { routes } from '../../shared/contract/routes.ts';
import { CLIENT_EVENT_TYPES, type ClientEvent, type ReadyEvent } from '../../shared/live-events.ts';
import { invalidateReads, routeKey } from './query-keys.ts';

type EventType = ClientEvent['type'];

const { auth, students, ledger, tags, adminStudents, dashboard, reports } = routes;

/**
 * Which routes' reads each pushed event makes stale, every read of them whatever its params ('all': events may have
 * been missed). A student's summary holds their position, which any classmate's operation can move.
 */
export const INVALIDATES: Record<EventType, readonly Route[] | 'all'> = {
  balance: [auth.me, ledger.myTransactions, ledger.myOperations, ledger.myEstelecas],
  ranking: [
    students.ranking,
    students.summary,
    students.directory,
    adminStudents.list,
    dashboard.summary,
    ledger.estelecasRanking,
    ledger.estelecasHistory,
  ],
  tags: [tags.active, auth.me, adminStudents.list],
  students: [adminStudents.list, students.directory, students.ranking, students.summary, dashboard.summary],
  operation: [
    ledger.liveOperations,
    ledger.recentAdminMeritus,
    ledger.estelecasRanking,
    ledger.estelecasHistory,
    dashboard.summary,
    reports.overview,
    reports.timeline,
    reports.reasons,
  ],
  // Rare, and they touch what many screens show (the goal, the time zone, turma names): everything is read again.
  settings: 'all',
  refetch: 'all',
};

function invalidateFor(client: QueryClient, type: EventType): void {
  const stale = INVALIDATES[type];
  if (stale === 'all') void client.invalidateQueries();
  else invalidateReads(client, stale);
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
      source.addEventListener(type, () => invalidateFor(client, type));
    }
  };
  connect();
  return () => {
    stopped = true;
    clearTimeout(reconnectTimer);
    source?.close();
    onLiveChange(false);
  };
}
