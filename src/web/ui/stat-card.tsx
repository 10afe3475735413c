import type { ReactNode } from 'react';
import { cn } from '../lib/cn.ts';
import { iconTones, type Tone } from './tone.ts';

export type StatCardProps = {
  label: string;
  value: ReactNode;
  icon?: ReactNode;
  tone?: Tone;
  /** A short line under the value (e.g. the change against the previous period). */
  hint?: ReactNode;
  /** A small control on the label's line, e.g. an info button. */
  action?: ReactNode;
  /** Placed against the card itself (it is `relative`), e.g. the info button's tooltip. */
  children?: ReactNode;
  className?: string;
};

/** A labelled figure with its icon at the side, e.g. 'Méritus em Circulação'. */
export function StatCard({ label, value, icon, tone = 'indigo', hint, action, children, className }: StatCardProps) {
  return (
    <div className={cn('relative flex items-start gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm', className)}>
      {icon && (
        <span aria-hidden="true" className={cn('flex size-11 shrink-0 items-center justify-center rounded-xl', iconTones[tone])}>
          {icon}
        </span>
      )}
      <div className="min-w-0 flex-1">
        <div className="flex items-start justify-between gap-1">
          <p className="text-sm font-medium text-slate-600">{label}</p>
          {action}
        </div>
        <p className="mt-0.5 truncate text-2xl font-bold tracking-tight text-slate-900 tabular-nums">{value}</p>
        {hint && <div className="mt-1 text-xs text-slate-600">{hint}</div>}
      </div>
      {children}
    </div>
  );
}
