import type { ReactNode } from 'react';
import { Inbox } from 'lucide-react';
import { cn } from '../lib/cn.ts';

export type EmptyStateProps = { title: string; description?: ReactNode; icon?: ReactNode; action?: ReactNode; className?: string };

/** What a list shows when it has nothing, e.g. 'Nenhuma transação recente'. */
export function EmptyState({ title, description, icon, action, className }: EmptyStateProps) {
  return (
    <div className={cn('flex flex-col items-center justify-center gap-2 px-4 py-10 text-center', className)}>
      <span aria-hidden="true" className="mb-1 flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-500">
        {icon ?? <Inbox className="size-6" />}
      </span>
      <p className="font-semibold text-slate-800">{title}</p>
      {description && <p className="max-w-sm text-sm text-slate-600">{description}</p>}
      {action && <div className="mt-2">{action}</div>}
    </div>
  );
}
