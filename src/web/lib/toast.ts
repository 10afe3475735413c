import { toast } from 'react-hot-toast';
import { ERROR_MESSAGES } from '../../shared/errors.ts';
import { isApiError } from './api.ts';

/**
 * The text to show for a failure: the API's pt-BR message for a refused request; for a
 * network or server failure, the caller's fallback (e.g. 'Erro ao realizar transferência').
 */
export function errorMessage(error: unknown, fallback?: string): string {
  if (isApiError(error)) {
    const unexpected = error.code === 'network' || error.code === 'internal' || error.status >= 500;
    return unexpected && fallback ? fallback : error.message;
  }
  return fallback ?? ERROR_MESSAGES.internal;
}

/** Shows a failure as an error toast; callers decide when a toast is wanted. */
export function toastError(error: unknown, fallback?: string): void {
  toast.error(errorMessage(error, fallback));
}

/** react-hot-toast's `toast`, re-exported so screens import it from one place (its default export does not type-check under NodeNext). */
export { toast } from 'react-hot-toast';
