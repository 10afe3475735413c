/**
 * What each member of the staff may do (issue 34). Routes declare the permission they need (contract `access`), the
 * server's guard checks it, and the screens hide what a role lacks: the one place that says which role has which.
 */

/** The coordination (everything, every turma) and the teachers (their turmas, within their weekly budget). */
export const STAFF_ROLES = ['coordinator', 'teacher'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const STAFF_ROLE_LABELS: Record<StaffRole, string> = { coordinator: 'Coordenação', teacher: 'Professor' };

export const PERMISSIONS = [
  /** The staff area: dashboard, ranking, live operations, reports, students and the image archive (a teacher's turmas only). */
  'staffArea',
  /** Awards and deductions of M$ and Estelecas, weekly tags (a teacher: students of their turmas, within the budget). */
  'award',
  /** Creating, editing and removing students, their photos and passwords. */
  'manageStudents',
  /** Settings, turmas, staff, the system area and diagnostics. */
  'manageSchool',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The school's choices that widen a teacher's permissions (settings, decided by the coordination). */
export type PermissionRules = { teachersManageStudents: boolean };

export function permissionsOf(role: StaffRole, rules: PermissionRules): readonly Permission[] {
  if (role === 'coordinator') return PERMISSIONS;
  return rules.teachersManageStudents ? ['staffArea', 'award', 'manageStudents'] : ['staffArea', 'award'];
}

export function hasPermission(role: StaffRole, rules: PermissionRules, permission: Permission): boolean {
  return permissionsOf(role, rules).includes(permission);
}
