import { useCallback, useLayoutEffect, useState, type RefObject } from 'react';
import { visibleRange } from './ranking-figures.ts';

type Range = ReturnType<typeof visibleRange>;

/**
 * Virtual rows for a long list that scrolls with the page: only the rows in view (plus
 * `overscan` on each side) are rendered, so 2,000 students cost what 30 do.
 * `listRef` is the element the rows start in; every row is `rowHeight` pixels tall.
 */
export function useWindowRows(listRef: RefObject<HTMLElement | null>, count: number, rowHeight: number, overscan = 8) {
  const [range, setRange] = useState<Range>(() => ({
    start: 0,
    end: Math.min(count, 30),
    firstVisible: 0,
    lastVisible: Math.min(count, 15),
  }));

  const measure = useCallback(() => {
    const list = listRef.current;
    if (!list) return;
    const listTop = list.getBoundingClientRect().top + window.scrollY;
    const next = visibleRange({ count, rowHeight, listTop, scrollY: window.scrollY, viewportHeight: window.innerHeight, overscan });
    setRange((previous) =>
      previous.start === next.start &&
      previous.end === next.end &&
      previous.firstVisible === next.firstVisible &&
      previous.lastVisible === next.lastVisible
        ? previous
        : next,
    );
  }, [listRef, count, rowHeight, overscan]);

  useLayoutEffect(() => {
    measure();
    window.addEventListener('scroll', measure, { passive: true });
    window.addEventListener('resize', measure);
    return () => {
      window.removeEventListener('scroll', measure);
      window.removeEventListener('resize', measure);
    };
  }, [measure]);

  /** Scrolls the page so that row `index` sits in the middle of the viewport. */
  const scrollToRow = useCallback(
    (index: number) => {
      const list = listRef.current;
      if (!list) return;
      const listTop = list.getBoundingClientRect().top + window.scrollY;
      const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      window.scrollTo({
        top: listTop + index * rowHeight - window.innerHeight / 2 + rowHeight / 2,
        behavior: reduceMotion ? 'auto' : 'smooth',
      });
    },
    [listRef, rowHeight],
  );

  return { ...range, scrollToRow };
}
