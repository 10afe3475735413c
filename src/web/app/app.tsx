import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { Toaster } from 'react-hot-toast';
import { TOAST_DURATION_MS } from '../../shared/constants.ts';
import { LoginPage } from '../features/auth/login-page.tsx';
import { FullScreenSpinner } from '../ui/spinner.tsx';
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
      <Toaster
        position="top-right"
        // Below the phone's app bar and the page's title row (styles.css), so a toast never lies over the screen's own
        // buttons; clipped at that line, so a toast sliding in from above does not pass over them either.
        containerStyle={{ top: 'var(--toaster-top)', clipPath: 'polygon(-2rem 0, calc(100% + 2rem) 0, calc(100% + 2rem) calc(100% + 2rem), -2rem calc(100% + 2rem))' }}
        toastOptions={{
          duration: TOAST_DURATION_MS,
          style: { background: '#1e293b', color: '#f8fafc', borderRadius: '12px', fontSize: '14px', fontWeight: 500 },
          success: { duration: TOAST_DURATION_MS, iconTheme: { primary: '#34d399', secondary: '#1e293b' } },
          error: { duration: TOAST_DURATION_MS, iconTheme: { primary: '#fb7185', secondary: '#1e293b' } },
        }}
      />
    </>
  );
}
