import { expect, test } from 'vitest';
import { spanBars, toBars } from './weekly-activity.tsx';

test('the chart labels weekdays in Portuguese, the last day as today, and keeps empty days', () => {
  const days = ['2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21'].map((date, index) => ({
    date,
    count: index === 0 ? 0 : index * 2,
  }));
  const bars = toBars(days);
  expect(bars.map((bar) => bar.label)).toEqual(['dom', 'seg', 'ter', 'qua', 'qui', 'sex', 'Hoje']);
  expect(bars.map((bar) => bar.value)).toEqual([0, 2, 4, 6, 8, 10, 12]);
  expect(bars[6]).toMatchObject({ highlight: true, fullLabel: 'hoje, sábado, 21/11' });
  expect(bars[1]!.fullLabel).toBe('segunda-feira, 16/11');
});

test("a school period's bars: weeks by their first day's number, titled with the date; a year's months by name", () => {
  const weeks = spanBars(
    [
      { date: '2026-10-01', count: 3 },
      { date: '2026-10-05', count: 0 },
    ],
    'week',
  );
  expect(weeks).toEqual([
    { label: '1', fullLabel: 'semana de 01/10', value: 3 },
    { label: '5', fullLabel: 'semana de 05/10', value: 0 },
  ]);
  expect(spanBars([{ date: '2026-02-01', count: 7 }], 'month')).toEqual([{ label: 'fev', fullLabel: 'fevereiro de 2026', value: 7 }]);
});
