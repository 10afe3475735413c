import { cn } from '../lib/cn.ts';

/** A grey placeholder block while data loads; size it with className. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-lg bg-slate-200', className)} />;
}
