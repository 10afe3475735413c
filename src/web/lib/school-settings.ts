import { queryOptions, useQuery } from '@tanstack/react-query';
import { routes } from '../../shared/contract/routes.ts';
import { setSchoolTimeZone } from '../../shared/format.ts';
import { takeEarlyRequest } from './early-request.ts';
import { apiClientOf, queryKeyOf } from './query-keys.ts';

/**
 * GET /api/settings: the school's name, logo, time zone, rules and turmas. Every date the
 * screens write uses the school's time zone from here on (the layout waits for it); a
 * 'settings' event from the server reads everything again.
 */
export const schoolSettingsQueryOptions = queryOptions({
  queryKey: queryKeyOf(routes.settings.read),
  queryFn: async ({ client }) => {
    const settings = await (takeEarlyRequest(routes.settings.read) ?? apiClientOf(client).call(routes.settings.read));
    setSchoolTimeZone(settings.school.timeZone);
    return settings;
  },
  staleTime: 5 * 60_000,
});

export function useSchoolSettings() {
  return useQuery(schoolSettingsQueryOptions);
}

/**
 * The turmas a choice offers (a filter, a picker, 'Turma inteira'): the active ones, and a retired one only where `kept`
 * says a record still has it or it is chosen already. A retired turma leaves every list of choices; it stays where
 * history shows it (a student's turma, the reports).
 */
export function offeredTurmas<T extends { retired?: boolean }>(turmas: readonly T[], kept: (turma: T) => boolean = () => false): T[] {
  return turmas.filter((turma) => !turma.retired || kept(turma));
}
