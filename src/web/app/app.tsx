import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { Toaster } from 'react-hot-toast';
import { TOAST_DURATION_MS } from '../../shared/constants.ts';
import { api } from '../lib/api.ts';
import { queryClient } from '../lib/query-client.ts';
import { paths } from './paths.ts';
import { router } from './router.tsx';
import { clearSession } from './session.ts';

// A 401 from any call means the session ended (expired, or signed out elsewhere).
api.onUnauthorized(() => {
  clearSession(queryClient);
  void router.navigate(paths.login, { replace: true });
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
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
    </QueryClientProvider>
  );
}
