import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { keyOfAddress, type FileStorage } from '../../storage/file-storage.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import type { ReportPeriodView, ResolvedPeriod } from '../../../shared/reports.ts';

/** What the reports need of the school: its calendar's time zone, its name and logo (certificates) and its turmas, in order. */
export type ReportSchool = { timeZone: string; name: string; logoUrl: string | null; turmas: { id: string; name: string }[] };

/**
 * A report's filters resolved against the school: calendar days, instants' time zone, the chosen turmas (null: every
 * one), the member of the staff whose operations count (null: everyone's). For a teacher the school's turmas are theirs
 * only, and none chosen means all of theirs (possibly none).
 */
export type ReportScope = {
  period: ResolvedPeriod;
  turmas: ReportSchool['turmas'] | null;
  school: ReportSchool;
  authorId: string | null;
  view: ReportPeriodView;
};

/**
 * The one place the reports read the school's settings from. Retired turmas stay in the list:
 * they keep their students and history, so a report may still ask for them.
 */
export async function reportSchool(store: SettingsStore): Promise<ReportSchool> {
  const settings = await store.get();
  return {
    timeZone: settings.school.timeZone,
    name: settings.school.name,
    logoUrl: settings.school.logoUrl,
    turmas: settings.turmas.map(({ id, name }) => ({ id, name })),
  };
}

/**
 * The school's logo as PNG for a PDF (PDFKit draws PNG and JPEG; the logo is stored as WebP),
 * or null when there is none or its file is gone.
 */
export async function schoolLogoPng(storage: FileStorage, logoUrl: string | null): Promise<Buffer | null> {
  const key = logoUrl === null ? null : keyOfAddress(logoUrl);
  const stored = key === null ? null : await storage.read(key);
  return stored === null
    ? null
    : sharp(await buffer(stored.body))
        .png()
        .toBuffer();
}
