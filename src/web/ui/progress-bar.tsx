import { cn } from '../lib/cn.ts';
import { progressPercent } from '../../shared/format.ts';
import type { Tone } from './tone.ts';

const fills: Record<Tone, string> = {
  indigo: 'bg-indigo-600',
  amber: 'bg-amber-500',
  emerald: 'bg-emerald-500',
  sky: 'bg-sky-500',
  rose: 'bg-rose-500',
  violet: 'bg-violet-600',
  slate: 'bg-slate-500',
};

export type ProgressBarProps = {
  value: number;
  /** The value that fills the bar; the bar never goes past 100%. */
  max: number;
  /** Accessible name, e.g. 'Progresso da meta'. */
  label: string;
  tone?: Tone;
  className?: string;
  trackClassName?: string;
};

export function ProgressBar({ value, max, label, tone = 'indigo', className, trackClassName }: ProgressBarProps) {
  const percent = progressPercent(value, max);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(percent)}
      className={cn('h-2.5 w-full overflow-hidden rounded-full bg-slate-200', trackClassName, className)}
    >
      <div className={cn('h-full rounded-full transition-[width] duration-500', fills[tone])} style={{ width: `${percent}%` }} />
    </div>
  );
}
