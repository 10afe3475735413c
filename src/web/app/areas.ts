import type { Role } from '../lib/paths.ts';

/** The signed-in shell (signed-in-app.tsx: query cache, live events, layout), a chunk of its own. */
export const loadSignedInApp = () => import('./signed-in-app.tsx');

// One function per area: Vite preloads what a dynamic import needs for the whole expression it stands in, so both imports
// in one expression would fetch both areas.
const areaRoutes = {
  student: () => import('./student-routes.tsx').then((module) => module.studentRoutes),
  admin: () => import('./admin-routes.tsx').then((module) => module.adminRoutes),
  familia: () => import('./family-routes.tsx').then((module) => module.familyRoutes),
} satisfies Record<Role, unknown>;

/** An area's routes with its home screen; fetched beside the shell, not after it. */
export function loadArea(role: Role) {
  return Promise.all([loadSignedInApp(), areaRoutes[role]()]);
}
