import { Suspense, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { RefreshCw } from 'lucide-react';
import { Button } from '../ui/button.tsx';
import { FullScreenSpinner } from '../ui/spinner.tsx';
import { homePath, paths, type Role } from '../lib/paths.ts';
import { useSession } from '../lib/session.ts';
import { areaOfUser } from '../../shared/areas.ts';
import { lazyRetrying } from './route-error.tsx';

const PasswordChangeScreen = lazyRetrying(() => import('../features/student-profile/password-change-screen.tsx'));

/** Shown when /api/auth/me fails for a reason other than "not signed in". */
function SessionError({ onRetry }: { onRetry: () => void }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-slate-50 p-6 text-center">
      <p className="text-lg font-semibold text-slate-900">Não foi possível verificar sua sessão.</p>
      <p className="text-sm text-slate-600">Verifique sua conexão e tente novamente.</p>
      <Button onClick={onRetry} icon={<RefreshCw aria-hidden="true" className="size-4" />}>
        Tentar novamente
      </Button>
    </main>
  );
}

/**
 * Renders its children only for a signed-in user of `role`; anyone else goes to /login. A student who must first replace
 * the password the staff gave them (the school's rule) sees only that change.
 */
export function RequireRole({ role, children }: { role: Role; children: ReactNode }) {
  const { user, isLoading, error, refetch } = useSession();
  if (isLoading) return <FullScreenSpinner />;
  if (error && !user) return <SessionError onRetry={refetch} />;
  if (!user || areaOfUser(user) !== role) return <Navigate to={paths.login} replace />;
  if (user.role === 'student' && user.passwordChangeRequired) {
    return (
      <Suspense fallback={<FullScreenSpinner />}>
        <PasswordChangeScreen />
      </Suspense>
    );
  }
  return children;
}

/** `/`: the signed-in user's home, or /login. */
export function RootRedirect() {
  const { user, isLoading, error, refetch } = useSession();
  if (isLoading) return <FullScreenSpinner />;
  if (error && !user) return <SessionError onRetry={refetch} />;
  return <Navigate to={user ? homePath(areaOfUser(user)) : paths.login} replace />;
}
