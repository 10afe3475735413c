/** What the recipient search looks at: name, matrícula and grade. */
export type Searchable = { name: string; studentId: string; grade: string };

/** Lower case without accents, so "joao" finds "João" and "1º em" finds "1º EM - Turma A". */
export function normalizeSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase().trim();
}

/** The spec's recipient search: name, matrícula or grade, case-insensitive; an empty query matches everyone. */
export function filterStudents<T extends Searchable>(list: readonly T[], query: string): T[] {
  const needle = normalizeSearch(query);
  if (!needle) return [...list];
  return list.filter((student) =>
    [student.name, student.studentId, student.grade].some((field) => normalizeSearch(field).includes(needle)),
  );
}
