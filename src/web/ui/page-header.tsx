import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

export type PageHeaderProps = { title: ReactNode; description?: ReactNode; actions?: ReactNode; icon?: LucideIcon };

/** The title row of a screen: one h1, an optional line of context and actions on the right. */
export function PageHeader({ title, description, actions, icon: Icon }: PageHeaderProps) {
  return (
    <header className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 items-center gap-3">
        {Icon && (
          <span aria-hidden="true" className="flex size-11 shrink-0 items-center justify-center rounded-2xl bg-indigo-100 text-indigo-700">
            <Icon className="size-6" />
          </span>
        )}
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
          {description && <p className="mt-1 text-sm text-slate-600 sm:text-base">{description}</p>}
        </div>
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2 sm:justify-end">{actions}</div>}
    </header>
  );
}
