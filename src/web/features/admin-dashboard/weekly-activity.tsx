import type { ActivityDay } from '../../../shared/dashboard.ts';
import { countOf } from '../../lib/format.ts';
import { BarChart, type BarDatum } from '../../ui/bar-chart.tsx';

// The days are the school's calendar days (YYYY-MM-DD): read at noon UTC and written in UTC, their weekday is the same in any zone.
const weekdayShort = new Intl.DateTimeFormat('pt-BR', { weekday: 'short', timeZone: 'UTC' });
const weekdayLong = new Intl.DateTimeFormat('pt-BR', { weekday: 'long', day: '2-digit', month: '2-digit', timeZone: 'UTC' });

function noonOf(date: string): Date {
  return new Date(`${date}T12:00:00Z`);
}

export function toBars(days: readonly ActivityDay[]): BarDatum[] {
  return days.map((day, index) => {
    const today = index === days.length - 1;
    return {
      label: today ? 'Hoje' : weekdayShort.format(noonOf(day.date)).replace('.', ''),
      fullLabel: today ? `hoje, ${weekdayLong.format(noonOf(day.date))}` : weekdayLong.format(noonOf(day.date)),
      value: day.count,
      highlight: today,
    };
  });
}

/** Méritus operations per day over the last 7 days. */
export function WeeklyActivity({ days }: { days: readonly ActivityDay[] }) {
  const total = days.reduce((sum, day) => sum + day.count, 0);
  return (
    <div>
      <div className="mb-3 flex flex-col gap-0.5 sm:flex-row sm:items-baseline sm:justify-between sm:gap-2">
        <h3 className="text-sm font-semibold text-slate-800">Atividade semanal</h3>
        <p className="text-xs text-slate-600">{countOf(total, 'operação', 'operações')} de Méritus em 7 dias</p>
      </div>
      <BarChart data={toBars(days)} title="Operações de Méritus por dia, últimos 7 dias" unit="operações" />
    </div>
  );
}
