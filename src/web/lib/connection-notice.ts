import { toast } from 'react-hot-toast';
import { MESSAGES } from '../../shared/messages-core.ts';
import type { ApiClient } from './api.ts';

/** One toast, however many calls retry at once. */
export const RECONNECTING_TOAST_ID = 'reconnecting';

/**
 * The app's one word on its connection: while the client retries calls the server could not answer, a toast
 * says 'Sem conexão com o servidor. Tentando novamente…'; it goes when they are answered, or gives way to the
 * error of a call that gave up.
 */
export function showReconnecting(client: ApiClient): void {
  client.onReconnecting((reconnecting) => {
    if (reconnecting) toast.loading(MESSAGES.reconnecting, { id: RECONNECTING_TOAST_ID });
    else toast.dismiss(RECONNECTING_TOAST_ID);
  });
}
