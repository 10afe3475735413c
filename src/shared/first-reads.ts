import { RECENT_TRANSACTIONS_LIMIT } from './constants.ts';

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

/** What the area's home screen reads as it opens (its route's prefetch), by page path. */
const HOME_READS: Record<string, string[]> = {
  '/admin': [ADMIN_DASHBOARD_READ],
  '/student': [STUDENT_SUMMARY_READ, ACTIVE_TAGS_READ, recentTransactionsRead(RECENT_TRANSACTIONS_LIMIT)],
};

/** The reads a signed-in page at this path starts with: the session, the settings and, on an area's home, its screen's. */
export function firstReadsOf(pathname: string): string[] {
  return [SESSION_READ, SETTINGS_READ, ...(HOME_READS[pathname] ?? [])];
}

/** The areas' home pages, whose screens read more than the session and settings as they open. */
export const HOME_PAGES = Object.keys(HOME_READS);
