import type { Route } from '../../shared/contract/route.ts';
import { routes } from '../../shared/contract/routes.ts';

/** A route's own rate-limit budget, per signed-in user (or per address without a session), instead of the API-wide one. */
export type RouteBudget = { max: number; timeWindow: number };

const MINUTE = 60_000;
/** Answers computed from a whole period or the whole school (reports, exports, diagnostics): one every two seconds. */
const WHOLE_SCHOOL = { max: 30, timeWindow: MINUTE };
/** Lists a screen keeps live: room for their coalesced updates (one a tick) and for scrolling, not for a loop. */
const LIVE_LIST = { max: 120, timeWindow: MINUTE };
/** Thumbnails fill a page of cards: files get a budget of their own, above the API's per-user one. */
const ARCHIVE_FILES = { max: 3000, timeWindow: MINUTE };

const { reports, ledger, adminStudents, system, students, dashboard, archive } = routes;

/**
 * The routes that cost the server more than an ordinary read, each with a budget of its own (issue 33): a user
 * repeating one of them is refused there long before they could take the server's time from everyone else, and what
 * they spend there leaves their budget for the rest of the app untouched.
 */
export const ROUTE_BUDGETS: ReadonlyMap<Route, RouteBudget> = new Map<Route, RouteBudget>([
  ...[
    reports.overview,
    reports.timeline,
    reports.reasons,
    reports.export,
    reports.statement,
    reports.certificate,
    ledger.export,
    adminStudents.export,
    adminStudents.importPreview,
    system.entityExport,
    system.runDiagnostics,
  ].map((route) => [route, WHOLE_SCHOOL] as const),
  ...[students.ranking, students.summary, students.directory, adminStudents.list, dashboard.summary, ledger.liveOperations].map(
    (route) => [route, LIVE_LIST] as const,
  ),
  [archive.file, ARCHIVE_FILES],
  [archive.fileVariant, ARCHIVE_FILES],
  // A few uploads a minute per administrator is plenty; each may carry 50 files.
  [archive.upload, { max: 30, timeWindow: MINUTE }],
]);
