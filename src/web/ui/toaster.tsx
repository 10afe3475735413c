import { useEffect } from 'react';
import { toast, Toaster, useToasterStore } from 'react-hot-toast';
import { TOAST_DURATION_MS } from '../../shared/constants.ts';

/**
 * The app's notifications, top right in the strip that holds no action (styles.css, --toast-*): the phone's app bar
 * between its menu button and the balance, and on wide screens the band above the page's title row. Only the newest toast is shown,
 * so a second one never stacks below that strip over the screen's buttons.
 */
export function AppToaster() {
  const { toasts } = useToasterStore();
  useEffect(() => {
    for (const older of toasts.filter((shown) => shown.visible).slice(1)) toast.remove(older.id);
  }, [toasts]);
  return (
    <Toaster
      position="top-right"
      gutter={0}
      // Clipped at the line it starts from, so a toast sliding in from above the screen passes over nothing.
      containerStyle={{
        top: 'var(--toast-top)',
        right: 'var(--toast-right)',
        left: 'var(--toast-left)',
        clipPath: 'inset(0 -2rem -2rem -2rem)',
      }}
      toastOptions={{
        duration: TOAST_DURATION_MS,
        style: {
          background: '#1e293b',
          color: '#f8fafc',
          borderRadius: '12px',
          fontSize: '13px',
          lineHeight: 1.3,
          fontWeight: 500,
          padding: '6px 8px',
          maxWidth: '22rem',
          overflowWrap: 'anywhere',
        },
        success: { duration: TOAST_DURATION_MS, iconTheme: { primary: '#34d399', secondary: '#1e293b' } },
        error: { duration: TOAST_DURATION_MS, iconTheme: { primary: '#fb7185', secondary: '#1e293b' } },
      }}
    />
  );
}
