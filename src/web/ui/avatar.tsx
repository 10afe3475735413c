import { useState, type ReactNode } from 'react';
import { cn } from '../lib/cn.ts';

const sizes = {
  xs: 'size-7 text-[0.65rem]',
  sm: 'size-9 text-xs',
  md: 'size-11 text-sm',
  lg: 'size-16 text-lg',
  xl: 'size-24 text-2xl',
} as const;

const palettes = [
  'bg-indigo-100 text-indigo-800',
  'bg-violet-100 text-violet-800',
  'bg-amber-100 text-amber-900',
  'bg-emerald-100 text-emerald-800',
  'bg-sky-100 text-sky-800',
  'bg-rose-100 text-rose-800',
  'bg-teal-100 text-teal-800',
  'bg-orange-100 text-orange-900',
];

function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0]?.[0] ?? '?';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase();
}

function paletteFor(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return palettes[hash % palettes.length] ?? palettes[0]!;
}

export type AvatarProps = { name: string; src?: string | null; size?: keyof typeof sizes; className?: string };

/** A person's photo; without one, or when it fails to load, their initials on a colour picked from the name. */
export function Avatar({ name, src, size = 'md', className }: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const showImage = Boolean(src) && failedSrc !== src;
  const base = cn(
    'inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full ring-2 ring-white',
    sizes[size],
    className,
  );
  if (showImage) {
    return (
      <img src={src!} alt={name} loading="lazy" onError={() => setFailedSrc(src!)} className={cn(base, 'bg-slate-100 object-cover')} />
    );
  }
  return (
    <span role="img" aria-label={name} className={cn(base, 'font-bold', paletteFor(name))}>
      <span aria-hidden="true">{initials(name)}</span>
    </span>
  );
}

/** An avatar with a small round icon pinned to a corner (a podium medal, a weekly tag); the icon is decoration. */
export function BadgedAvatar({
  avatar,
  badge,
  badgeClassName,
  className,
}: {
  avatar: ReactNode;
  badge: ReactNode;
  badgeClassName: string;
  className?: string;
}) {
  return (
    <div className={cn('relative', className)}>
      {avatar}
      <span aria-hidden="true" className={cn('absolute flex items-center justify-center rounded-full ring-2 ring-white', badgeClassName)}>
        {badge}
      </span>
    </div>
  );
}
