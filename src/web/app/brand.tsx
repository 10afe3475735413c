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

export function Brand({ className, inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2.5', className)}>
      <BrandMark />
      <span className={cn('text-xl font-extrabold tracking-tight', inverted ? 'text-white' : 'text-slate-900')}>Méritus</span>
    </span>
  );
}
