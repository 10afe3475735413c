import type { ReactNode } from 'react';
import { cn } from '../lib/cn.ts';

export type Tone = 'indigo' | 'amber' | 'emerald' | 'sky' | 'rose' | 'violet' | 'slate';

const iconTones: Record<Tone, string> = {
  indigo: 'bg-indigo-100 text-indigo-700',
  amber: 'bg-amber-100 text-amber-700',
  emerald: 'bg-emerald-100 text-emerald-700',
  sky: 'bg-sky-100 text-sky-700',
  rose: 'bg-rose-100 text-rose-700',
  violet: 'bg-violet-100 text-violet-700',
  slate: 'bg-slate-100 text-slate-700',
};

export type StatCardProps = {
  label: string;
  value: ReactNode;
  icon?: ReactNode;
  tone?: Tone;
  /** A short line under the value (e.g. a comparison or a unit). */
  hint?: ReactNode;
  className?: string;
};

/** A labelled figure, e.g. 'Méritus em Circulação'. */
export function StatCard({ label, value, icon, tone = 'indigo', hint, className }: StatCardProps) {
  return (
    <div className={cn('flex items-start gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm', className)}>
      {icon && (
        <span aria-hidden="true" className={cn('flex size-11 shrink-0 items-center justify-center rounded-xl', iconTones[tone])}>
          {icon}
        </span>
      )}
      <div className="min-w-0">
        <p className="text-sm font-medium text-slate-600">{label}</p>
        <p className="mt-0.5 truncate text-2xl font-bold tracking-tight text-slate-900">{value}</p>
        {hint && <p className="mt-1 text-xs text-slate-600">{hint}</p>}
      </div>
    </div>
  );
}
