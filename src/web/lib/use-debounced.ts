import { useEffect, useState } from 'react';

/** The value once it has stayed the same for `delayMs`: a search box asks the server when the typing pauses, not at each key. */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
