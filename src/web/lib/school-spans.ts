import { useQuery } from '@tanstack/react-query';
import { routes } from '../../shared/contract/routes.ts';
import type { SchoolYear } from '../../shared/school-year.ts';
import { CURRENT, spanLabel } from '../../shared/school-year-texts.ts';
import { readOf } from './query-keys.ts';

/**
 * The school's calendar as a period's choices (decision 031), for the screens that select a year or a period (the
 * reports, the dashboard): the server turns the choice into days (`dateRangeOf()`), these only name them.
 */

/** The school's years and periods (the same read as Configurações › Ano letivo). */
export function useSchoolYears(): readonly SchoolYear[] {
  return useQuery(readOf(routes.schoolYear.list)).data?.years ?? [];
}

/** A school year chosen in a period's list: its value there, apart from the periods' ids and the presets. */
const YEAR_CHOICE = 'ano:';

/** The list's value of a year's id. */
export const yearChoice = (yearId: string) => `${YEAR_CHOICE}${yearId}`;

/** The year's id a value of the list chooses, or undefined for a period or a preset. */
export function yearOfChoice(value: string): string | undefined {
  return value.startsWith(YEAR_CHOICE) ? value.slice(YEAR_CHOICE.length) : undefined;
}

/**
 * This bimestre (or trimestre), each period of the current year (and a past one `chosen`, e.g. from a link kept from
 * then, so the list shows what the screen is of), and each year, newest first.
 */
export function schoolSpanOptions(years: readonly SchoolYear[], chosen: string): { value: string; label: string }[] {
  const current = years.find((year) => year.current);
  const kind = current?.periodKind === 'trimestre' ? 'Este trimestre' : 'Este bimestre';
  const shown = years.flatMap((year) =>
    year.periods.filter((period) => year === current || period.id === chosen).map((period) => ({ period, year })),
  );
  return [
    ...(current ? [{ value: CURRENT, label: kind }] : []),
    ...shown.map(({ period, year }) => ({ value: period.id, label: spanLabel(year.name, period.name) })),
    ...[...years].reverse().map((year) => ({ value: yearChoice(year.id), label: year.name })),
  ];
}
