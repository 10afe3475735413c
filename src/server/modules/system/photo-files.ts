import { isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { students } from '../../db/schema.ts';
import type { FileStorage } from '../../storage/file-storage.ts';

/** The upload folders that hold student photos (uploaded ones and the demo's avatars); other features keep their own. */
const PHOTO_FOLDERS = ['students', 'avatars'] as const;
const PUBLIC_PREFIX = '/uploads/';
/**
 * A photo is stored before its student row points at it: a file younger than this may be
 * an upload in progress, so it is never called an orphan.
 */
export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;

export type StoredFile = { key: string; bytes: number; modifiedAt: Date };

/** Every photo file in the storage (local folder or bucket), by its key ("students/<uuid>/<name>.webp"). */
export async function photoFiles(storage: FileStorage): Promise<StoredFile[]> {
  const lists = await Promise.all(PHOTO_FOLDERS.map((folder) => storage.list(`${folder}/`)));
  return lists.flat().map((object) => ({ key: object.key, bytes: object.size, modifiedAt: object.modifiedAt }));
}

/** The storage key of a photo address this server stores, or null (external addresses, other folders). */
function photoKeyOf(address: string): string | null {
  const plain = address.split('?')[0]!;
  if (!plain.startsWith(PUBLIC_PREFIX)) return null;
  const key = plain.slice(PUBLIC_PREFIX.length);
  return PHOTO_FOLDERS.some((folder) => key.startsWith(`${folder}/`)) && !key.includes('..') ? key : null;
}

/** A thumbnail belongs to the photo beside it. */
function ownerKey(key: string): string {
  return key.replace(/\.thumb\.webp$/, '.webp');
}

export type PhotoIntegrity = {
  files: StoredFile[];
  /** Files no student points at (older than ORPHAN_MIN_AGE_MS). */
  orphanFiles: StoredFile[];
  /** Students whose stored photo address has no file. */
  missingFiles: { studentUuid: string; studentId: string; photoUrl: string }[];
};

/** Compares the photo files with the students' photo addresses, both ways. */
export async function photoIntegrity(db: Db, storage: FileStorage, now = Date.now()): Promise<PhotoIntegrity> {
  const [files, rows] = await Promise.all([
    photoFiles(storage),
    db
      .select({ id: students.id, studentId: students.studentId, photoUrl: students.photoUrl })
      .from(students)
      .where(isNotNull(students.photoUrl)),
  ]);
  const referenced = new Set<string>();
  const present = new Set(files.map((file) => file.key));
  const missingFiles: PhotoIntegrity['missingFiles'] = [];
  for (const row of rows) {
    const key = photoKeyOf(row.photoUrl!);
    if (key === null) continue;
    referenced.add(key);
    if (!present.has(key)) missingFiles.push({ studentUuid: row.id, studentId: row.studentId, photoUrl: row.photoUrl! });
  }
  const orphanFiles = files.filter((file) => !referenced.has(ownerKey(file.key)) && now - file.modifiedAt.getTime() >= ORPHAN_MIN_AGE_MS);
  return { files, orphanFiles, missingFiles };
}

/** Deletes one photo file by its key; the caller has checked it is an orphan. */
export async function removePhotoFile(storage: FileStorage, key: string): Promise<void> {
  if (!PHOTO_FOLDERS.some((folder) => key.startsWith(`${folder}/`))) throw new Error(`not a photo key: ${key}`);
  await storage.delete(key);
}
