import type { SessionUser } from './auth.ts';

/** The signed-in areas of the web app, each under a path of its own: /student/…, /admin/…, /familia/…. */
export const AREAS = ['student', 'admin', 'familia'] as const;
export type Area = (typeof AREAS)[number];

/** The area a page's path is in (/student, /student/ranking; not /studentx), or null. */
export function areaOfPath(pathname: string): Area | null {
  return AREAS.find((area) => pathname === `/${area}` || pathname.startsWith(`/${area}/`)) ?? null;
}

/** The area a page starts in, read from its location's path as the browser has it (not decoded): main.tsx's rule. */
export function areaOfLocation(locationPath: string): Area | null {
  return areaOfPath(locationPath.toLowerCase());
}

/** A signed-in member of the staff (coordination or teacher), who works in the admin area. */
export type StaffUser = Exclude<SessionUser, { role: 'student' | 'guardian' }>;

export function isStaffUser(user: SessionUser | null | undefined): user is StaffUser {
  return user != null && user.role !== 'student' && user.role !== 'guardian';
}

/** The area a signed-in user works in: students in /student, the whole staff in /admin, guardians in /familia. */
export function areaOfUser(user: SessionUser): Area {
  if (user.role === 'student') return 'student';
  return user.role === 'guardian' ? 'familia' : 'admin';
}
