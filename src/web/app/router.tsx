import { Navigate, Outlet, createBrowserRouter, type RouteObject } from 'react-router';
import { LiveEventsProvider } from '../lib/live-events.ts';
import { LoginPage } from '../features/auth/login-page.tsx';
import { adminRoutes } from './admin-routes.tsx';
import { AppLayout } from './app-layout.tsx';
import { homePath, paths, type Role } from './paths.ts';
import { RequireRole, RootRedirect } from './route-guard.tsx';
import type { AppRoute } from './route-types.ts';
import { useSession } from './session.ts';
import { studentRoutes } from './student-routes.tsx';

/** Keeps the live event stream open while someone is signed in. */
function Root() {
  const { user } = useSession();
  return (
    <LiveEventsProvider enabled={user !== null}>
      <Outlet />
    </LiveEventsProvider>
  );
}

/** A guarded area (/student or /admin) with its registered screens. */
function area(role: Role, routes: readonly AppRoute[]): RouteObject {
  const base = homePath(role);
  return {
    path: base,
    element: (
      <RequireRole role={role}>
        <AppLayout role={role} routes={routes} />
      </RequireRole>
    ),
    children: [
      ...routes.map(({ path, Component }): RouteObject => {
        const relative = path.slice(base.length).replace(/^\//, '');
        return relative ? { path: relative, element: <Component /> } : { index: true, element: <Component /> };
      }),
      { path: '*', element: <Navigate to={base} replace /> },
    ],
  };
}

export const routeObjects: RouteObject[] = [
  {
    element: <Root />,
    children: [
      { path: paths.root, element: <RootRedirect /> },
      { path: paths.login, element: <LoginPage /> },
      area('student', studentRoutes),
      area('admin', adminRoutes),
      { path: '*', element: <Navigate to={paths.root} replace /> },
    ],
  },
];

export const router = createBrowserRouter(routeObjects);
