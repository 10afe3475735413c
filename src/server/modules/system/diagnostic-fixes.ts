import { and, eq, inArray, lte } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { studentTags, students } from '../../db/schema.ts';
import { TAG_NAMES, type TagKind } from '../../../shared/constants.ts';
import { DIAGNOSTIC_TEXTS } from '../../../shared/diagnostic-texts.ts';
import { formatDateTime } from '../../../shared/format.ts';
import type { FixId } from '../../../shared/system.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import type { SystemDeps } from './backend.service.ts';
import { photoIntegrity, removePhotoFile } from './photo-files.ts';

/** The fixes a check may offer: what each would change (previewed first), how it changes it, and what its log says. */

/** One thing a fix would change: `key` names it for the apply call, `label` describes it in pt-BR. */
export type Candidate = { key: string; label: string };

/** Tags past their expiry that the periodic sweep has not removed yet. */
export async function expiredTags(db: DbOrTx, settings: SettingsStore): Promise<Candidate[]> {
  // Written in the school's time zone, as every screen writes times (decision 009).
  const { timeZone } = (await settings.get()).school;
  const rows = await db
    .select({
      id: studentTags.id,
      kind: studentTags.kind,
      expiresAt: studentTags.expiresAt,
      studentId: students.studentId,
      name: students.name,
    })
    .from(studentTags)
    .innerJoin(students, eq(students.id, studentTags.studentUuid))
    .where(lte(studentTags.expiresAt, new Date()))
    .orderBy(studentTags.expiresAt, studentTags.id);
  return rows.map((row) => ({
    key: row.id,
    label: DIAGNOSTIC_TEXTS.fix.expiredTag(
      TAG_NAMES[row.kind as TagKind],
      row.name,
      row.studentId,
      formatDateTime(row.expiresAt, timeZone),
    ),
  }));
}

async function orphanPhotos(deps: SystemDeps): Promise<Candidate[]> {
  const { orphanFiles } = await photoIntegrity(deps.database.db, deps.storage);
  return orphanFiles.map((file) => ({ key: file.key, label: DIAGNOSTIC_TEXTS.fix.orphanPhoto(file.key, file.bytes) }));
}

export const FIXES: Record<
  FixId,
  { candidates(deps: SystemDeps): Promise<Candidate[]>; apply(deps: SystemDeps, chosen: Candidate[]): Promise<void>; done: string }
> = {
  expired_tags: {
    candidates: (deps) => expiredTags(deps.database.db, deps.settings),
    async apply(deps, chosen) {
      // Only tags still expired: one given again meanwhile (a new expiry) stays.
      await deps.database.db.delete(studentTags).where(
        and(
          inArray(
            studentTags.id,
            chosen.map((item) => item.key),
          ),
          lte(studentTags.expiresAt, new Date()),
        ),
      );
    },
    done: DIAGNOSTIC_TEXTS.fix.expiredTagsRemoved,
  },
  orphan_photos: {
    candidates: orphanPhotos,
    async apply(deps, chosen) {
      for (const item of chosen) await removePhotoFile(deps.storage, item.key);
    },
    done: DIAGNOSTIC_TEXTS.fix.orphanPhotosRemoved,
  },
};
