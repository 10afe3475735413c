/** A balance as a share of the highest balance, 0–100, for the ranking's bars (0 while nobody has any). */
export function shareOfTop(meritus: number, top: number): number {
  return top > 0 ? (meritus / top) * 100 : 0;
}

/** Which rows to render for a window-scrolled list of fixed-height rows. */
export function visibleRange(options: {
  count: number;
  rowHeight: number;
  listTop: number;
  scrollY: number;
  viewportHeight: number;
  overscan: number;
}): { start: number; end: number; firstVisible: number; lastVisible: number } {
  const { count, rowHeight, listTop, scrollY, viewportHeight, overscan } = options;
  const offset = scrollY - listTop;
  const firstVisible = Math.min(count, Math.max(0, Math.floor(offset / rowHeight)));
  const lastVisible = Math.min(count, Math.max(0, Math.ceil((offset + viewportHeight) / rowHeight)));
  return {
    start: Math.max(0, firstVisible - overscan),
    end: Math.min(count, lastVisible + overscan),
    firstVisible,
    lastVisible,
  };
}
