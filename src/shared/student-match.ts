/**
 * The one search rule of the app: what a person types is split into words, and a row
 * matches when it holds every word, ignoring case and accents ("joao" finds "João",
 * "ana 2º" finds Ana in the 2nd year, "2024012" finds the matrícula).
 */

/** Lower case without accents: "João Araújo" → "joao araujo". */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** The folded words of a text: runs of letters and digits ("1º EM - Turma A" → 1º, em, turma, a). */
function wordsOf(text: string): string[] {
  return foldText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** A row's searchable words, in the order of its fields; built once per row. */
export type SearchTarget = readonly string[];

export function searchTarget(fields: readonly (string | null | undefined)[]): SearchTarget {
  return wordsOf(fields.filter(Boolean).join(' '));
}

/** The words of a query; a blank query has none and matches everything. */
export const queryWords: (query: string) => string[] = wordsOf;

/**
 * Every word typed is found in a word of the row. A single letter is where a person is
 * still typing the next word: typed first it starts any word ("j" lists the Joãos and
 * Júlias, not everyone with a "j" somewhere); after another word it starts the word that
 * follows it ("turma a" is Turma A, not Turma B with an Ana in it; "joao a" is João Araújo).
 */
export function matchesWords(target: SearchTarget, words: readonly string[]): boolean {
  let previous: number[] | null = null;
  for (const word of words) {
    const found: number[] = [];
    target.forEach((part, at) => {
      const hit = word.length > 1 ? part.includes(word) : part.startsWith(word) && (previous === null || previous.includes(at - 1));
      if (hit) found.push(at);
    });
    if (found.length === 0) return false;
    previous = found;
  }
  return true;
}

/** What a student search looks at: name, matrícula, turma, and the email where the list has it. */
export type MatchableStudent = { name: string; studentId: string; grade: string; email?: string | null };

/**
 * Prepares a list of students for searching (once per list, so 2,000 students filter in
 * a few milliseconds) and returns the search: the students matching every word, in list order.
 */
export function studentMatcher<T extends MatchableStudent>(list: readonly T[]): (query: string) => T[] {
  const index = list.map((student) => ({ student, target: searchTarget([student.name, student.studentId, student.grade, student.email]) }));
  return (query) => {
    const words = queryWords(query);
    if (words.length === 0) return [...list];
    return index.filter((entry) => matchesWords(entry.target, words)).map((entry) => entry.student);
  };
}

type Party = { name: string; studentId: string } | null;

/** An operation (ledger row or live-feed row) holds every word in its description, actor, or either party's name or matrícula. */
export function operationMatches(
  operation: { description: string; actorName: string; from: Party; to: Party },
  words: readonly string[],
): boolean {
  if (words.length === 0) return true;
  const { description, actorName, from, to } = operation;
  return matchesWords(searchTarget([description, actorName, from?.name, from?.studentId, to?.name, to?.studentId]), words);
}
