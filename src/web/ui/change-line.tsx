import type { ReactNode } from 'react';
import { Minus, TrendingDown, TrendingUp } from 'lucide-react';
import { cn } from '../lib/cn.ts';

export type ChangeDirection = 'up' | 'down' | 'flat';

export function directionOf(value: number): ChangeDirection {
  return value > 0 ? 'up' : value < 0 ? 'down' : 'flat';
}

/** The line under a figure saying what changed, e.g. "+120 M$ nos últimos 7 dias". */
export function ChangeLine({ direction, children }: { direction: ChangeDirection; children: ReactNode }) {
  const Icon = direction === 'up' ? TrendingUp : direction === 'down' ? TrendingDown : Minus;
  return (
    <span className={cn('inline-flex items-center gap-1 font-medium', direction === 'up' ? 'text-emerald-700' : direction === 'down' ? 'text-rose-700' : 'text-slate-600')}>
      <Icon aria-hidden="true" className="size-3.5 shrink-0" />
      <span>{children}</span>
    </span>
  );
}
