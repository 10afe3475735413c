import type { ActivityDay, DashboardPeriod } from '../../../shared/dashboard.ts';
import { countOf } from '../../lib/format.ts';
import { BarChart, type BarDatum } from '../../ui/bar-chart.tsx';

// The days are the school's calendar days (YYYY-MM-DD): read at noon UTC and written in UTC, their weekday is the same in any zone.
const weekdayShort = new Intl.DateTimeFormat('pt-BR', { weekday: 'short', timeZone: 'UTC' });
const weekdayLong = new Intl.DateTimeFormat('pt-BR', { weekday: 'long', day: '2-digit', month: '2-digit', timeZone: 'UTC' });

function noonOf(date: string): Date {
  return new Date(`${date}T12:00:00Z`);
}

const dayMonth = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', timeZone: 'UTC' });
const monthShort = new Intl.DateTimeFormat('pt-BR', { month: 'short', timeZone: 'UTC' });
const monthLong = new Intl.DateTimeFormat('pt-BR', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The bars of the last 7 days: weekdays, the last one today. */
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

/**
 * The bars of a school year or period: days and weeks by their first day's number (up to 15 bars on a phone: 'dd/mm'
 * would not fit; the full date is in each bar's title and the screen reader's table), months by name.
 */
export function spanBars(bars: readonly ActivityDay[], bucket: DashboardPeriod['bucket']): BarDatum[] {
  return bars.map((bar) => {
    const noon = noonOf(bar.date);
    if (bucket === 'month') return { label: monthShort.format(noon).replace('.', ''), fullLabel: monthLong.format(noon), value: bar.count };
    const label = String(noon.getUTCDate());
    return { label, fullLabel: bucket === 'week' ? `semana de ${dayMonth.format(noon)}` : weekdayLong.format(noon), value: bar.count };
  });
}

const UNIT_WORDS = { day: 'dia', week: 'semana', month: 'mês' } as const;

/** Méritus operations per day over the last 7 days, or per day, week or month of the school period or year chosen. */
export function WeeklyActivity({ days, period }: { days: readonly ActivityDay[]; period: DashboardPeriod }) {
  const total = days.reduce((sum, day) => sum + day.count, 0);
  const span = period.label !== null;
  return (
    <div>
      <div className="mb-3 flex flex-col gap-0.5 sm:flex-row sm:items-baseline sm:justify-between sm:gap-2">
        <h3 className="text-sm font-semibold text-slate-800">{span ? 'Atividade no período' : 'Atividade semanal'}</h3>
        <p className="text-xs text-slate-600">
          {countOf(total, 'operação', 'operações')} de Méritus {span ? `em ${period.label}` : 'em 7 dias'}
        </p>
      </div>
      <BarChart
        data={span ? spanBars(days, period.bucket) : toBars(days)}
        title={
          span ? `Operações de Méritus por ${UNIT_WORDS[period.bucket]}, ${period.label}` : 'Operações de Méritus por dia, últimos 7 dias'
        }
        unit="operações"
      />
    </div>
  );
}
