import { createContext, createElement, useContext, useEffect, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-hot-toast';
import { connectLiveEvents } from './live-connection.ts';

const LiveContext = createContext(false);

/** Keeps the live event stream (connectLiveEvents) open while someone is signed in, and tells the screens whether it is. */
export function LiveEventsProvider({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  const client = useQueryClient();
  const [live, setLive] = useState(false);

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    return connectLiveEvents({ client, EventSource, onLiveChange: setLive, onNotice: (message) => toast(message) });
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
