import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { LoginPage } from '../features/auth/login-page.tsx';
import { FullScreenSpinner } from '../ui/spinner.tsx';
import { AppToaster } from '../ui/toaster.tsx';
import { paths } from './paths.ts';
import { loadSignedInApp } from './sign-in.ts';

// The first load holds /login only (React, the router, the login page): the signed-in part comes when someone needs it.
const SignedInApp = lazy(() => loadSignedInApp().then(({ SignedInApp }) => ({ default: SignedInApp })));

export function App() {
  return (
    <>
      <BrowserRouter>
        <Routes>
          <Route path={paths.login} element={<LoginPage />} />
          <Route
            path="*"
            element={
              <Suspense fallback={<FullScreenSpinner />}>
                <SignedInApp />
              </Suspense>
            }
          />
        </Routes>
      </BrowserRouter>
      <AppToaster />
    </>
  );
}
