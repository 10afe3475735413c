import type { ReactNode } from 'react';
import { Minus, TrendingDown, TrendingUp } from 'lucide-react';
import type { ChangeDirection } from '../../shared/student-figures.ts';
import { cn } from '../lib/cn.ts';

/**
 * The line under a figure saying what changed, e.g. "+120 M$ nos últimos 7 dias": green when
 * it moved the way that is good for this figure (`better`: up by default, down for what is
 * lost, e.g. Méritus removed), red the other way, grey when no direction is better.
 */
export function ChangeLine({
  direction,
  better = 'up',
  children,
}: {
  direction: ChangeDirection;
  better?: 'up' | 'down' | null;
  children: ReactNode;
}) {
  const Icon = direction === 'up' ? TrendingUp : direction === 'down' ? TrendingDown : Minus;
  const tone = direction === 'flat' || better === null ? 'text-slate-600' : direction === better ? 'text-emerald-700' : 'text-rose-700';
  return (
    <span className={cn('inline-flex items-center gap-1 font-medium', tone)}>
      <Icon aria-hidden="true" className="size-3.5 shrink-0" />
      <span>{children}</span>
    </span>
  );
}
