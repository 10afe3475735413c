import type { MonitoringSample } from '../../../shared/system.ts';
import { formatMs } from '../../lib/format.ts';
import { formatMegabytes, formatPercent, formatRate } from './figures.ts';
import { TimeChart, type ChartSeries } from './time-chart.tsx';

const COLORS = { indigo: '#4f46e5', amber: '#d97706', rose: '#e11d48', emerald: '#059669', sky: '#0284c7', violet: '#7c3aed' } as const;

type ChartSpec = {
  title: string;
  format: (value: number) => string;
  series: { label: string; color: string; value: (sample: MonitoringSample) => number | null }[];
};

const CHARTS: ChartSpec[] = [
  {
    title: 'Requisições e eventos por segundo',
    format: formatRate,
    series: [
      { label: 'Requisições', color: COLORS.indigo, value: (sample) => sample.requestsPerSecond },
      { label: 'Eventos ao vivo', color: COLORS.amber, value: (sample) => sample.eventsPerSecond },
    ],
  },
  {
    title: 'Latência',
    format: formatMs,
    series: [
      { label: 'p50', color: COLORS.emerald, value: (sample) => sample.latencyMs?.p50 ?? null },
      { label: 'p95', color: COLORS.amber, value: (sample) => sample.latencyMs?.p95 ?? null },
      { label: 'p99', color: COLORS.rose, value: (sample) => sample.latencyMs?.p99 ?? null },
    ],
  },
  {
    title: 'Taxa de erros (5xx)',
    format: formatPercent,
    series: [{ label: 'Erros', color: COLORS.rose, value: (sample) => sample.errorRate * 100 }],
  },
  {
    title: 'CPU e utilização do event loop',
    format: formatPercent,
    series: [
      { label: 'CPU (% de um núcleo)', color: COLORS.sky, value: (sample) => sample.cpuPercent },
      { label: 'Event loop', color: COLORS.violet, value: (sample) => sample.eventLoop.utilization * 100 },
    ],
  },
  {
    title: 'Atraso do event loop',
    format: formatMs,
    series: [
      { label: 'p50', color: COLORS.emerald, value: (sample) => sample.eventLoop.delayP50Ms },
      { label: 'p99', color: COLORS.rose, value: (sample) => sample.eventLoop.delayP99Ms },
    ],
  },
  {
    title: 'Memória',
    format: formatMegabytes,
    series: [
      { label: 'Residente (RSS)', color: COLORS.indigo, value: (sample) => sample.rssBytes },
      { label: 'Heap em uso', color: COLORS.amber, value: (sample) => sample.heapUsedBytes },
    ],
  },
];

/** The small charts of the last 15 minutes; its own chunk, so uPlot loads only when the Monitoramento tab opens. */
export default function MonitoringCharts({ samples }: { samples: readonly MonitoringSample[] }) {
  const times = samples.map((sample) => Date.parse(sample.at));
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2 2xl:grid-cols-3">
      {CHARTS.map((chart) => {
        const series: ChartSeries[] = chart.series.map((line) => ({
          label: line.label,
          color: line.color,
          values: samples.map(line.value),
        }));
        return <TimeChart key={chart.title} title={chart.title} times={times} series={series} format={chart.format} />;
      })}
    </div>
  );
}
