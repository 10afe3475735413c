import { createContext, createElement, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { CLIENT_EVENT_TYPES, type ClientEvent } from '../../shared/live-events.ts';
import { queryKeys, type QueryKeyRoot } from './query-keys.ts';

type EventType = ClientEvent['type'];
type Listener = (event: ClientEvent) => void;

/** Which cached data each pushed event makes stale. */
export const INVALIDATES: Record<EventType, readonly QueryKeyRoot[]> = {
  balance: [queryKeys.me, queryKeys.myTransactions, queryKeys.myOperations, queryKeys.myEstelecas],
  ranking: [queryKeys.ranking, queryKeys.directory, queryKeys.adminStudents, queryKeys.adminDashboard, queryKeys.adminEstelecas],
  tags: [queryKeys.tags, queryKeys.me, queryKeys.adminStudents],
  students: [queryKeys.adminStudents, queryKeys.directory, queryKeys.ranking, queryKeys.adminDashboard],
  operation: [queryKeys.adminOperations, queryKeys.adminMeritus, queryKeys.adminEstelecas, queryKeys.adminDashboard],
};

function invalidateFor(client: QueryClient, type: EventType): void {
  for (const queryKey of INVALIDATES[type]) void client.invalidateQueries({ queryKey });
}

type LiveContextValue = { live: boolean; subscribe: (type: EventType, listener: Listener) => () => void };

const LiveContext = createContext<LiveContextValue>({ live: false, subscribe: () => () => {} });

const RECONNECT_MS = 5_000;

/**
 * Keeps one EventSource on /api/events while someone is signed in. Pushed events
 * invalidate the matching queries; after a dropped connection comes back, everything is
 * refetched, since events may have been missed meanwhile.
 */
export function LiveEventsProvider({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  const client = useQueryClient();
  const [live, setLive] = useState(false);
  const listeners = useRef(new Map<EventType, Set<Listener>>());
  const [value] = useState<Omit<LiveContextValue, 'live'>>(() => ({
    subscribe: (type, listener) => {
      const set = listeners.current.get(type) ?? new Set<Listener>();
      set.add(listener);
      listeners.current.set(type, set);
      return () => set.delete(listener);
    },
  }));

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    let source: EventSource | undefined;
    let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
    let everOpen = false;
    let dropped = false;
    let stopped = false;

    const connect = () => {
      source = new EventSource('/api/events');
      source.addEventListener('ready', () => {
        setLive(true);
        if (everOpen && dropped) void client.invalidateQueries();
        everOpen = true;
        dropped = false;
      });
      source.onerror = () => {
        setLive(false);
        dropped = true;
        // The browser retries by itself unless the stream was refused (e.g. an HTTP error).
        if (source?.readyState === EventSource.CLOSED && !stopped) {
          source.close();
          reconnectTimer = setTimeout(connect, RECONNECT_MS);
        }
      };
      for (const type of CLIENT_EVENT_TYPES) {
        source.addEventListener(type, (message) => {
          let event: ClientEvent = { type } as ClientEvent;
          try {
            event = JSON.parse((message as MessageEvent<string>).data) as ClientEvent;
          } catch {
            // An event without a readable body still tells which data changed.
          }
          invalidateFor(client, type);
          for (const listener of listeners.current.get(type) ?? []) listener(event);
        });
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

  return createElement(LiveContext.Provider, { value: { live, subscribe: value.subscribe } }, children);
}

/**
 * True while the event stream is open. Screens poll only while it is down:
 * `refetchInterval: live ? false : POLL_MS.dashboard`.
 */
export function useLiveStatus(): boolean {
  return useContext(LiveContext).live;
}

/** Calls `callback` for each pushed event of `type` (e.g. to count new operations). */
export function useLiveEvent<T extends EventType>(type: T, callback: (event: Extract<ClientEvent, { type: T }>) => void): void {
  const { subscribe } = useContext(LiveContext);
  const latest = useRef(callback);
  useEffect(() => {
    latest.current = callback;
  });
  useEffect(
    () => subscribe(type, (event) => latest.current(event as Extract<ClientEvent, { type: T }>)),
    [subscribe, type],
  );
}
