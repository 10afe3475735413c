import type { AnswerOf } from '../../shared/contract/route.ts';
import { call, type JsonRoute } from './api.ts';

const started = new Map<JsonRoute, Promise<unknown>>();

/**
 * A read asked as a signed-in page starts (main.tsx), so its answer travels while the page's code downloads instead
 * of after it; the screen that needs it takes it once (takeEarlyRequest), later reads ask again.
 */
export function startEarlyRequest(route: JsonRoute & { method: 'GET' }): void {
  const request = call(route as JsonRoute);
  started.set(route, request);
  // A failed one (nobody signed in yet) is dropped, so a read after the sign-in asks again; one already taken fails there.
  request.catch(() => started.delete(route));
}

/** The answer started for this route, if one was and nobody took it yet. */
export function takeEarlyRequest<R extends JsonRoute>(route: R): Promise<AnswerOf<R>> | undefined {
  const request = started.get(route);
  started.delete(route);
  return request as Promise<AnswerOf<R>> | undefined;
}
