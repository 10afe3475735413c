import { createContext, createElement, useContext, useEffect, useState, type ReactNode } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { CLIENT_EVENT_TYPES, type ClientEvent, type ReadyEvent } from '../../shared/live-events.ts';
import { queryKeys, type QueryKeyRoot } from './query-keys.ts';

type EventType = ClientEvent['type'];

/** Which cached data each pushed event makes stale ('all': events may have been missed). */
export const INVALIDATES: Record<EventType, readonly QueryKeyRoot[] | 'all'> = {
  balance: [queryKeys.me, queryKeys.myTransactions, queryKeys.myOperations, queryKeys.myEstelecas],
  ranking: [queryKeys.ranking, queryKeys.directory, queryKeys.adminStudents, queryKeys.adminDashboard, queryKeys.adminEstelecas],
  tags: [queryKeys.tags, queryKeys.me, queryKeys.adminStudents],
  students: [queryKeys.adminStudents, queryKeys.directory, queryKeys.ranking, queryKeys.adminDashboard],
  operation: [queryKeys.adminOperations, queryKeys.adminMeritus, queryKeys.adminEstelecas, queryKeys.adminDashboard],
  // Rare, and they touch what many screens show (the goal, the time zone, turma names): everything is read again.
  settings: 'all',
  refetch: 'all',
};

function invalidateFor(client: QueryClient, type: EventType): void {
  const stale = INVALIDATES[type];
  if (stale === 'all') void client.invalidateQueries();
  else for (const queryKey of stale) void client.invalidateQueries({ queryKey });
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

const LiveContext = createContext(false);

const RECONNECT_MS = 5_000;

/**
 * Keeps one EventSource on /api/events while someone is signed in. Pushed events
 * invalidate the matching queries; after a dropped connection comes back, everything is
 * refetched, since events may have been missed meanwhile. The first ready refetches everything
 * only when the page's first reads may have missed an event (mayHaveMissedAnEvent).
 */
export function LiveEventsProvider({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  const client = useQueryClient();
  const [live, setLive] = useState(false);

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    let source: EventSource | undefined;
    let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
    let everOpen = false;
    let dropped = false;
    let stopped = false;

    const connect = () => {
      source = new EventSource('/api/events');
      source.addEventListener('ready', (message) => {
        setLive(true);
        if (everOpen ? dropped : mayHaveMissedAnEvent(message.data as string, performance.now())) void client.invalidateQueries();
        everOpen = true;
        dropped = false;
      });
      source.onerror = () => {
        setLive(false);
        dropped = true;
        // The browser retries by itself unless the stream was refused (e.g. an HTTP error).
        if (source?.readyState === EventSource.CLOSED && !stopped) {
          source.close();
          // The server ends a stream with its session (logout elsewhere, removal, expiry): asking who is
          // signed in lets a 401 take the user to the login page now rather than at their next click.
          void client.invalidateQueries({ queryKey: queryKeys.me });
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
      setLive(false);
    };
  }, [enabled, client]);

  return createElement(LiveContext.Provider, { value: live }, children);
}

/**
 * True while the event stream is open. Screens poll only while it is down:
 * `refetchInterval: live ? false : POLL_MS.dashboard`.
 */
export function useLiveStatus(): boolean {
  return useContext(LiveContext);
}
