import { RECENT_TRANSACTIONS_LIMIT } from './constants.ts';
import { areaOfLocation } from './areas.ts';

/**
 * The API reads a signed-in page makes before its first screen shows (decision 012). The server names them in the
 * page's <link rel="preload" as="fetch">, so the browser asks for them while the page's code downloads; the web's
 * own requests for the same URLs (same method and credentials) then take the preloaded answers.
 */

/** Who is signed in: every page asks first (main.tsx). */
export const SESSION_READ = '/api/auth/me';
/** The school's settings: the layout waits for them before it shows a screen (school-settings.ts). */
export const SETTINGS_READ = '/api/settings';
/** The administrator's dashboard. */
export const ADMIN_DASHBOARD_READ = '/api/admin/dashboard';
/** The student dashboard: the student's summary and the weekly tags. */
export const STUDENT_SUMMARY_READ = '/api/me/summary';
export const ACTIVE_TAGS_READ = '/api/tags/active';

/** The student's latest Méritus operations. */
export function recentTransactionsRead(limit: number): string {
  return `/api/me/transactions?limit=${limit}`;
}

/** What an area's home screen reads as it opens (its route's prefetch, which runs on the home's exact path). */
const HOME_READS = new Map<string, string[]>([
  ['/admin', [ADMIN_DASHBOARD_READ]],
  ['/student', [STUDENT_SUMMARY_READ, ACTIVE_TAGS_READ, recentTransactionsRead(RECENT_TRANSACTIONS_LIMIT)]],
]);

/**
 * The reads a page at this path (as the browser's location has it, before any query) starts with, named only where
 * the web is sure to ask for them as the page starts: a preload nobody takes would answer a later read of the same
 * URL (after a sign-in, with the visitor's 401). main.tsx asks for the session and the settings where `areaOfLocation`
 * finds an area; an area's home asks for its screen's reads on its exact path.
 */
export function firstReadsOf(pathname: string): string[] {
  if (!areaOfLocation(pathname)) return [];
  return [SESSION_READ, SETTINGS_READ, ...(HOME_READS.get(pathname) ?? [])];
}
