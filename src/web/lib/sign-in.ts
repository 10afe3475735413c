import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-hot-toast';
import type { SessionUser } from '../../shared/auth.ts';
import { MESSAGES } from '../../shared/messages-core.ts';
import { homePath, type Role } from './paths.ts';
import { displayName, loginErrorMessage, loginRefusal, postLogin, sessionCheck, sessionEndedBy, type LoginRequest } from './session-api.ts';
import { areaOfUser } from '../../shared/areas.ts';

/**
 * Fetches an area's code, the signed-in shell first (which takes the user into its query cache), with the area's routes.
 * The app owns the areas and passes its loader in (app/areas.ts), so the login screen never imports the app.
 */
export type AreaLoader = (role: Role) => Promise<readonly [{ setSessionUser(user: SessionUser): void }, unknown]>;

async function enter(user: SessionUser, area: ReturnType<AreaLoader>): Promise<void> {
  const [shell] = await area;
  shell.setSessionUser(user);
}

/** Signs in, greets the user and opens their home; `refusal`: why the server refused the last attempt, for the form. */
export function useSignIn(loadArea: AreaLoader) {
  const navigate = useNavigate();
  const [isPending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const signIn = async (request: LoginRequest) => {
    if (isPending) return;
    setPending(true);
    setRefusal(undefined);
    // The area is fetched while the password is checked; awaited only once the sign-in succeeds.
    const area = loadArea(request.role);
    area.catch(() => undefined);
    try {
      const user = await postLogin(request);
      await enter(user, area);
      toast.success(MESSAGES.welcome(displayName(user)));
      void navigate(homePath(areaOfUser(user)), { replace: true });
    } catch (error) {
      toast.error(loginErrorMessage(error));
      setRefusal(loginRefusal(error));
      setPending(false);
    }
  };
  return { signIn, isPending, refusal, clearRefusal: () => setRefusal(undefined) };
}

/**
 * Someone already signed in who opens /login goes to their home. The form shows meanwhile,
 * so the page does not wait for the check; if the check fails, signing in is still possible.
 * Returns why the browser's session ended, when a reset of the student's password ended it.
 */
export function useSignedInRedirect(loadArea: AreaLoader): string | undefined {
  const navigate = useNavigate();
  const [endedBy, setEndedBy] = useState<string>();
  useEffect(() => {
    let active = true;
    void sessionCheck()
      .then(async (user) => {
        if (active) setEndedBy(sessionEndedBy());
        if (!user || !active) return;
        await enter(user, loadArea(areaOfUser(user)));
        if (active) void navigate(homePath(areaOfUser(user)), { replace: true });
      })
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, [navigate, loadArea]);
  return endedBy;
}
