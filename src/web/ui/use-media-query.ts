import { useCallback, useSyncExternalStore } from 'react';

/** Tailwind's breakpoints as media queries, for a component that renders only one of two layouts. */
export const SCREEN = {
  /** `md`: wide enough for a table's secondary columns (the ranking's turma). */
  md: '(min-width: 48rem)',
  /** `lg`: the sidebar stands beside the content; below, it is a drawer. */
  lg: '(min-width: 64rem)',
  /** `xl`: wide enough beside the sidebar for a table of six columns. */
  xl: '(min-width: 80rem)',
} as const;

/** Whether the page matches a CSS media query now, kept current as the window changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}
