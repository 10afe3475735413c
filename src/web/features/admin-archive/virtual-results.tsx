import { useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { Spinner } from '../../ui/spinner.tsx';

/** Space between cards (Tailwind gap-4). */
const GAP = 16;

type VirtualResultsProps<T> = {
  items: readonly T[];
  keyOf: (item: T) => string;
  /** null = one item per row (the list); a number = the narrowest a card may get (the grid). */
  cardMinWidth: number | null;
  /** A first guess of a row's height, before it is measured. */
  estimateRowHeight: (columnWidth: number) => number;
  renderItem: (item: T) => ReactNode;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  /** Accessible name of the list. */
  label: string;
  /** How many items match in all (loaded or not). */
  total: number;
};

/** Width of the element, kept up to date as the window or the sidebar changes it. */
function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * The archive's results, scrolling with the page: only the rows in view are in the document
 * (10,000 images cost what 30 do), and the next page is asked for as the end comes into view.
 */
export function VirtualResults<T>({
  items,
  keyOf,
  cardMinWidth,
  estimateRowHeight,
  renderItem,
  hasMore,
  loadingMore,
  onLoadMore,
  label,
  total,
}: VirtualResultsProps<T>) {
  const listRef = useRef<HTMLDivElement>(null);
  const width = useWidth(listRef);
  const columns = cardMinWidth === null ? 1 : Math.max(1, Math.floor((width + GAP) / (cardMinWidth + GAP)));
  const columnWidth = (width - GAP * (columns - 1)) / columns;
  const rowCount = Math.ceil(items.length / columns);
  const [scrollMargin, setScrollMargin] = useState(0);
  // Where the list starts on the page: it moves whenever something above it changes height (the filters panel opens,
  // the selection bar shows), which also changes the page's height.
  useLayoutEffect(() => {
    const measure = () => {
      const element = listRef.current;
      if (element) setScrollMargin(element.getBoundingClientRect().top + window.scrollY);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => estimateRowHeight(columnWidth) + GAP,
    overscan: 3,
    scrollMargin,
  });
  // Rows measured for another column count would keep the old heights.
  useEffect(() => virtualizer.measure(), [virtualizer, columns, cardMinWidth]);

  const rows = virtualizer.getVirtualItems();
  const lastShown = rows[rows.length - 1]?.index ?? -1;
  useEffect(() => {
    if (hasMore && !loadingMore && lastShown >= rowCount - 3) onLoadMore();
  }, [hasMore, loadingMore, lastShown, rowCount, onLoadMore]);

  return (
    <div ref={listRef}>
      {/* One list of items; the rows are only layout (aria-setsize tells how many there are beyond those drawn). */}
      <div role="list" aria-label={label} className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {rows.map((row) => (
          <div
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            className="absolute top-0 left-0 grid w-full gap-4"
            style={{
              transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
              paddingBottom: GAP,
              gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
            }}
          >
            {items.slice(row.index * columns, row.index * columns + columns).map((item, column) => (
              <div
                key={keyOf(item)}
                role="listitem"
                aria-setsize={total}
                aria-posinset={row.index * columns + column + 1}
                className="min-w-0"
              >
                {renderItem(item)}
              </div>
            ))}
          </div>
        ))}
      </div>
      {loadingMore && (
        <div className="flex justify-center py-4">
          <Spinner label="Carregando mais imagens..." />
        </div>
      )}
    </div>
  );
}
