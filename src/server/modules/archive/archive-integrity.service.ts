import type { Db } from '../../db/client.ts';
import { archiveImages } from '../../db/schema.ts';
import type { FileStorage, StoredObject } from '../../storage/file-storage.ts';
import { storageKey, VARIANTS } from './archive-rows.ts';

export type ArchiveIntegrity = {
  /** Stored objects under archive/ that no record names. */
  orphanFiles: StoredObject[];
  /** Records whose original (or variants, when they should exist) is missing. */
  missingFiles: { id: string; fileName: string; key: string }[];
};

/** Files without records and records without files (for the diagnostics screen). */
export async function archiveIntegrity(db: Db, storage: FileStorage): Promise<ArchiveIntegrity> {
  const [objects, rows] = await Promise.all([
    storage.list('archive/'),
    db
      .select({
        id: archiveImages.id,
        fileName: archiveImages.fileName,
        fileKey: archiveImages.fileKey,
        hasVariants: archiveImages.hasVariants,
      })
      .from(archiveImages),
  ]);
  const stored = new Set(objects.map((object) => object.key));
  const expected = new Set<string>();
  const missingFiles: ArchiveIntegrity['missingFiles'] = [];
  for (const row of rows) {
    for (const variant of row.hasVariants ? VARIANTS : (['original'] as const)) {
      const key = storageKey(row.fileKey, variant);
      expected.add(key);
      if (!stored.has(key)) missingFiles.push({ id: row.id, fileName: row.fileName, key });
    }
  }
  return { orphanFiles: objects.filter((object) => !expected.has(object.key)), missingFiles };
}
