import type { AdminStudent } from '../../../shared/admin-students.ts';
import { normalizeSearch } from '../../lib/student-search.ts';

export const PAGE_SIZE = 50;

export type SearchIndex = { student: AdminStudent; haystack: string; tokens: string[] }[];

/** Each student's searchable text (name, matrícula, email, série), without accents, computed once per list. */
export function buildSearchIndex(list: readonly AdminStudent[]): SearchIndex {
  return list.map((student) => {
    const haystack = normalizeSearch([student.name, student.studentId, student.email ?? '', student.grade].join(' '));
    return { student, haystack, tokens: haystack.split(/[^\p{L}\p{N}]+/u).filter(Boolean) };
  });
}

/**
 * The students matching every word typed (in any of the fields) and the chosen série.
 * "ana 2º" finds Ana in the 2nd year; "joao" finds João. A one-letter word matches the start
 * of a word, so typing "j" lists the Joãos and Júlias, not everyone with a "j" somewhere.
 */
export function filterIndex(index: SearchIndex, query: string, grade: string): AdminStudent[] {
  const words = normalizeSearch(query).split(/\s+/).filter(Boolean);
  const startsAWord = (tokens: string[], letter: string) => tokens.some((token) => token.startsWith(letter));
  const result: AdminStudent[] = [];
  for (const { student, haystack, tokens } of index) {
    if (grade && student.grade !== grade) continue;
    if (words.every((word) => (word.length > 1 ? haystack.includes(word) : startsAWord(tokens, word)))) result.push(student);
  }
  return result;
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
