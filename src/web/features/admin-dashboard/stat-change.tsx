import { ArrowDownRight, ArrowUpRight, Minus } from 'lucide-react';
import type { StatChange } from '../../../shared/dashboard.ts';
import { formatNumber } from '../../lib/format.ts';
import { cn } from '../../lib/cn.ts';

const percentFormat = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1, signDisplay: 'exceptZero' });
const signedNumber = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0, signDisplay: 'exceptZero' });

/** The real change of a figure against the previous period: "+12,5%", or "+40" when there was nothing before. */
export function StatChangeBadge({ change, period }: { change: StatChange; period: string }) {
  const up = change.delta > 0;
  const down = change.delta < 0;
  const Icon = up ? ArrowUpRight : down ? ArrowDownRight : Minus;
  const text = change.percent === null ? signedNumber.format(change.delta) : `${percentFormat.format(change.percent)}%`;
  return (
    <span className="flex flex-wrap items-center gap-x-1.5 gap-y-0.5">
      <span
        className={cn(
          'inline-flex items-center gap-0.5 rounded-full px-1.5 py-0.5 text-xs font-bold tabular-nums',
          up ? 'bg-emerald-50 text-emerald-800' : down ? 'bg-rose-50 text-rose-700' : 'bg-slate-100 text-slate-700',
        )}
      >
        <Icon aria-hidden="true" className="size-3.5" />
        {text}
      </span>
      <span className="text-xs text-slate-600">
        {period}
        <span className="sr-only"> (antes: {formatNumber(change.previous)})</span>
      </span>
    </span>
  );
}
