import { createElement } from 'react';
import { toast } from 'react-hot-toast';
import { ERROR_MESSAGES } from '../../shared/errors.ts';
import { requestCode } from '../../shared/request-id.ts';
import { isApiError, isRefusal } from './api.ts';

/**
 * The text to show for a failure: the API's pt-BR message for a refused request; for a
 * network or server failure, the caller's fallback (e.g. 'Erro ao realizar transferência').
 */
export function errorMessage(error: unknown, fallback?: string): string {
  if (isRefusal(error)) return error.message;
  return fallback ?? (isApiError(error) ? error.message : ERROR_MESSAGES.internal);
}

/**
 * Shows a failure as an error toast; callers decide when a toast is wanted. A server failure
 * carries the short code of its request ('Código: 7F3K-2Q9M'), which a teacher can read out to
 * whoever looks it up in the server's logs; a refusal (a matrícula in use, a balance too low)
 * says its reason alone, since a code beside it reads as a crash and there is nothing to look up.
 */
export function toastError(error: unknown, fallback?: string): void {
  toastFailure(errorMessage(error, fallback), error);
}

/** An error toast with the screen's own text (the spec's 'Erro ao salvar estudante'), and the request's code when the server failed. */
export function toastFailure(message: string, error: unknown): void {
  const code = isRefusal(error) || !isApiError(error) ? null : requestCode(error.requestId);
  if (code)
    toast.error(
      createElement(
        'span',
        null,
        message,
        createElement('span', { className: 'mt-0.5 block font-mono text-[11px] font-normal opacity-80' }, `Código: ${code}`),
      ),
    );
  else toast.error(message);
}

/** react-hot-toast's `toast`, re-exported so screens import it from one place (its default export does not type-check under NodeNext). */
export { toast } from 'react-hot-toast';
