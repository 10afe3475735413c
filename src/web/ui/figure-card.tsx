import type { ReactNode } from 'react';
import { cn } from '../lib/cn.ts';
import { iconTones, type Tone } from './tone.ts';

export type FigureCardProps = {
  label: string;
  value: ReactNode;
  icon: ReactNode;
  tone?: Tone;
  /** The change line under the figure. */
  footer?: ReactNode;
  /** Smaller type for a value that is a word rather than a number. */
  textValue?: boolean;
  className?: string;
  testId?: string;
};

/**
 * A figure with its label, icon and change line, stacked so that two fit side by side
 * on a phone and four on a desktop without cutting the value.
 */
export function FigureCard({ label, value, icon, tone = 'indigo', footer, textValue = false, className, testId }: FigureCardProps) {
  return (
    <div
      className={cn('flex min-w-0 flex-col rounded-2xl border border-slate-200 bg-white p-3.5 shadow-sm sm:p-4', className)}
      data-testid={testId}
    >
      <div className="flex items-center gap-2.5">
        <span aria-hidden="true" className={cn('flex size-9 shrink-0 items-center justify-center rounded-xl sm:size-10', iconTones[tone])}>
          {icon}
        </span>
        <p className="min-w-0 text-xs leading-tight font-semibold text-slate-600 sm:text-sm">{label}</p>
      </div>
      <p
        className={cn(
          'mt-2.5 font-bold tracking-tight text-slate-900 tabular-nums',
          textValue ? 'text-lg leading-snug sm:text-xl' : 'text-2xl sm:text-[1.75rem]',
        )}
      >
        {value}
      </p>
      {footer && <div className="mt-1.5 text-xs leading-snug">{footer}</div>}
    </div>
  );
}
