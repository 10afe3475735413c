import type { AdminStudent } from '../../../shared/admin-students.ts';
import { studentMatcher } from '../../../shared/student-match.ts';

export const PAGE_SIZE = 50;

/**
 * The list's filter, prepared once per list: the app's one student search (name, matrícula,
 * email, série) narrowed to the chosen série.
 */
export function studentsFilter(list: readonly AdminStudent[]): (query: string, grade: string) => AdminStudent[] {
  const search = studentMatcher(list);
  return (query, grade) => search(query).filter((student) => !grade || student.grade === grade);
}

/** Tags still running at `now`; an expired tag stops counting at once, before any refetch or sweep. */
export function runningTags(student: AdminStudent, now: number): AdminStudent['tags'] {
  return student.tags.filter((tag) => new Date(tag.expiresAt).getTime() > now);
}

/** The next moment a shown tag expires, or null. */
export function nextExpiry(list: readonly AdminStudent[], now: number): number | null {
  let next: number | null = null;
  for (const student of list) {
    for (const tag of student.tags) {
      const at = new Date(tag.expiresAt).getTime();
      if (at > now && (next === null || at < next)) next = at;
    }
  }
  return next;
}
