import type { Db } from '../../db/client.ts';
import { readSchoolSettings } from '../settings/settings.service.ts';

/** What the reports need of the school: its calendar's time zone, its name (certificates) and its turmas. */
export type ReportSchool = { timeZone: string; name: string; turmas: string[] };

/**
 * The one place the reports read the school's settings from. Retired turmas stay in the list:
 * they keep their students and history, so a report may still ask for them.
 */
export async function reportSchool(db: Db): Promise<ReportSchool> {
  const settings = await readSchoolSettings(db);
  return { timeZone: settings.school.timeZone, name: settings.school.name, turmas: settings.turmas.map((turma) => turma.name) };
}

/** Today's calendar day (aaaa-mm-dd) in a time zone. */
export function todayIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
