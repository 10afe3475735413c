import type { AdminStudent } from '../../../shared/admin-students.ts';
import { STUDENT_PAGE_SIZE } from '../../../shared/constants.ts';

/** Students per page of the list; the server searches and pages (GET /api/admin/students). */
export const PAGE_SIZE = STUDENT_PAGE_SIZE.default;

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
