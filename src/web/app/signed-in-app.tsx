import { useEffect } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Navigate, useNavigate, useRoutes, type RouteObject } from 'react-router';
import { api } from '../lib/api.ts';
import { LiveEventsProvider } from '../lib/live-events.ts';
import { queryClient } from '../lib/query-client.ts';
import { adminRoutes } from './admin-routes.tsx';
import { AppLayout } from './app-layout.tsx';
import { homePath, paths, type Role } from './paths.ts';
import { RequireRole, RootRedirect } from './route-guard.tsx';
import type { AppRoute } from './route-types.ts';
import { setSessionUser, useSession } from './session.ts';
import { studentRoutes } from './student-routes.tsx';

// The sign-in (loaded with the login page) hands the user over to this chunk's query cache.
export { setSessionUser };

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

const routeObjects: RouteObject[] = [
  { path: paths.root, element: <RootRedirect /> },
  area('student', studentRoutes),
  area('admin', adminRoutes),
  { path: '*', element: <Navigate to={paths.root} replace /> },
];

function SignedInRoutes() {
  const { user } = useSession();
  const navigate = useNavigate();
  // A 401 from any call means the session ended (expired, or signed out elsewhere).
  useEffect(() => {
    api.onUnauthorized(() => {
      setSessionUser(null);
      void navigate(paths.login, { replace: true });
    });
    return () => api.onUnauthorized(undefined);
  }, [navigate]);
  const element = useRoutes(routeObjects);
  // Keeps the live event stream open while someone is signed in.
  return <LiveEventsProvider enabled={user !== null}>{element}</LiveEventsProvider>;
}

/**
 * Everything but /login: the query cache, the live events, the guarded areas and their
 * screens. Its own chunk, so the login page's first load carries none of it.
 */
export function SignedInApp() {
  return (
    <QueryClientProvider client={queryClient}>
      <SignedInRoutes />
    </QueryClientProvider>
  );
}
