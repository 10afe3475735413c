/** The colour families the UI parts share (badges, progress bars, figure icons). */
export type Tone = 'indigo' | 'amber' | 'emerald' | 'sky' | 'rose' | 'violet' | 'slate';

/** The square icon beside or above a figure. */
export const iconTones: Record<Tone, string> = {
  indigo: 'bg-indigo-100 text-indigo-700',
  amber: 'bg-amber-100 text-amber-700',
  emerald: 'bg-emerald-100 text-emerald-700',
  sky: 'bg-sky-100 text-sky-700',
  rose: 'bg-rose-100 text-rose-700',
  violet: 'bg-violet-100 text-violet-700',
  slate: 'bg-slate-100 text-slate-700',
};
