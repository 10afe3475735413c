import { RECENT_TRANSACTIONS_LIMIT } from './constants.ts';
import { areaOfLocation } from './areas.ts';
import { urlOf } from './contract/route.ts';
import { auth } from './contract/auth.ts';
import { dashboard } from './contract/dashboard.ts';
import { ledger } from './contract/ledger.ts';
import { schoolYear } from './contract/school-year.ts';
import { settings } from './contract/settings.ts';
import { students } from './contract/students.ts';
import { tags } from './contract/tags.ts';

/**
 * The API reads a signed-in page makes before its first screen shows (decision 012). The server writes their answers
 * into the page (a JSON script element, FIRST_ANSWERS_ID in constants.ts), so they come in the page's own round trip; the web's first
 * call of each URL takes its answer from there (first-answers.ts). Each is its route's address (urlOf), as the web's
 * call of the route makes it.
 */

/** Who is signed in (every page asks first, main.tsx) and the school's settings, which the layout waits for. */
const PAGE_READS = [urlOf(auth.me), urlOf(settings.read)];

/** What an area's home screen reads as it opens (its route's prefetch, which runs on the home's exact path). */
const HOME_READS = new Map<string, string[]>([
  // The dashboard's period picker lists the school's years and periods (decision 036).
  ['/admin', [urlOf(dashboard.summary), urlOf(schoolYear.list)]],
  [
    '/student',
    [urlOf(students.summary), urlOf(tags.active), urlOf(ledger.myTransactions, { query: { limit: RECENT_TRANSACTIONS_LIMIT } })],
  ],
]);

/**
 * The reads a page at this path (as the browser's location has it, before any query) starts with, named only where
 * the web is sure to ask for them as the page starts: an answer nobody takes would answer a later read of the same
 * URL with what it was when the page loaded. main.tsx asks for the session and the settings where `areaOfLocation`
 * finds an area; an area's home asks for its screen's reads on its exact path.
 */
export function firstReadsOf(pathname: string): string[] {
  if (!areaOfLocation(pathname)) return [];
  return [...PAGE_READS, ...(HOME_READS.get(pathname) ?? [])];
}
