import { useEffect, useRef } from 'react';
import { formatTime } from '../../lib/format.ts';
import { useSchoolSettings } from '../../lib/school-settings.ts';
import { DEFAULT_TIME_ZONE } from '../../../shared/format.ts';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export type ChartSeries = {
  label: string;
  /** One value per time point; null where the instance has no sample. */
  values: readonly (number | null)[];
  color: string;
};

export type TimeChartProps = {
  title: string;
  /** Sample times in milliseconds since the epoch, oldest first. */
  times: readonly number[];
  series: readonly ChartSeries[];
  /** Formats a value on the y axis and in the legend, e.g. '12 ms'. */
  format: (value: number) => string;
};

const HEIGHT = 140;

/**
 * A small line chart of the last minutes drawn with uPlot. The canvas is hidden from
 * screen readers: the figures it shows are written out beside it (the monitoring table).
 */
export function TimeChart({ title, times, series, format }: TimeChartProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<uPlot | null>(null);
  const formatRef = useRef(format);
  const shape = series.map((item) => `${item.label}:${item.color}`).join('|');
  // The ticks fall on whole minutes and hours of the school's clock, not the device's.
  const timeZone = useSchoolSettings().data?.school.timeZone ?? DEFAULT_TIME_ZONE;

  const data = [times.map((time) => time / 1000), ...series.map((item) => [...item.values])] as uPlot.AlignedData;

  // Built once per set of series; new samples only replace the data.
  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const axisFont = '11px Inter, "Segoe UI", system-ui, sans-serif';
    const options: uPlot.Options = {
      width: Math.max(200, box.clientWidth),
      height: HEIGHT,
      legend: { show: false },
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), timeZone),
      cursor: { drag: { x: false, y: false }, points: { size: 6 } },
      scales: { x: { time: true }, y: { range: (_chart, min, max) => [Math.min(0, min), max > 0 ? max * 1.15 : 1] } },
      axes: [
        {
          stroke: '#475569',
          font: axisFont,
          grid: { stroke: '#e2e8f0', width: 1 },
          ticks: { show: false },
          values: (_chart, splits) => splits.map((split) => formatTime(new Date(split * 1000), {}, timeZone)),
          space: 48,
        },
        {
          stroke: '#475569',
          font: axisFont,
          grid: { stroke: '#e2e8f0', width: 1 },
          ticks: { show: false },
          size: 56,
          values: (_chart, splits) => splits.map((split) => formatRef.current(split)),
        },
      ],
      series: [
        {},
        ...series.map((item) => ({ label: item.label, stroke: item.color, width: 2, spanGaps: false, points: { show: false } })),
      ],
    };
    const chart = new uPlot(options, data, box);
    chartRef.current = chart;
    const observer = new ResizeObserver(() => chart.setSize({ width: Math.max(200, box.clientWidth), height: HEIGHT }));
    observer.observe(box);
    return () => {
      observer.disconnect();
      chart.destroy();
      chartRef.current = null;
    };
    // The data is handed over by the effect below; rebuilding on each sample would flicker.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shape, timeZone]);

  useEffect(() => {
    formatRef.current = format;
    chartRef.current?.setData(data);
  });

  return (
    <figure className="min-w-0 rounded-xl border border-slate-200 bg-white p-3">
      <figcaption className="mb-2 flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <span className="text-sm font-semibold text-slate-900">{title}</span>
        <span className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600">
          {series.map((item) => (
            <span key={item.label} className="inline-flex items-center gap-1.5">
              <span aria-hidden="true" className="h-0.5 w-3 rounded-full" style={{ backgroundColor: item.color }} />
              {item.label}
            </span>
          ))}
        </span>
      </figcaption>
      <div ref={boxRef} aria-hidden="true" className="w-full overflow-hidden" />
    </figure>
  );
}
