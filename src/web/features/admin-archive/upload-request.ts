import { urlOf, type AnswerOf, type Route } from '../../../shared/contract/route.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { REQUEST_ID_HEADER } from '../../../shared/request-id.ts';
import { ApiError, toApiError } from '../../lib/api.ts';

export type UploadProgress = { loaded: number; total: number };

/**
 * Sends one multipart form to an upload route (one without params) with XMLHttpRequest, because fetch cannot report
 * how much of a request body has gone out: `onProgress` follows the real transfer. Resolves with the route's answer,
 * not parsed again: the server checks it against the route's response schema before sending it. A refusal becomes the
 * same ApiError the API client throws.
 */
export function sendForm<R extends Route & { upload: true; method: 'POST'; answer: 'json' }>(
  route: R,
  form: FormData,
  onProgress: (progress: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<AnswerOf<R>> {
  return new Promise<AnswerOf<R>>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(route.method, urlOf<Route>(route));
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress({ loaded: event.loaded, total: event.total });
    };
    xhr.onerror = () => reject(new ApiError(0, 'network', ERROR_MESSAGES.network));
    xhr.onabort = () => reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
    xhr.onload = () => {
      const headers = new Headers();
      const requestId = xhr.getResponseHeader(REQUEST_ID_HEADER);
      if (requestId) headers.set(REQUEST_ID_HEADER, requestId);
      const response = new Response(xhr.status === 204 ? null : xhr.responseText, { status: xhr.status, headers });
      if (!response.ok) {
        void toApiError(response).then(reject);
        return;
      }
      try {
        resolve(JSON.parse(xhr.responseText) as AnswerOf<R>);
      } catch {
        // Not JSON (a proxy's page in the server's stead): the answer the caller waits for never came.
        reject(new ApiError(xhr.status, 'internal', ERROR_MESSAGES.internal, undefined, undefined, requestId));
      }
    };
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
