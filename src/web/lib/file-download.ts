import { urlOf, type BodyOf, type Route } from '../../shared/contract/route.ts';
import { ERROR_MESSAGES } from '../../shared/errors.ts';
import { ApiError, toApiError } from './api.ts';

/** Saves a file the page holds as the browser's download. */
export function saveFile(content: Blob, fileName: string): void {
  const url = URL.createObjectURL(content);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The file name a Content-Disposition header gives (its UTF-8 form first), if any. */
export function fileNameOf(header: string | null): string | null {
  if (!header) return null;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // A malformed encoding: the plain name below.
    }
  }
  return /filename="([^"]*)"/i.exec(header)?.[1] ?? null;
}

/**
 * Sends a write whose answer is a file made for this request (access cards: a POST, never repeated, so no link can
 * open it), and saves the answer as a download. Refusals throw as the api client's do. Resolves with the file's name.
 */
export async function downloadAnswer<R extends Route & { answer: 'file' }>(
  route: R,
  body: BodyOf<R>,
  fallbackName: string,
): Promise<string> {
  let response: Response;
  try {
    response = await fetch(urlOf<Route>(route), {
      method: route.method,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network', ERROR_MESSAGES.network);
  }
  if (!response.ok) throw await toApiError(response);
  const fileName = fileNameOf(response.headers.get('Content-Disposition')) ?? fallbackName;
  saveFile(await response.blob(), fileName);
  return fileName;
}
