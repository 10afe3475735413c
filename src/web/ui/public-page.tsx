import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeft, type LucideIcon } from 'lucide-react';
import { cn } from '../lib/cn.ts';
import { paths } from '../lib/paths.ts';

/**
 * A page anyone may open without signing in (the privacy page, a guardian's sign-up, the email's opt-out): one card on
 * the login's background, its icon and title, and optionally the way back to the login.
 */
export function PublicPage({
  icon: Icon,
  title,
  subtitle,
  wide = false,
  backToLogin = false,
  children,
}: {
  icon: LucideIcon;
  title: string;
  subtitle?: ReactNode;
  /** Room for reading (the privacy text) rather than a form. */
  wide?: boolean;
  backToLogin?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="min-h-dvh bg-slate-50 px-4 py-8 sm:py-12">
      <main
        className={cn(
          'mx-auto flex flex-col gap-6 rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-10',
          wide ? 'max-w-2xl' : 'max-w-xl',
        )}
      >
        {backToLogin && (
          <Link
            to={paths.login}
            className="inline-flex min-h-11 items-center gap-2 self-start text-sm font-semibold text-indigo-700 hover:text-indigo-900"
          >
            <ArrowLeft aria-hidden="true" className="size-4" />
            Voltar ao login
          </Link>
        )}
        <header className="flex items-start gap-3">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-2xl bg-indigo-50 text-indigo-700">
            <Icon aria-hidden="true" className="size-6" />
          </span>
          <div className="min-w-0">
            <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
            {subtitle && <p className="mt-1 text-slate-600">{subtitle}</p>}
          </div>
        </header>
        {children}
      </main>
    </div>
  );
}
