/**
 * The school year's words the screens need without the schema library (the admin area's home screen loads without zod):
 * school-year.ts re-exports them for everyone else.
 */

/** A query's `year=` / `period=` value naming the year or period that contains today. */
export const CURRENT = 'atual';

/**
 * How a report, an export or a document names a chosen year or period: '1º bimestre de 2026' when the year's name ends
 * in its number ('Ano letivo 2026'), else '1º bimestre do Ano letivo 2026/27'; a whole year by its name.
 */
export function spanLabel(yearName: string, periodName: string | null): string {
  if (periodName === null) return yearName;
  const number = /(\d{4})$/.exec(yearName)?.[1];
  return number ? `${periodName} de ${number}` : `${periodName} do ${yearName}`;
}
