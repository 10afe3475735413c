import { useState } from 'react';
import { CircleAlert, CircleCheck, CircleX, Info } from 'lucide-react';
import { SYSTEM_TEXTS, type DiagnosticLog, type DiagnosticStatus } from '../../../shared/system.ts';
import { cn } from '../../lib/cn.ts';
import { countOf, formatInstant } from '../../lib/format.ts';
import { Button } from '../../ui/button.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';

/** Logs shown at first and added by each 'Mostrar mais': a run writes a few dozen, the server keeps hundreds. */
const PAGE = 50;

/** The status colours of the spec (success, warning, error, info), each with its icon and word so colour is never the only cue. */
const STATUS_LOOK: Record<DiagnosticStatus, { label: string; icon: typeof Info; row: string; tint: string }> = {
  success: { label: 'Sucesso', icon: CircleCheck, row: 'border-l-emerald-500', tint: 'text-emerald-700' },
  warning: { label: 'Aviso', icon: CircleAlert, row: 'border-l-amber-500', tint: 'text-amber-700' },
  error: { label: 'Erro', icon: CircleX, row: 'border-l-rose-500', tint: 'text-rose-700' },
  info: { label: 'Info', icon: Info, row: 'border-l-sky-500', tint: 'text-sky-700' },
};

function LogItem({ log }: { log: DiagnosticLog }) {
  const look = STATUS_LOOK[log.status];
  return (
    <li className={cn('rounded-xl border border-l-4 border-slate-200 bg-white px-3 py-2.5 sm:px-4', look.row)} data-testid="debug-log">
      <div className="flex items-start gap-3">
        <look.icon aria-hidden="true" className={cn('mt-0.5 size-5 shrink-0', look.tint)} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs">
            <time dateTime={log.at} className="text-slate-600 tabular-nums">
              {formatInstant(log.at, { dateStyle: 'short', timeStyle: 'medium' })}
            </time>
            <span className="rounded-md bg-slate-100 px-1.5 py-0.5 font-mono font-semibold text-slate-700">{log.category}</span>
            <span className={cn('font-semibold', look.tint)}>{look.label}</span>
          </div>
          <p className="mt-1 text-sm wrap-anywhere text-slate-900">{log.message}</p>
          {Object.keys(log.details).length > 0 && (
            <details className="group mt-2">
              <summary className="w-fit cursor-pointer rounded text-xs font-semibold text-indigo-700 hover:text-indigo-900">
                Detalhes
              </summary>
              <pre className="mt-2 max-h-80 overflow-auto rounded-lg bg-slate-900 p-3 text-xs leading-relaxed text-slate-100">
                {JSON.stringify(log.details, null, 2)}
              </pre>
            </details>
          )}
        </div>
      </div>
    </li>
  );
}

/** The diagnostic log, newest first as the server sends it; the spec's empty text when there is none. */
export function LogList({ logs }: { logs: readonly DiagnosticLog[] }) {
  const [limit, setLimit] = useState(PAGE);
  if (logs.length === 0) {
    return <EmptyState title={SYSTEM_TEXTS.noLogs} description={SYSTEM_TEXTS.noLogsHint} />;
  }
  const hidden = logs.length - limit;
  return (
    <div className="flex flex-col gap-3">
      <ul aria-label="Logs de diagnóstico" className="flex flex-col gap-2">
        {logs.slice(0, limit).map((log) => (
          <LogItem key={log.id} log={log} />
        ))}
      </ul>
      {hidden > 0 && (
        <Button variant="secondary" className="self-center" onClick={() => setLimit(limit + PAGE)}>
          Mostrar mais ({countOf(hidden, 'restante', 'restantes')})
        </Button>
      )}
    </div>
  );
}
