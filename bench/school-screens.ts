/**
 * The screens bench:school-day keeps open, each with the reads its components make (the same readOf calls, limits and
 * fallback intervals as the pages), plus the signed-in layout's: the session (useSession in the sidebar) and the
 * school's settings. Reads that poll only while the event stream is down say so in `fallbackMs`.
 */
import { ESTELECAS_HISTORY_LIMIT, POLL_MS, RANKING_PAGE, RECENT_TRANSACTIONS_LIMIT } from '../src/shared/constants.ts';
import { routes } from '../src/shared/contract/routes.ts';
import { readOf } from '../src/web/lib/query-keys.ts';
import { schoolSettingsQueryOptions } from '../src/web/lib/school-settings.ts';
import { sessionQueryOptions } from '../src/web/lib/session.ts';
import { LIVE_FEED_LIMIT } from '../src/web/features/live-operations/live-operations-queries.ts';
import { PAGE_SIZE } from '../src/web/features/admin-students/students-filter.ts';
import type { Screen, ScreenRead } from './school-clients.ts';

const { students, ledger, tags, dashboard, adminStudents } = routes;

/** A read's options (readOf, or the app's query options) as an observer of any answer takes them. */
type AnyRead = { queryKey: readonly unknown[]; queryFn?: unknown; staleTime?: unknown };
/** useLiveQuery(read, fallbackMs): polled only while the stream is down. */
const live = (read: AnyRead, fallbackMs: number): ScreenRead => ({ options: read as ScreenRead['options'], fallbackMs });
/** useQuery(read): read on open and when invalidated, never polled. */
const plain = (read: AnyRead): ScreenRead => ({ options: read as ScreenRead['options'], fallbackMs: false });

/** AppLayout: useSession({ refetchInterval: live ? false : sidebarEstelecas }) and useSchoolSettings(). */
const layout = (sessionFallbackMs: number = POLL_MS.sidebarEstelecas): ScreenRead[] => [
  live(sessionQueryOptions, sessionFallbackMs),
  plain(schoolSettingsQueryOptions),
];

export const STUDENT_SCREENS: Screen[] = [
  {
    // StudentDashboardPage: the summary, ActiveTagsPanel, the latest transactions.
    name: 'student dashboard',
    role: 'student',
    reads: [
      ...layout(),
      live(readOf(students.summary), POLL_MS.dashboard),
      live(readOf(tags.active), POLL_MS.dashboard),
      live(readOf(ledger.myTransactions, { query: { limit: RECENT_TRANSACTIONS_LIMIT } }), POLL_MS.dashboard),
    ],
  },
  // RankingScreen: useRankingHead(true), the page around the student's own row (the rows on screen are in it).
  {
    name: 'ranking',
    role: 'student',
    reads: [...layout(), plain(readOf(students.ranking, { query: { around: 'me', size: RANKING_PAGE.size } }))],
  },
  // StudentTransferPage: the RecipientPicker's useDirectorySearch(''), its first page before anything is typed.
  { name: 'transfer', role: 'student', reads: [...layout(), plain(readOf(students.directory, { query: { page: 1 } }))] },
  {
    // StudentEstelecasPage: the summary (sidebarEstelecas) and EstelecasHistory.
    name: 'Estelecas',
    role: 'student',
    reads: [
      ...layout(),
      live(readOf(students.summary), POLL_MS.sidebarEstelecas),
      live(readOf(ledger.myEstelecas, { query: { limit: ESTELECAS_HISTORY_LIMIT } }), POLL_MS.sidebarEstelecas),
    ],
  },
  {
    // StudentProfilePage: useSession({ refetchInterval: profileFullReload }), the summary, the own tags (useActiveTags).
    name: 'profile',
    role: 'student',
    reads: [
      ...layout(POLL_MS.profileFullReload),
      live(readOf(students.summary), POLL_MS.profileFullReload),
      live(readOf(tags.active), POLL_MS.profileTags),
    ],
  },
];

export const STAFF_SCREENS: Screen[] = [
  // AdminDashboardPage: useDashboardSummary().
  { name: 'staff dashboard', role: 'staff', reads: [...layout(), live(readOf(dashboard.summary), POLL_MS.dashboard)] },
  // LiveOperationsPage: useLiveOperations(false).
  {
    name: 'live operations',
    role: 'staff',
    reads: [...layout(), live(readOf(ledger.liveOperations, { query: { limit: LIVE_FEED_LIMIT } }), POLL_MS.adminLive)],
  },
  // AdminStudentsPage: useAdminStudents() on its first page (the turmas come from the layout's settings).
  {
    name: 'student list',
    role: 'staff',
    reads: [...layout(), live(readOf(adminStudents.list, { query: { page: 1, size: PAGE_SIZE } }), POLL_MS.dashboard)],
  },
];

/** What the student dashboard reads right after a sign-in (prefetchStudentDashboard and the layout; the session comes with the login's answer). */
export const SIGN_IN_SCREEN = STUDENT_SCREENS[0]!;
