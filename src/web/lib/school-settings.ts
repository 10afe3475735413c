import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SchoolSettings } from '../../shared/settings.ts';
import { SETTINGS_READ } from '../../shared/first-reads.ts';
import { setSchoolTimeZone } from '../../shared/format.ts';
import { api } from './api.ts';
import { takeEarlyRequest } from './early-request.ts';
import { queryKeys } from './query-keys.ts';

/**
 * GET /api/settings: the school's name, logo, time zone, rules and turmas. Every date the
 * screens write uses the school's time zone from here on (the layout waits for it); a
 * 'settings' event from the server reads everything again.
 */
export const schoolSettingsQueryOptions = queryOptions<SchoolSettings>({
  queryKey: queryKeys.settings,
  queryFn: async () => {
    const early = takeEarlyRequest(SETTINGS_READ);
    const settings = early ? ((await early) as SchoolSettings) : await api.get<SchoolSettings>(SETTINGS_READ);
    setSchoolTimeZone(settings.school.timeZone);
    return settings;
  },
  staleTime: 5 * 60_000,
});

export function useSchoolSettings() {
  return useQuery(schoolSettingsQueryOptions);
}
