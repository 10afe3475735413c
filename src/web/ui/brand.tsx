import { useId } from 'react';
import { cn } from '../lib/cn.ts';

/** The Méritus coin mark and name. */
export function BrandMark({ className }: { className?: string }) {
  const gradientId = useId();
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true" className={cn('size-9 shrink-0', className)}>
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6366f1" />
          <stop offset="1" stopColor="#7c3aed" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="16" fill={`url(#${gradientId})`} />
      <circle cx="32" cy="32" r="19" fill="#fbbf24" />
      <circle cx="32" cy="32" r="14.5" fill="none" stroke="#b45309" strokeWidth="2.5" />
      <path d="M23 41V23l9 11 9-11v18" fill="none" stroke="#78350f" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** Méritus with the school's logo (the coin mark without one) and name under it, once the settings are known. */
export function Brand({
  className,
  inverted = false,
  school,
}: {
  className?: string;
  inverted?: boolean;
  school?: { name: string; logoUrl: string | null } | undefined;
}) {
  return (
    <span className={cn('inline-flex items-center gap-2.5', className)}>
      {school?.logoUrl ? <img src={school.logoUrl} alt="" className="size-9 shrink-0 rounded-xl bg-white object-contain" /> : <BrandMark />}
      <span className="flex min-w-0 flex-col">
        <span className={cn('text-xl leading-tight font-extrabold tracking-tight', inverted ? 'text-white' : 'text-slate-900')}>
          Méritus
        </span>
        {school && (
          <span title={school.name} className={cn('truncate text-xs font-semibold', inverted ? 'text-indigo-100' : 'text-slate-600')}>
            {school.name}
          </span>
        )}
      </span>
    </span>
  );
}
