import { api } from './api.ts';

const started = new Map<string, Promise<unknown>>();

/**
 * A GET asked as a signed-in page starts (main.tsx), so its answer travels while the page's code downloads instead
 * of after it; the screen that needs it takes it once (takeEarlyRequest), later reads ask again.
 */
export function startEarlyRequest(path: string): void {
  const request = api.get<unknown>(path);
  started.set(path, request);
  // A failed one (nobody signed in yet) is dropped, so a read after the sign-in asks again; one already taken fails there.
  request.catch(() => started.delete(path));
}

/** The answer started for this path, if one was and nobody took it yet. */
export function takeEarlyRequest(path: string): Promise<unknown> | undefined {
  const request = started.get(path);
  started.delete(path);
  return request;
}
