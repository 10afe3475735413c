import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CircleAlert, CircleCheck, CircleX, Clock } from 'lucide-react';
import {
  OVERVIEW_COUNT_LABELS,
  OVERVIEW_COUNTS,
  RECORD_HEALTH_LABELS,
  RECORD_HEALTH_WARNING_BELOW,
  SYSTEM_TEXTS,
  type DiagnosticStatus,
  type RecordHealth,
  type SystemOverview,
} from '../../../shared/system.ts';
import { paths } from '../../lib/paths.ts';
import { cn } from '../../lib/cn.ts';
import { countOf, formatDateTime, formatNumber, formatSize } from '../../lib/format.ts';
import { useNow } from '../../lib/use-now.ts';
import { Badge } from '../../ui/badge.tsx';
import { Card } from '../../ui/card.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import type { Tone } from '../../ui/tone.ts';
import { useSystemOverview } from './backend-queries.ts';
import { formatMs } from '../../lib/format.ts';
import { formatDuration } from './figures.ts';

const RECORD_HEALTH_TONES: Record<RecordHealth, Tone> = { critical: 'rose', warning: 'amber', healthy: 'emerald' };

const DIAGNOSTIC_STATUS_TEXT: Record<DiagnosticStatus, string> = {
  success: 'sem problemas',
  info: 'sem problemas',
  warning: 'com avisos',
  error: 'com erros',
};

type LineState = 'ok' | 'warning' | 'error' | 'none';

const LINE_LOOK: Record<LineState, { icon: typeof CircleCheck; className: string; word: string }> = {
  ok: { icon: CircleCheck, className: 'text-emerald-700', word: 'OK' },
  warning: { icon: CircleAlert, className: 'text-amber-700', word: 'Atenção' },
  error: { icon: CircleX, className: 'text-rose-700', word: 'Problema' },
  none: { icon: Clock, className: 'text-slate-500', word: 'Sem dados' },
};

/** One line of the real health, with a word beside the icon so colour is never the only cue. */
function HealthLine({ label, state, children }: { label: string; state: LineState; children: ReactNode }) {
  const look = LINE_LOOK[state];
  return (
    <li className="flex items-start gap-3 py-3">
      <look.icon aria-hidden="true" className={cn('mt-0.5 size-5 shrink-0', look.className)} />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline gap-x-2 text-sm font-semibold text-slate-900">
          {label}
          <span className={cn('text-xs font-semibold', look.className)}>{look.word}</span>
        </p>
        <div className="mt-0.5 text-sm wrap-anywhere text-slate-600">{children}</div>
      </div>
    </li>
  );
}

function HealthCard({ overview }: { overview: SystemOverview }) {
  const { health } = overview;
  const last = health.lastDiagnostic;
  const lastState: LineState = !last ? 'none' : last.errors > 0 ? 'error' : last.warnings > 0 ? 'warning' : 'ok';
  return (
    <Card title="Saúde do sistema">
      <div className="flex flex-wrap items-center gap-2 rounded-xl bg-slate-50 p-3">
        <span className="text-sm font-semibold text-slate-800">Regra dos registros:</span>
        <Badge tone={RECORD_HEALTH_TONES[overview.recordHealth]}>{RECORD_HEALTH_LABELS[overview.recordHealth]}</Badge>
        <span className="text-xs text-slate-600">
          {formatNumber(overview.totalRecords)} registros no total (crítico com 0, atenção abaixo de {RECORD_HEALTH_WARNING_BELOW})
        </span>
      </div>
      <ul className="divide-y divide-slate-100" aria-label="Saúde real">
        <HealthLine label="Banco de dados" state={health.database.ok ? 'ok' : 'error'}>
          {health.database.ok ? `Respondeu em ${formatMs(health.database.roundTripMs)}` : health.database.detail}
        </HealthLine>
        <HealthLine label="Migrações" state={health.migrations.ok ? 'ok' : 'error'}>
          {health.migrations.detail}
        </HealthLine>
        <HealthLine label="Espaço livre em disco" state={health.disk.ok ? 'ok' : 'warning'}>
          {health.disk.detail} <span className="font-mono text-xs break-all">({health.disk.path})</span>
        </HealthLine>
        <HealthLine label="Armazenamento de arquivos" state={health.storage.ok ? 'ok' : 'error'}>
          {health.storage.detail}
        </HealthLine>
        <HealthLine label="Último diagnóstico" state={lastState}>
          {last ? (
            <>
              {formatDateTime(last.at)}, {DIAGNOSTIC_STATUS_TEXT[last.status]} ({countOf(last.errors, 'erro', 'erros')},{' '}
              {countOf(last.warnings, 'aviso', 'avisos')}).{' '}
            </>
          ) : (
            'Nenhum diagnóstico executado. '
          )}
          <Link to={paths.admin.debug} className="font-semibold text-indigo-700 underline-offset-2 hover:underline">
            Abrir Debug & Diagnóstico
          </Link>
        </HealthLine>
      </ul>
    </Card>
  );
}

/** Time since this instance started, ticking every second. */
function Uptime({ startedAt }: { startedAt: string }) {
  const now = useNow(1000);
  return <>{formatDuration((now.getTime() - new Date(startedAt).getTime()) / 1000)}</>;
}

function InstanceCard({ overview }: { overview: SystemOverview }) {
  const rows: [string, ReactNode][] = [
    ['Versão do Méritus', overview.versions.app],
    ['Node.js', overview.versions.node],
    ['Banco de dados', overview.versions.database],
    ['Modo do banco', overview.databaseMode === 'pglite' ? 'Embutido (PGlite)' : 'Servidor (PostgreSQL)'],
    ['Instância', <span className="font-mono text-xs break-all">{overview.instance.id}</span>],
    ['Iniciada em', formatDateTime(overview.instance.startedAt)],
    ['Tempo ativo', <Uptime startedAt={overview.instance.startedAt} />],
  ];
  return (
    <Card title="Versões e instância">
      <dl className="divide-y divide-slate-100 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex items-baseline justify-between gap-4 py-2">
            <dt className="shrink-0 text-slate-600">{label}</dt>
            <dd className="min-w-0 text-right font-medium text-slate-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

function CountsCard({ overview }: { overview: SystemOverview }) {
  return (
    <Card title="Registros por entidade">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-5" data-testid="overview-counts">
        {OVERVIEW_COUNTS.map((key) => (
          <div key={key} className="rounded-xl bg-slate-50 p-3">
            <dt className="text-xs font-semibold text-slate-600">{OVERVIEW_COUNT_LABELS[key]}</dt>
            <dd className="mt-1 text-xl font-bold text-slate-900 tabular-nums" data-testid={`count-${key}`}>
              {formatNumber(overview.counts[key] ?? 0)}
              {key === 'images' && <span className="ml-1.5 text-xs font-medium text-slate-600">({formatSize(overview.imageBytes)})</span>}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** Visão Geral: record counts, the spec's health rule beside the real health, versions and this instance. */
export function OverviewTab() {
  const overview = useSystemOverview();
  if (overview.isPending) {
    return (
      <div aria-hidden="true" className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Skeleton className="h-96 rounded-2xl lg:col-span-2" />
        <Skeleton className="h-96 rounded-2xl" />
      </div>
    );
  }
  if (overview.isError)
    return <LoadError message={SYSTEM_TEXTS.loadFailed} onRetry={() => void overview.refetch()} retrying={overview.isFetching} />;
  const data = overview.data;
  return (
    <div className="flex flex-col gap-6">
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <HealthCard overview={data} />
        </div>
        <InstanceCard overview={data} />
      </div>
      <CountsCard overview={data} />
    </div>
  );
}
