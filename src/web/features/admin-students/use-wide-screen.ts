import { useSyncExternalStore } from 'react';

/**
 * Tailwind's `xl` breakpoint: from there the content beside the sidebar is wide enough for
 * the table's six columns; below, the students show as cards.
 */
const WIDE = '(min-width: 1280px)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(WIDE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** Whether the table layout applies, so only one of the two layouts is rendered. */
export function useWideScreen(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(WIDE).matches, () => true);
}
