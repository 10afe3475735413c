import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useLiveStatus } from './live-events.ts';
import type { Read } from './query-keys.ts';

/** Polls at `fallbackMs` only while the live event stream is down; pushed events refresh the data otherwise. */
export function useFallbackInterval(fallbackMs: number | false): number | false {
  return useLiveStatus() ? false : fallbackMs;
}

/**
 * A read (readOf) kept fresh by pushed events, polled every `fallbackMs` only while the event stream is down (`false`: never).
 * `keepPrevious`: a read of other filters keeps the last answer on screen until its own arrives.
 */
export function useLiveQuery<T>(read: Read<T>, fallbackMs: number | false, { keepPrevious = false } = {}) {
  return useQuery<T>({
    queryKey: read.queryKey,
    queryFn: read.queryFn,
    refetchInterval: useFallbackInterval(fallbackMs),
    ...(keepPrevious ? { placeholderData: keepPreviousData } : {}),
  });
}
