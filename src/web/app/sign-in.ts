import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-hot-toast';
import type { SessionUser } from '../../shared/auth.ts';
import { MESSAGES } from '../../shared/messages-core.ts';
import { homePath, type Role } from './paths.ts';
import { displayName, loginErrorMessage, postLogin, sessionCheck, type LoginRequest } from './session-api.ts';

/** The signed-in shell (signed-in-app.tsx: query cache, live events, layout), a chunk of its own. */
export const loadSignedInApp = () => import('./signed-in-app.tsx');

// One function per area: Vite preloads what a dynamic import needs for the whole expression it stands in, so both imports
// in one expression would fetch both areas.
const areaRoutes = {
  student: () => import('./student-routes.tsx').then((module) => module.studentRoutes),
  admin: () => import('./admin-routes.tsx').then((module) => module.adminRoutes),
} satisfies Record<Role, unknown>;

/** An area's routes with its home screen; fetched beside the shell, not after it. */
export function loadArea(role: Role) {
  return Promise.all([loadSignedInApp(), areaRoutes[role]()]);
}

async function enter(user: SessionUser, area: ReturnType<typeof loadArea>): Promise<void> {
  const [shell] = await area;
  shell.setSessionUser(user);
}

/** Signs in, greets the user and opens their home. */
export function useSignIn() {
  const navigate = useNavigate();
  const [isPending, setPending] = useState(false);
  const signIn = async (request: LoginRequest) => {
    if (isPending) return;
    setPending(true);
    // The area is fetched while the password is checked; awaited only once the sign-in succeeds.
    const area = loadArea(request.role);
    area.catch(() => undefined);
    try {
      const user = await postLogin(request);
      await enter(user, area);
      toast.success(MESSAGES.welcome(displayName(user)));
      void navigate(homePath(user.role), { replace: true });
    } catch (error) {
      toast.error(loginErrorMessage(error));
      setPending(false);
    }
  };
  return { signIn, isPending };
}

/**
 * Someone already signed in who opens /login goes to their home. The form shows meanwhile,
 * so the page does not wait for the check; if the check fails, signing in is still possible.
 */
export function useSignedInRedirect(): void {
  const navigate = useNavigate();
  useEffect(() => {
    let active = true;
    void sessionCheck()
      .then(async (user) => {
        if (!user || !active) return;
        await enter(user, loadArea(user.role));
        if (active) void navigate(homePath(user.role), { replace: true });
      })
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, [navigate]);
}
