/** Business constants from the spec (sections 9 of both documents). */
export const MERITUS_GOAL = 2000;

/** Students per page of a student search: the screens ask for `default`, nobody gets more than `max`. */
export const STUDENT_PAGE_SIZE = { default: 50, max: 100 } as const;
export const ESTELECAS_BAR_SCALE = 100;
export const ESTELECAS_ACHIEVEMENTS = [
  { threshold: 1, name: 'Primeira Esteleca' },
  { threshold: 50, name: 'Colecionador' },
  { threshold: 100, name: 'Mestre das Estelecas' },
] as const;

/** Largest amount a single operation may move; keeps typos like 100000 from emptying the school. */
export const MAX_OPERATION_AMOUNT = 100_000;

export const RECENT_TRANSACTIONS_LIMIT = 5;
export const ESTELECAS_HISTORY_LIMIT = 20;
export const ADMIN_RECENT_OPERATIONS_LIMIT = 10;
export const ADMIN_ESTELECAS_HISTORY_LIMIT = 50;
export const ESTELECAS_TOP_LIMIT = 10;

export const WEEKLY_TAG_DAYS = 7;
export const TAG_DURATION_MIN_DAYS = 1;
export const TAG_DURATION_MAX_DAYS = 365;
export const EXPIRED_TAG_SWEEP_MS = 5 * 60 * 1000;

export const TOAST_DURATION_MS = 3000;
/**
 * GET /api/ranking answers a page of rows at a time: `size` rows from `page * size`, 50 unless asked (at most 100).
 * The page number is capped too, far beyond any school, so a hostile number is refused rather than computed.
 */
export const RANKING_PAGE = { size: 50, maxSize: 100, maxPage: 100_000 } as const;
/** Rows of the podium, in every ranking answer. */
export const RANKING_PODIUM = 3;

export const CLIENT_THROTTLE = { maxIdentical: 4, windowMs: 1000 } as const;
/** The id of a signed-in page's element holding its first reads' answers by URL (first-reads.ts, decision 012). */
export const FIRST_ANSWERS_ID = 'first-answers';
/** The header on every answer of the server naming the build of the front end it serves (a hash of its index.html). */
export const BUILD_HEADER = 'X-Meritus-Build';
/** The page's meta element the server writes that same build into, for the page's code to compare with the header. */
export const BUILD_META = 'meritus-build';

/** The sign-in page (the web's paths.login), where a refused sign-in with a school account comes back (school-accounts.ts). */
export const SIGN_IN_PATH = '/login';
/** A guardian's first access with a letter's code (decision 037): public; the letters print it and its QR code. */
export const GUARDIAN_SIGNUP_PATH = '/responsaveis';
/** The public page the weekly summary's signed link opens (decision 038): here, not with the mail's texts, which the login's first load must not carry. */
export const MAIL_UNSUBSCRIBE_PATH = '/emails/resumo-semanal';
/** The query parameter of SIGN_IN_PATH that names why a sign-in with a school account was refused. */
export const SIGN_IN_REFUSAL_PARAM = 'error';

/** Fallback polling intervals, used only while the live event stream is down. */
export const POLL_MS = {
  dashboard: 30_000,
  sidebarEstelecas: 30_000,
  profileTags: 3_000,
  profileFullReload: 15_000,
  adminLive: 8_000,
} as const;

export const LIVE_BADGE_CLEAR_MS = 5_000;

export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

/**
 * Sign-in throttling: failed sign-ins (never successful ones) counted in sliding windows.
 * A school signs in from one address, where classmates know each other's matrículas, so
 * no single address may lock an account for everyone: one account from one address is
 * held to the pace of a guesser (10 in any 15 minutes, so at most 40 an hour), one
 * account is closed everywhere only past what one address can reach, and one address is
 * closed for every account only past what a whole school's typing mistakes reach.
 */
export const LOGIN_LIMITS = {
  perAccountAndAddress: { max: 10, windowMs: 15 * 60 * 1000 },
  perAccount: { max: 100, windowMs: 60 * 60 * 1000 },
  perAddress: { max: 300, windowMs: 15 * 60 * 1000 },
} as const;

export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
/** The largest canvas a photo or logo may have: decompression bombs (a tiny file claiming a gigantic canvas) are refused before decoding. */
export const PHOTO_MAX_PIXELS = 40_000_000;
/** The largest canvas of an archive image that is decoded (thumbnails, metadata removal): decompression bombs and the server's memory. */
export const ARCHIVE_MAX_PIXELS = 100_000_000;
/** The most students one bulk operation takes: a school's whole roll, several times over. */
export const BULK_MAX_STUDENTS = 5000;
export const PHOTO_URL_CHECK_MS = 5_000;

export const GRADES = [
  '1º EM - Turma A',
  '1º EM - Turma B',
  '1º EM - Turma C',
  '1º EM - Turma D',
  '2º EM - Turma A',
  '2º EM - Turma B',
  '2º EM - Turma C',
  '2º EM - Turma D',
  '3º EM - Turma A',
  '3º EM - Turma B',
  '3º EM - Turma C',
  '3º EM - Turma D',
] as const;
export type Grade = (typeof GRADES)[number];

export const TAG_KINDS = ['leader', 'counselor', 'angel'] as const;
export type TagKind = (typeof TAG_KINDS)[number];
export const TAG_NAMES: Record<TagKind, string> = {
  leader: 'Líder da Semana',
  counselor: 'Conselheiro da Semana',
  angel: 'Anjo da Semana',
};

/** Length of the window the "change" lines of the student screens look back over. */
export const CHANGE_WINDOW_DAYS = 7;
