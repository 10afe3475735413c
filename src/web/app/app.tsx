import { Suspense, type ComponentType, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { LoginPage } from '../features/auth/login-page.tsx';
import { FullScreenSpinner } from '../ui/spinner.tsx';
import { AppToaster } from '../ui/toaster.tsx';
import { paths, type Role } from '../lib/paths.ts';
import { loadArea, loadSignedInApp } from './areas.ts';
import { lazyRetrying, RouteErrorBoundary } from './route-error.tsx';

// The first load holds /login only (React, the router, the login page): the signed-in part comes when someone needs it.
const SignedInRoot = lazyRetrying(() => loadSignedInApp().then(({ SignedInRoot }) => ({ default: SignedInRoot })));

function lazyArea(role: Role) {
  return lazyRetrying(async (): Promise<{ default: ComponentType }> => {
    const [{ Area, prepareArea }, routes] = await loadArea(role);
    await prepareArea(routes, window.location.pathname);
    return { default: () => <Area role={role} routes={routes} /> };
  });
}

const PrivacyPage = lazyRetrying(() => import('../features/privacy/privacy-page.tsx'));
const GuardianSignupPage = lazyRetrying(() =>
  import('../features/family/guardian-signup-page.tsx').then(({ default: Page }) => ({ default: () => <Page loadArea={loadArea} /> })),
);

const WeeklySummaryOffPage = lazyRetrying(() => import('../features/family/weekly-summary-off-page.tsx'));

const StudentArea = lazyArea('student');
const AdminArea = lazyArea('admin');
const FamilyArea = lazyArea('familia');

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<FullScreenSpinner />}>{children}</Suspense>;
}

export function App() {
  return (
    <>
      <BrowserRouter>
        {/* Where an area's own code did not arrive; inside an area, each screen has its own (app-layout.tsx). */}
        <RouteErrorBoundary fullScreen>
          <Routes>
            <Route path={paths.login} element={<LoginPage loadArea={loadArea} />} />
            <Route
              path={paths.privacy}
              element={
                <Loading>
                  <PrivacyPage />
                </Loading>
              }
            />
            <Route
              path={paths.guardianSignup}
              element={
                <Loading>
                  <GuardianSignupPage />
                </Loading>
              }
            />
            <Route
              path={paths.weeklySummaryOff}
              element={
                <Loading>
                  <WeeklySummaryOffPage />
                </Loading>
              }
            />
            <Route
              path={`${paths.familia.home}/*`}
              element={
                <Loading>
                  <FamilyArea />
                </Loading>
              }
            />
            <Route
              path={`${paths.student.home}/*`}
              element={
                <Loading>
                  <StudentArea />
                </Loading>
              }
            />
            <Route
              path={`${paths.admin.home}/*`}
              element={
                <Loading>
                  <AdminArea />
                </Loading>
              }
            />
            <Route
              path={paths.root}
              element={
                <Loading>
                  <SignedInRoot />
                </Loading>
              }
            />
            <Route path="*" element={<Navigate to={paths.root} replace />} />
          </Routes>
        </RouteErrorBoundary>
      </BrowserRouter>
      <AppToaster />
    </>
  );
}
