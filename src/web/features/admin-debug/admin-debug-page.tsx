import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ArrowLeftRight, Bug, FileText, Play, ShieldCheck, Trash2, Users, Wrench, type LucideIcon } from 'lucide-react';
import {
  DIAGNOSTIC_CATEGORIES,
  FIX_LABELS,
  SYSTEM_TEXTS,
  type DiagnosticCategory,
  type DiagnosticCounters,
  type DiagnosticRun,
  type FixAdministratorsResult,
  type FixId,
  type FixPreview,
} from '../../../shared/system.ts';
import { useSession } from '../../lib/session.ts';
import { cn } from '../../lib/cn.ts';
import { formatNumber, formatTime } from '../../lib/format.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { useApplyFix, useClearLogs, useDiagnosticLogs, useFixAdministrators, useFixPreview, useRunDiagnostic } from './debug-queries.ts';
import { FixAdministratorsDialog, FixPreviewDialog, NewAdminPasswordDialog } from './fix-dialogs.tsx';
import { LogList } from './log-list.tsx';
import { isStaffUser } from '../../../shared/areas.ts';

type Filter = DiagnosticCategory | 'all';

/** The category chips: all, then each category in upper case as the spec shows them. */
function CategoryChips({ value, onChange }: { value: Filter; onChange: (filter: Filter) => void }) {
  const chips: { id: Filter; label: string }[] = [
    { id: 'all', label: 'Todos' },
    ...DIAGNOSTIC_CATEGORIES.map((category) => ({ id: category, label: category })),
  ];
  return (
    <div role="group" aria-label="Filtrar por categoria" className="flex flex-wrap gap-2">
      {chips.map((chip) => {
        const selected = chip.id === value;
        return (
          <button
            key={chip.id}
            type="button"
            aria-pressed={selected}
            onClick={() => onChange(chip.id)}
            className={cn(
              'min-h-9 rounded-full px-3.5 text-xs font-semibold tracking-wide ring-1 transition-colors ring-inset',
              selected ? 'bg-indigo-600 text-white ring-indigo-600' : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50',
            )}
          >
            {chip.label}
          </button>
        );
      })}
    </div>
  );
}

type CounterProps = { label: string; value: number | undefined; icon: ReactNode; tint: string; testId: string };

/** One of the spec's four counters: label over the figure, so the longest label fits two to a row on a phone. */
function Counter({ label, value, icon, tint, testId }: CounterProps) {
  return (
    <div className="min-w-0 rounded-2xl border border-slate-200 bg-white p-3.5 shadow-sm sm:p-4" data-testid={testId}>
      <div className="flex items-start justify-between gap-2">
        <p className="min-w-0 text-xs font-semibold text-slate-600 sm:text-sm">{label}</p>
        <span aria-hidden="true" className={cn('flex size-8 shrink-0 items-center justify-center rounded-lg', tint)}>
          {icon}
        </span>
      </div>
      <p className="mt-1 text-2xl font-bold tracking-tight text-slate-900 tabular-nums sm:text-[1.75rem]">
        {value === undefined ? <Skeleton className="h-8 w-16" /> : formatNumber(value)}
      </p>
    </div>
  );
}

const COUNTERS: { key: keyof DiagnosticCounters; label: string; Icon: LucideIcon; tint: string }[] = [
  { key: 'administrators', label: 'Administradores', Icon: ShieldCheck, tint: 'bg-violet-100 text-violet-700' },
  { key: 'students', label: 'Estudantes', Icon: Users, tint: 'bg-indigo-100 text-indigo-700' },
  { key: 'transactions', label: 'Transações', Icon: ArrowLeftRight, tint: 'bg-sky-100 text-sky-700' },
  { key: 'logs', label: 'Logs de Debug', Icon: FileText, tint: 'bg-slate-100 text-slate-700' },
];

function Counters({ counters }: { counters: DiagnosticCounters | undefined }) {
  return (
    <section aria-label="Contadores" className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
      {COUNTERS.map(({ key, label, Icon, tint }) => (
        <Counter key={key} label={label} value={counters?.[key]} icon={<Icon className="size-4" />} tint={tint} testId={`counter-${key}`} />
      ))}
    </section>
  );
}

/** The fixes the last run found something for; each shows what it will change before changing it. */
function AvailableFixes({ fixes, disabled, onOpen }: { fixes: readonly FixId[]; disabled: boolean; onOpen: (fix: FixId) => void }) {
  if (fixes.length === 0) return null;
  return (
    <Card title="Correções disponíveis">
      <p className="mb-3 text-sm text-slate-600">
        O último diagnóstico encontrou itens que podem ser corrigidos. Cada correção mostra o que vai mudar antes de aplicar.
      </p>
      <div className="flex flex-wrap gap-2">
        {fixes.map((fix) => (
          <Button
            key={fix}
            variant="secondary"
            disabled={disabled}
            onClick={() => onOpen(fix)}
            icon={<Wrench aria-hidden="true" className="size-4" />}
          >
            {FIX_LABELS[fix]}
          </Button>
        ))}
      </div>
    </Card>
  );
}

/** /admin/debug: runs the real checks on opening, lists the stored log, offers the safe fixes. */
export default function AdminDebugPage() {
  const { user } = useSession();
  const [filter, setFilter] = useState<Filter>('all');
  const logs = useDiagnosticLogs(filter);
  const run = useRunDiagnostic();
  const fixAdmins = useFixAdministrators();
  const preview = useFixPreview();
  const applyFix = useApplyFix();
  const clear = useClearLogs();
  const [lastRun, setLastRun] = useState<DiagnosticRun | null>(null);
  const [askAdmins, setAskAdmins] = useState(false);
  const [askClear, setAskClear] = useState(false);
  const [created, setCreated] = useState<FixAdministratorsResult | null>(null);
  const [pendingFix, setPendingFix] = useState<FixPreview | null>(null);

  const running = run.isPending || fixAdmins.isPending || preview.isPending || applyFix.isPending || clear.isPending;

  const runDiagnostic = () =>
    run.mutate(undefined, { onSuccess: setLastRun, onError: (error) => toastError(error, SYSTEM_TEXTS.loadFailed) });

  // The spec runs a diagnostic on opening; the ref keeps StrictMode's second mount from running another.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    runDiagnostic();
    // Only on opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (!isStaffUser(user)) return null;

  const confirmAdmins = () =>
    fixAdmins.mutate(undefined, {
      onSuccess: (result) => {
        setAskAdmins(false);
        setLastRun(result.run);
        if (result.created) {
          toast.success(SYSTEM_TEXTS.fixApplied);
          setCreated(result);
        } else toast(SYSTEM_TEXTS.adminExists);
      },
      onError: (error) => {
        setAskAdmins(false);
        toastError(error, SYSTEM_TEXTS.fixFailed);
      },
    });

  const openFix = (fix: FixId) =>
    preview.mutate(fix, {
      onSuccess: (result) => (result.items.length === 0 ? toast(SYSTEM_TEXTS.nothingToFix) : setPendingFix(result)),
      onError: (error) => toastError(error, SYSTEM_TEXTS.fixFailed),
    });

  const confirmFix = (chosen: FixPreview) =>
    applyFix.mutate(chosen, {
      onSuccess: () => {
        setPendingFix(null);
        toast.success(SYSTEM_TEXTS.fixApplied);
        runDiagnostic();
      },
      onError: (error) => {
        setPendingFix(null);
        toastError(error, SYSTEM_TEXTS.fixFailed);
      },
    });

  const confirmClear = () =>
    clear.mutate(undefined, {
      onSuccess: (result) => {
        setAskClear(false);
        toast.success(SYSTEM_TEXTS.logsCleared(result.removed));
      },
      onError: (error) => {
        setAskClear(false);
        toastError(error);
      },
    });

  return (
    <div>
      <PageHeader icon={Bug} title="Debug & Diagnóstico" description="Verificações reais dos dados, da conexão e do sistema" />
      <div className="-mt-2 mb-6 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <Button onClick={runDiagnostic} loading={run.isPending} disabled={running} icon={<Play aria-hidden="true" className="size-4" />}>
          Executar Diagnóstico
        </Button>
        <Button
          variant="secondary"
          onClick={() => setAskAdmins(true)}
          disabled={running}
          icon={<ShieldCheck aria-hidden="true" className="size-4" />}
        >
          Corrigir Administrators
        </Button>
        <Button
          variant="secondary"
          onClick={() => setAskClear(true)}
          disabled={running}
          icon={<Trash2 aria-hidden="true" className="size-4" />}
        >
          Limpar Logs
        </Button>
      </div>

      <div className="flex flex-col gap-6">
        <Counters counters={logs.data?.counters} />
        <AvailableFixes fixes={lastRun?.fixes ?? []} disabled={running} onOpen={openFix} />
        <Card
          title="Logs"
          action={
            <span role="status" className="text-xs text-slate-600">
              {run.isPending
                ? 'Executando diagnóstico…'
                : lastRun
                  ? `Último diagnóstico: ${formatTime(lastRun.at, { seconds: true })}`
                  : ''}
            </span>
          }
        >
          <div className="mb-4">
            <CategoryChips value={filter} onChange={setFilter} />
          </div>
          {logs.isPending ? (
            <div aria-hidden="true" className="flex flex-col gap-2">
              {[0, 1, 2].map((key) => (
                <Skeleton key={key} className="h-20 rounded-xl" />
              ))}
            </div>
          ) : logs.isError ? (
            <LoadError message={SYSTEM_TEXTS.loadFailed} onRetry={() => void logs.refetch()} retrying={logs.isFetching} />
          ) : (
            <LogList logs={logs.data.logs} />
          )}
        </Card>
      </div>

      <FixAdministratorsDialog
        open={askAdmins}
        pending={fixAdmins.isPending}
        onConfirm={confirmAdmins}
        onCancel={() => setAskAdmins(false)}
      />
      <ConfirmDialog
        open={askClear}
        title="Limpar Logs"
        message="Remove todos os logs de diagnóstico guardados, em todas as instâncias. A limpeza fica registrada na auditoria."
        confirmLabel="Limpar Logs"
        pending={clear.isPending}
        onConfirm={confirmClear}
        onCancel={() => setAskClear(false)}
      />
      {pendingFix && (
        <FixPreviewDialog
          preview={pendingFix}
          pending={applyFix.isPending}
          onConfirm={() => confirmFix(pendingFix)}
          onCancel={() => setPendingFix(null)}
        />
      )}
      {created && <NewAdminPasswordDialog result={created} onClose={() => setCreated(null)} />}
    </div>
  );
}
