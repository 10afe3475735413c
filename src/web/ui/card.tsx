import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from '../lib/cn.ts';

export type CardProps = HTMLAttributes<HTMLElement> & {
  title?: ReactNode;
  /** Right side of the title row (a link, a button). */
  action?: ReactNode;
  as?: 'section' | 'div' | 'article';
  padded?: boolean;
};

export function Card({ title, action, as: Tag = 'section', padded = true, className, children, ...rest }: CardProps) {
  return (
    <Tag className={cn('rounded-2xl border border-slate-200 bg-white shadow-sm', padded && 'p-4 sm:p-5', className)} {...rest}>
      {(title || action) && (
        <div className="mb-3 flex items-center justify-between gap-3">
          {title && <h2 className="text-base font-semibold text-slate-900">{title}</h2>}
          {action}
        </div>
      )}
      {children}
    </Tag>
  );
}
