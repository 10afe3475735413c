import { useEffect, useMemo, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Navigate, useNavigate, useRoutes, type RouteObject } from 'react-router';
import { api } from '../lib/api.ts';
import { LiveEventsProvider } from '../lib/live-events.ts';
import { queryClient } from '../lib/query-client.ts';
import { schoolSettingsQueryOptions } from '../lib/school-settings.ts';
import { AppLayout } from './app-layout.tsx';
import { homePath, paths, type Role } from '../lib/paths.ts';
import { RequireRole, RootRedirect } from './route-guard.tsx';
import { ScreenAccess } from './screen-access.tsx';
import type { AppRoute } from './route-types.ts';
import { sessionQueryOptions, setSessionUser, useSession } from '../lib/session.ts';

// The sign-in (loaded with the login page) hands the user over to this chunk's query cache.
export { setSessionUser };

function SessionScope({ children }: { children: ReactNode }) {
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
  // Keeps the live event stream open while someone is signed in.
  return <LiveEventsProvider enabled={user !== null}>{children}</LiveEventsProvider>;
}

/**
 * What every signed-in page stands on: the query cache, the session's end on a 401, the live
 * events. A chunk of its own (with the layout and the guard), so the login page's first load
 * carries none of it.
 */
function SignedInShell({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionScope>{children}</SessionScope>
    </QueryClientProvider>
  );
}

/** `/`: the signed-in user's home, or /login. */
export function SignedInRoot() {
  return (
    <SignedInShell>
      <RootRedirect />
    </SignedInShell>
  );
}

/** How long an area's first render waits for its screen's reads once the session and settings are in. */
const SCREEN_READS_WAIT_MS = 500;

/**
 * Puts what an area's first render needs in the query cache: the session, the school's settings and what the screen
 * at `pathname` reads as it opens (requested together; each answers 401 when nobody is signed in, and the guard then
 * sends the visitor to /login). The area then renders its layout and that screen whole, in one render that yields to
 * the browser, instead of a blocking render of the page as each answer arrives. A screen read slower than
 * SCREEN_READS_WAIT_MS does not hold the page: the screen shows its loading state for it.
 */
export async function prepareArea(routes: readonly AppRoute[], pathname: string): Promise<void> {
  const screen = routes.find((route) => route.path === pathname.replace(/\/+$/, ''));
  const screenReads = screen?.prefetch?.(queryClient);
  await Promise.all([queryClient.prefetchQuery(sessionQueryOptions), queryClient.prefetchQuery(schoolSettingsQueryOptions)]);
  if (screenReads) await Promise.race([screenReads, new Promise((resolve) => setTimeout(resolve, SCREEN_READS_WAIT_MS))]);
}

/** A guarded area (/student/* or /admin/*) with its registered screens, paths relative to the area. */
export function Area({ role, routes }: { role: Role; routes: readonly AppRoute[] }) {
  const routeObjects = useMemo((): RouteObject[] => {
    const base = homePath(role);
    return [
      {
        element: (
          <RequireRole role={role}>
            <AppLayout role={role} routes={routes} />
          </RequireRole>
        ),
        children: [
          ...routes.map((route): RouteObject => {
            const { path, Component } = route;
            const relative = path.slice(base.length).replace(/^\//, '');
            const element = (
              <ScreenAccess route={route}>
                <Component />
              </ScreenAccess>
            );
            return relative ? { path: relative, element } : { index: true, element };
          }),
          { path: '*', element: <Navigate to={base} replace /> },
        ],
      },
    ];
  }, [role, routes]);
  const element = useRoutes(routeObjects);
  return <SignedInShell>{element}</SignedInShell>;
}
