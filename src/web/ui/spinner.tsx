import { LoaderCircle } from 'lucide-react';
import { cn } from '../lib/cn.ts';

/** A spinning indicator; `label` is read by screen readers. */
export function Spinner({ label = 'Carregando...', className }: { label?: string; className?: string }) {
  return (
    <span role="status" className="inline-flex items-center">
      <LoaderCircle aria-hidden="true" className={cn('size-5 animate-spin text-indigo-600', className)} />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** The whole screen waiting, with the text 'Carregando...'. */
export function FullScreenSpinner({ label = 'Carregando...' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="flex min-h-dvh flex-col items-center justify-center gap-3 bg-slate-50">
      <LoaderCircle aria-hidden="true" className="size-10 animate-spin text-indigo-600" />
      <p className="text-sm font-medium text-slate-600">{label}</p>
    </div>
  );
}
