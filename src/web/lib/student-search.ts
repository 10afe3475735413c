import { keepPreviousData, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import type { AdminStudent } from '../../shared/admin-students.ts';
import type { Route } from '../../shared/contract/route.ts';
import { routes } from '../../shared/contract/routes.ts';
import { STUDENT_PAGE_SIZE } from '../../shared/constants.ts';
import { call } from './api.ts';
import { routeKey } from './query-keys.ts';
import { useDebounced } from './use-debounced.ts';

/*
 * Student searches ask the server (the app's one search rule runs there) a page at a time, once the typing pauses;
 * the last answer stays on screen until the next. Their keys start with the route's, so an event or a write that
 * makes the route stale reaches every page of every search.
 */

/** How long the typing pauses before a student search goes to the server. */
export const STUDENT_SEARCH_DELAY_MS = 250;

type Page<T> = { items: T[]; total: number; page: number; size: number };

/** The next page's number while the pages loaded hold fewer students than the search found. */
export function nextPage(last: Page<unknown>): number | undefined {
  return last.page * last.size < last.total ? last.page + 1 : undefined;
}

function pagesKey(route: Route, query: object): readonly unknown[] {
  return [...routeKey(route), { query }, 'pages'];
}

/** What a paged search shows: every student loaded so far, and how many the search found in all. */
function loaded<T>(data: InfiniteData<Page<T>> | undefined): { students: T[] | undefined; total: number | undefined } {
  return { students: data?.pages.flatMap((page) => page.items), total: data?.pages[0]?.total };
}

/** A student's search for classmates to send to (the server leaves the student out). */
export function useDirectorySearch(search: string) {
  const q = useDebounced(search.trim(), STUDENT_SEARCH_DELAY_MS) || undefined;
  const result = useInfiniteQuery({
    queryKey: pagesKey(routes.students.directory, { q }),
    queryFn: ({ pageParam, signal }) => call(routes.students.directory, { query: { q, page: pageParam }, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    placeholderData: keepPreviousData,
  });
  return { ...result, ...loaded(result.data), searched: q !== undefined };
}

export type StaffSearchFilter = { turma?: string; withEstelecas?: boolean };

/** The staff's search for students (pickers of Méritus, Estelecas, reports and the archive). */
export function useStaffStudentSearch(search: string, filter: StaffSearchFilter = {}, size: number = STUDENT_PAGE_SIZE.default) {
  const q = useDebounced(search.trim(), STUDENT_SEARCH_DELAY_MS) || undefined;
  const query = { q, turma: filter.turma, withEstelecas: filter.withEstelecas ? ('true' as const) : undefined, size };
  const result = useInfiniteQuery({
    queryKey: pagesKey(routes.adminStudents.list, query),
    queryFn: ({ pageParam, signal }) => call(routes.adminStudents.list, { query: { ...query, page: pageParam }, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    placeholderData: keepPreviousData,
  });
  return { ...result, ...loaded(result.data), searched: q !== undefined };
}

/** Every current student of a turma (a whole turma's award), read page by page from the staff search. */
export async function turmaStudents(turma: string): Promise<AdminStudent[]> {
  const size = STUDENT_PAGE_SIZE.max;
  const all: AdminStudent[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await call(routes.adminStudents.list, { query: { turma, page, size } });
    all.push(...answer.items);
    if (nextPage(answer) === undefined) return all;
  }
}
