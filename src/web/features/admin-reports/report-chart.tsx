import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export type ReportSeries = { label: string; color: string; values: readonly number[] };

export type ReportChartProps = {
  /** One label per point on the x axis (days, turmas, balance ranges). */
  labels: readonly string[];
  series: readonly ReportSeries[];
  /** Lines for time, bars for categories (one series). */
  kind: 'lines' | 'bars';
  format: (value: number) => string;
  height?: number;
};

const AXIS_FONT = '11px Inter, "Segoe UI", system-ui, sans-serif';

/**
 * A chart of the reports drawn with uPlot, hidden from screen readers: the table under it
 * holds the same numbers. The x axis is the points' positions, labelled from `labels`.
 */
export function ReportChart({ labels, series, kind, format, height = 200 }: ReportChartProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const shape = `${kind}|${labels.join('|')}|${series.map((item) => `${item.label}:${item.values.join(',')}`).join('|')}`;

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const bars = uPlot.paths.bars!({ size: [0.7, 48], align: 0 });
    const options: uPlot.Options = {
      width: Math.max(240, box.clientWidth),
      height,
      legend: { show: false },
      cursor: { show: false },
      scales: {
        x: { time: false, range: (_chart, min, max) => (kind === 'bars' ? [min - 0.5, max + 0.5] : [min, max]) },
        y: { range: (_chart, _min, max) => [0, max > 0 ? max * 1.15 : 1] },
      },
      axes: [
        {
          stroke: '#475569',
          font: AXIS_FONT,
          grid: { show: false },
          ticks: { show: false },
          space: 56,
          incrs: [1, 2, 3, 5, 7, 10, 14, 30],
          values: (_chart, splits) => splits.map((split) => (Number.isInteger(split) ? (labels[split] ?? '') : '')),
        },
        {
          stroke: '#475569',
          font: AXIS_FONT,
          grid: { stroke: '#e2e8f0', width: 1 },
          ticks: { show: false },
          size: 60,
          values: (_chart, splits) => splits.map(format),
        },
      ],
      series: [
        {},
        ...series.map((item) =>
          kind === 'bars'
            ? { label: item.label, stroke: item.color, fill: `${item.color}cc`, width: 0, paths: bars, points: { show: false } }
            : { label: item.label, stroke: item.color, width: 2, points: { show: labels.length <= 31, size: 5 } },
        ),
      ],
    };
    const data = [labels.map((_label, index) => index), ...series.map((item) => [...item.values])] as uPlot.AlignedData;
    const chart = new uPlot(options, data, box);
    const observer = new ResizeObserver(() => chart.setSize({ width: Math.max(240, box.clientWidth), height }));
    observer.observe(box);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
    // `shape` holds everything drawn; format is a stable formatter of the caller.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shape, height]);

  return (
    <div>
      {series.length > 1 && (
        <p aria-hidden="true" className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
          {series.map((item) => (
            <span key={item.label} className="inline-flex items-center gap-1.5">
              <span className="h-0.5 w-3 rounded-full" style={{ backgroundColor: item.color }} />
              {item.label}
            </span>
          ))}
        </p>
      )}
      <div ref={boxRef} aria-hidden="true" className="w-full overflow-hidden" />
    </div>
  );
}
