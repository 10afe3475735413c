import { useQueries, useQuery } from '@tanstack/react-query';
import { RANKING_PAGE } from '../../../shared/constants.ts';
import { routes } from '../../../shared/contract/routes.ts';
import type { AnswerOf } from '../../../shared/contract/route.ts';
import { readOf } from '../../lib/query-keys.ts';
import type { RankingQuery } from '../../../shared/students.ts';

export type RankingAnswer = AnswerOf<typeof routes.students.ranking>;
export type RankingRow = RankingAnswer['entries'][number];

const SIZE = RANKING_PAGE.size;

/** What the ranking shows: one turma's or the school's (turma undefined), by balance or by what was earned in a year or period. */
export type RankingFilter = { turma?: string | undefined } & Pick<RankingQuery, 'by' | 'year' | 'period'>;

/** One page of the ranking, a read of its own: a live change refetches the pages on screen, not the whole school. */
const pageRead = (page: number, filter: RankingFilter) => readOf(routes.students.ranking, { query: { page, size: SIZE, ...filter } });
/** The page that holds the signed-in student's row. */
const aroundMeRead = (filter: RankingFilter) => readOf(routes.students.ranking, { query: { around: 'me', size: SIZE, ...filter } });

/**
 * What the screen opens with: the podium, the total and the student's own row, and the page around that row for a
 * student (so the jump to it lands on rows already read), the first page for staff.
 */
export function useRankingHead(ownRow: boolean, filter: RankingFilter) {
  return useQuery(ownRow ? aroundMeRead(filter) : pageRead(0, filter));
}

/** The pages that hold rows first…end (end excluded). */
export function pagesOf(first: number, end: number): number[] {
  const pages: number[] = [];
  for (let page = Math.floor(first / SIZE); page * SIZE < end; page += 1) pages.push(page);
  return pages;
}

/**
 * The rows first…end (end excluded) as far as they are read: the head's page from the head, every other page from its
 * own read, asked for as it comes into view. Returns the row at an index, or undefined while its page loads.
 */
export function useRankingRows(
  head: RankingAnswer,
  filter: RankingFilter,
  first: number,
  end: number,
): (index: number) => RankingRow | undefined {
  const pages = pagesOf(first, end).filter((page) => page !== head.page);
  const answers = useQueries({ queries: pages.map((page) => pageRead(page, filter)) });
  const byPage = new Map<number, RankingAnswer | undefined>([[head.page, head]]);
  answers.forEach((answer, index) => byPage.set(pages[index]!, answer.data));
  return (index) => byPage.get(Math.floor(index / SIZE))?.entries[index % SIZE];
}
