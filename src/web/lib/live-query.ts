import { useQuery, type QueryKey } from '@tanstack/react-query';
import { useLiveStatus } from './live-events.ts';

/** Polls at `fallbackMs` only while the live event stream is down; pushed events refresh the data otherwise. */
export function useFallbackInterval(fallbackMs: number | false): number | false {
  return useLiveStatus() ? false : fallbackMs;
}

/** A read kept fresh by pushed events, polled every `fallbackMs` only while the event stream is down (`false`: never). */
export function useLiveQuery<T>(queryKey: QueryKey, queryFn: () => Promise<T>, fallbackMs: number | false) {
  return useQuery({ queryKey, queryFn, refetchInterval: useFallbackInterval(fallbackMs) });
}
