import { RefreshCw, TriangleAlert } from 'lucide-react';
import { Button } from './button.tsx';

/** What a panel shows when its data could not be loaded, with a way to try again. */
export function LoadError({ message, onRetry, retrying = false }: { message: string; onRetry: () => void; retrying?: boolean }) {
  return (
    <div role="alert" className="flex flex-col items-center justify-center gap-3 px-4 py-8 text-center">
      <span aria-hidden="true" className="flex size-12 items-center justify-center rounded-full bg-rose-50 text-rose-600">
        <TriangleAlert className="size-6" />
      </span>
      <p className="font-semibold text-slate-800">{message}</p>
      <Button variant="secondary" size="sm" onClick={onRetry} loading={retrying} icon={<RefreshCw aria-hidden="true" className="size-4" />}>
        Tentar novamente
      </Button>
    </div>
  );
}
