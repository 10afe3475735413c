import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../lib/cn.ts';

export type TabItem<T extends string> = { id: T; label: string; icon?: ReactNode; panel: ReactNode };

export type TabsProps<T extends string> = {
  items: readonly TabItem<T>[];
  value: T;
  onChange: (id: T) => void;
  /** Accessible name of the tab list. */
  label: string;
  className?: string;
  listClassName?: string;
  /** Smaller type and padding: three or more tabs that must fit a phone-wide card side by side. */
  compact?: boolean;
};

/** Tabs with the ARIA tabs pattern: arrow keys, Home and End move between tabs. */
export function Tabs<T extends string>({ items, value, onChange, label, className, listClassName, compact = false }: TabsProps<T>) {
  const baseId = useId();
  const refs = useRef(new Map<T, HTMLButtonElement>());
  const active = items.find((item) => item.id === value) ?? items[0];

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((item) => item.id === value);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: items.length - 1 };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = items[(target + items.length) % items.length];
    if (!next) return;
    onChange(next.id);
    refs.current.get(next.id)?.focus();
  };

  return (
    <div className={className}>
      <div role="tablist" aria-label={label} onKeyDown={onKeyDown} className={cn('flex gap-1 rounded-xl bg-slate-100 p-1', listClassName)}>
        {items.map((item) => {
          const selected = item.id === active?.id;
          return (
            <button
              key={item.id}
              ref={(element) => {
                if (element) refs.current.set(item.id, element);
                else refs.current.delete(item.id);
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${item.id}`}
              aria-selected={selected}
              aria-controls={`${baseId}-panel-${item.id}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(item.id)}
              className={cn(
                'flex flex-1 items-center justify-center whitespace-nowrap rounded-lg font-semibold transition-colors',
                compact ? 'min-h-11 min-w-0 gap-1.5 px-1.5 text-xs sm:text-sm' : 'min-h-10 gap-2 px-3 text-sm',
                selected ? 'bg-white text-indigo-700 shadow-sm' : 'text-slate-600 hover:text-slate-900',
              )}
            >
              {item.icon}
              {item.label}
            </button>
          );
        })}
      </div>
      {active && (
        <div role="tabpanel" id={`${baseId}-panel-${active.id}`} aria-labelledby={`${baseId}-tab-${active.id}`} className="mt-5">
          {active.panel}
        </div>
      )}
    </div>
  );
}
