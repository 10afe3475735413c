import type { Area } from '../../shared/areas.ts';
import { GUARDIAN_SIGNUP_PATH, MAIL_UNSUBSCRIBE_PATH, SIGN_IN_PATH } from '../../shared/constants.ts';

/** Every route of the app, written once. */
export const paths = {
  root: '/',
  login: SIGN_IN_PATH,
  /** Public, linked from the login (decision 030). */
  privacy: '/privacidade',
  /** Public: a guardian's first access with the code of the school's letter (decision 037). */
  guardianSignup: GUARDIAN_SIGNUP_PATH,
  /** Public: the weekly summary's one-click opt-out, opened from the email's signed link (decision 038). */
  weeklySummaryOff: MAIL_UNSUBSCRIBE_PATH,
  student: {
    home: '/student',
    profile: '/student/profile',
    transfer: '/student/transfer',
    estelecas: '/student/estelecas',
    store: '/student/loja',
    ranking: '/student/ranking',
    recentOperations: '/student/recent-operations',
    /** A transfer's Comprovante: receiptPath(code). */
    receipt: '/student/comprovante',
    howToEarn: '/student/como-ganhar',
    hallOfFame: '/student/hall-da-fama',
  },
  admin: {
    home: '/admin',
    students: '/admin/students',
    meritus: '/admin/meritus',
    estelecas: '/admin/estelecas',
    store: '/admin/loja',
    ranking: '/admin/ranking',
    recentOperations: '/admin/recent-operations',
    backend: '/admin/backend',
    database: '/admin/database',
    debug: '/admin/debug',
    reports: '/admin/reports',
    hallOfFame: '/admin/hall-da-fama',
    settings: '/admin/settings',
    /** The rollover's wizard (issue 38), opened from Configurações › Ano letivo. */
    yearRollover: '/admin/virada-do-ano',
    /** The member's own account (their name), opened from their name at the top of the sidebar. */
    profile: '/admin/profile',
  },
  /** The family area (decision 037): a guardian's children. */
  familia: {
    home: '/familia',
  },
} as const;

/** Who is signed in: each role has the signed-in area of the same name (shared/areas.ts). */
export type Role = Area;

/** The sidebar's order of entries per role: the spec's, with Relatórios and Configurações before the Sistema group (issue 36). */
export const navOrder: Record<Role, readonly string[]> = {
  student: [
    paths.student.home,
    paths.student.profile,
    paths.student.transfer,
    paths.student.estelecas,
    paths.student.store,
    paths.student.ranking,
    paths.student.hallOfFame,
    paths.student.recentOperations,
    paths.student.howToEarn,
  ],
  admin: [
    paths.admin.home,
    paths.admin.students,
    paths.admin.meritus,
    paths.admin.estelecas,
    paths.admin.store,
    paths.admin.ranking,
    paths.admin.hallOfFame,
    paths.admin.recentOperations,
    paths.admin.reports,
    paths.admin.settings,
    paths.admin.backend,
    paths.admin.database,
    paths.admin.debug,
  ],
  familia: [paths.familia.home],
};

/** The Comprovante of the transfer with this short code (receipt-code.ts). */
export function receiptPath(code: string): string {
  return `${paths.student.receipt}?codigo=${encodeURIComponent(code)}`;
}

export function homePath(role: Role): string {
  return paths[role].home;
}
