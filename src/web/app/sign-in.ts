import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-hot-toast';
import type { SessionUser } from '../../shared/auth.ts';
import { MESSAGES } from '../../shared/errors.ts';
import { homePath } from './paths.ts';
import { displayName, loginErrorMessage, postLogin, sessionCheck, type LoginRequest } from './session-api.ts';

/** The signed-in part of the app (signed-in-app.tsx), a chunk of its own; the browser loads it once. */
export const loadSignedInApp = () => import('./signed-in-app.tsx');

async function enter(user: SessionUser, app: ReturnType<typeof loadSignedInApp>): Promise<void> {
  (await app).setSessionUser(user);
}

/** Signs in, greets the user and opens their home. */
export function useSignIn() {
  const navigate = useNavigate();
  const [isPending, setPending] = useState(false);
  const signIn = async (request: LoginRequest) => {
    if (isPending) return;
    setPending(true);
    // Fetched while the password is checked; awaited only once the sign-in succeeds.
    const app = loadSignedInApp();
    app.catch(() => undefined);
    try {
      const user = await postLogin(request);
      await enter(user, app);
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
        await enter(user, loadSignedInApp());
        if (active) void navigate(homePath(user.role), { replace: true });
      })
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, [navigate]);
}
