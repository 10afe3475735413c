import { lazy, Suspense, type ReactNode } from 'react';
import { Server } from 'lucide-react';
import {
  MONITORING_REFRESH_MS,
  ROUTE_GROUP_LABELS,
  SYSTEM_TEXTS,
  type MonitoringSample,
  type MonitoringSnapshot,
} from '../../../shared/system.ts';
import { formatNumber, formatSize, formatTime } from '../../lib/format.ts';
import { Card } from '../../ui/card.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { useMonitoring } from './backend-queries.ts';
import { formatMs } from '../../lib/format.ts';
import { formatPercent, formatRate, formatShare } from './figures.ts';

const MonitoringCharts = lazy(() => import('./monitoring-charts.tsx'));

function latencyText(latency: MonitoringSample['latencyMs']): string {
  return latency ? `${formatMs(latency.p50)} / ${formatMs(latency.p95)} / ${formatMs(latency.p99)}` : 'sem requisições';
}

function Figure({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className="min-w-0 rounded-xl bg-slate-50 p-3">
      <dt className="text-xs font-semibold text-slate-600">{label}</dt>
      <dd className="mt-1 text-lg font-bold wrap-anywhere text-slate-900 tabular-nums">{value}</dd>
      {hint && <dd className="mt-0.5 text-xs text-slate-600">{hint}</dd>}
    </div>
  );
}

/** The newest sample as text: what the charts show, readable without them. */
function CurrentFigures({ sample, sampleSeconds }: { sample: MonitoringSample; sampleSeconds: number }) {
  return (
    <Card title="Agora">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-5" data-testid="monitoring-current">
        <Figure label="Requisições" value={formatRate(sample.requestsPerSecond)} />
        <Figure label="Taxa de erros (5xx)" value={formatShare(sample.errorRate)} />
        <Figure label="Latência p50" value={sample.latencyMs ? formatMs(sample.latencyMs.p50) : 'sem requisições'} />
        <Figure label="Latência p95" value={sample.latencyMs ? formatMs(sample.latencyMs.p95) : 'sem requisições'} />
        <Figure label="Latência p99" value={sample.latencyMs ? formatMs(sample.latencyMs.p99) : 'sem requisições'} />
        <Figure label="CPU" value={formatPercent(sample.cpuPercent)} hint="de um núcleo" />
        <Figure
          label="Atraso do event loop (p99)"
          value={formatMs(sample.eventLoop.delayP99Ms)}
          hint={`p50 ${formatMs(sample.eventLoop.delayP50Ms)} · máx. ${formatMs(sample.eventLoop.delayMaxMs)}`}
        />
        <Figure label="Utilização do event loop" value={formatShare(sample.eventLoop.utilization)} />
        <Figure label="Memória residente" value={formatSize(sample.rssBytes)} />
        <Figure label="Heap" value={formatSize(sample.heapUsedBytes)} hint={`de ${formatSize(sample.heapTotalBytes)}`} />
        <Figure label="Tamanho do banco" value={sample.databaseBytes === null ? 'indisponível' : formatSize(sample.databaseBytes)} />
        <Figure
          label="Conexões do banco em uso"
          value={`${formatNumber(sample.connections.inUse)} de ${formatNumber(sample.connections.total)}`}
          hint={`${formatNumber(sample.connections.waiting)} aguardando`}
        />
        <Figure label="Clientes ao vivo conectados" value={formatNumber(sample.liveClients)} />
        <Figure label="Eventos ao vivo" value={formatRate(sample.eventsPerSecond)} />
        <Figure label="Logins recusados" value={formatNumber(sample.failedSignIns)} hint={`nos últimos ${sampleSeconds} s`} />
      </dl>
    </Card>
  );
}

function RouteGroups({ sample }: { sample: MonitoringSample }) {
  return (
    <Card title="Por grupo de rotas">
      <div role="region" aria-label="Tabela: por grupo de rotas" tabIndex={0} className="-mx-4 overflow-x-auto sm:-mx-5">
        <table className="w-full min-w-max text-left text-sm">
          <thead className="border-y border-slate-200 bg-slate-50 text-xs font-semibold text-slate-600">
            <tr>
              <th scope="col" className="py-2.5 pr-3 pl-4 sm:pl-5">
                Grupo
              </th>
              <th scope="col" className="px-3 py-2.5 text-right">
                Requisições
              </th>
              <th scope="col" className="px-3 py-2.5 text-right">
                Latência p50 / p95 / p99
              </th>
              <th scope="col" className="py-2.5 pr-4 pl-3 text-right sm:pr-5">
                Erros (5xx)
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 tabular-nums">
            {sample.groups.map((group) => (
              <tr key={group.group}>
                <th scope="row" className="py-2.5 pr-3 pl-4 font-medium text-slate-900 sm:pl-5">
                  {ROUTE_GROUP_LABELS[group.group]}
                </th>
                <td className="px-3 py-2.5 text-right text-slate-800">{formatRate(group.requestsPerSecond)}</td>
                <td className="px-3 py-2.5 text-right text-slate-800">{latencyText(group.latencyMs)}</td>
                <td className="py-2.5 pr-4 pl-3 text-right text-slate-800 sm:pr-5">{formatShare(group.errorRate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

function Header({ snapshot, updatedAt }: { snapshot: MonitoringSnapshot; updatedAt: number }) {
  return (
    <div className="flex flex-col gap-1 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between">
      <p className="flex min-w-0 items-center gap-2 text-sm text-slate-700">
        <Server aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
        <span className="min-w-0">
          Respondido pela instância{' '}
          <span className="font-mono text-xs font-semibold break-all text-slate-900" data-testid="monitoring-instance">
            {snapshot.instance.id}
          </span>
        </span>
      </p>
      <p className="text-xs text-slate-600">
        Atualizado às {formatTime(new Date(updatedAt), { seconds: true })} · a cada {MONITORING_REFRESH_MS / 1000} s · amostras de{' '}
        {snapshot.sampleMs / 1000} s dos últimos {Math.round(snapshot.windowMs / 60_000)} min
      </p>
    </div>
  );
}

/** Monitoramento: this instance's real figures, re-read every 3 s, with charts of the last 15 minutes. */
export function MonitoringTab() {
  const monitoring = useMonitoring();
  if (monitoring.isPending) return <Skeleton className="h-96 rounded-2xl" />;
  if (monitoring.isError)
    return <LoadError message={SYSTEM_TEXTS.loadFailed} onRetry={() => void monitoring.refetch()} retrying={monitoring.isFetching} />;
  const snapshot = monitoring.data;
  const current = snapshot.current;
  return (
    <div className="flex flex-col gap-6">
      <Header snapshot={snapshot} updatedAt={monitoring.dataUpdatedAt} />
      {current ? (
        <>
          <CurrentFigures sample={current} sampleSeconds={snapshot.sampleMs / 1000} />
          <Card title={`Últimos ${Math.round(snapshot.windowMs / 60_000)} minutos`}>
            <Suspense fallback={<Skeleton className="h-48 rounded-xl" />}>
              <MonitoringCharts samples={snapshot.series} />
            </Suspense>
          </Card>
          <RouteGroups sample={current} />
        </>
      ) : (
        <Card>
          <p role="status" className="text-sm text-slate-700">
            A instância acabou de iniciar: a primeira amostra fica pronta em até {snapshot.sampleMs / 1000} s.
          </p>
        </Card>
      )}
    </div>
  );
}
