import type { SessionUser } from '../../shared/auth.ts';
import { isStaffUser } from '../../shared/areas.ts';
import type { Permission } from '../../shared/permissions.ts';
import { useSession } from './session.ts';

/**
 * Whether the signed-in member of the staff has a permission, as GET /api/auth/me states it (their role under the
 * school's rules). The screens hide what a member lacks; the server refuses it whatever the screen shows.
 */
export function hasStaffPermission(user: SessionUser | null, permission: Permission): boolean {
  return isStaffUser(user) && user.admin.permissions.includes(permission);
}

export function useStaffPermission(permission: Permission): boolean {
  return hasStaffPermission(useSession().user, permission);
}

/** A teacher the coordination has not given any turma yet: the screens that list students explain it instead. */
export function isTeacherWithoutTurmas(user: SessionUser | null): boolean {
  return user?.role === 'teacher' && user.admin.turmas.length === 0;
}
