import { useSyncExternalStore } from 'react';

/** Tailwind's `md` breakpoint: at and above it the students show as a table, below as cards. */
const WIDE = '(min-width: 768px)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(WIDE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** Whether the table layout applies, so only one of the two layouts is rendered. */
export function useWideScreen(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(WIDE).matches, () => true);
}
