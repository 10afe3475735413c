import { cn } from '../lib/cn.ts';

export type BarDatum = {
  /** Short label under the bar, e.g. 'seg'. */
  label: string;
  /** Full label for screen readers and the tooltip, e.g. 'segunda-feira, 16/11'. */
  fullLabel: string;
  value: number;
  highlight?: boolean;
};

export type BarChartProps = {
  data: readonly BarDatum[];
  /** What the chart shows, e.g. 'Transações de Méritus por dia'. */
  title: string;
  /** Unit for screen readers, e.g. 'operações'. */
  unit: string;
  className?: string;
};

/**
 * A small bar chart drawn with plain elements: no chart library for a handful of bars.
 * Screen readers get a table with the same figures.
 */
export function BarChart({ data, title, unit, className }: BarChartProps) {
  const max = Math.max(1, ...data.map((datum) => datum.value));
  return (
    <figure className={cn('relative w-full', className)}>
      <div aria-hidden="true" className="flex h-36 items-end gap-1.5 sm:gap-2">
        {data.map((datum) => {
          const height = datum.value === 0 ? 0 : Math.max(4, (datum.value / max) * 100);
          return (
            <div
              key={datum.fullLabel}
              className="flex h-full min-w-0 flex-1 flex-col items-center justify-end gap-1"
              title={`${datum.fullLabel}: ${datum.value} ${unit}`}
            >
              <span className="text-xs font-semibold text-slate-700 tabular-nums">{datum.value}</span>
              <div
                className={cn(
                  'w-full max-w-12 rounded-t-md transition-[height] duration-500',
                  datum.value === 0 ? 'h-0.5 bg-slate-200' : datum.highlight ? 'bg-indigo-600' : 'bg-indigo-300',
                )}
                style={datum.value === 0 ? undefined : { height: `${height}%` }}
              />
            </div>
          );
        })}
      </div>
      <div aria-hidden="true" className="mt-1.5 flex gap-1.5 border-t border-slate-200 pt-1.5 sm:gap-2">
        {data.map((datum) => (
          <span
            key={datum.fullLabel}
            className={cn(
              'min-w-0 flex-1 truncate text-center text-xs',
              datum.highlight ? 'font-semibold text-indigo-700' : 'text-slate-600',
            )}
          >
            {datum.label}
          </span>
        ))}
      </div>
      <div className="sr-only">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Dia</th>
              <th scope="col">Quantidade</th>
            </tr>
          </thead>
          <tbody>
            {data.map((datum) => (
              <tr key={datum.fullLabel}>
                <th scope="row">{datum.fullLabel}</th>
                <td>
                  {datum.value} {unit}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
