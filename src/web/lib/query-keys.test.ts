import { afterEach, expect, test, vi } from 'vitest';
import { routes } from '../../shared/contract/routes.ts';
import { urlOf } from '../../shared/contract/route.ts';
import { createApiClient } from './api.ts';
import { createQueryClient } from './query-client.ts';
import { readOf, setApiClientOf } from './query-keys.ts';
import { schoolSettingsQueryOptions } from './school-settings.ts';
import { sessionQueryOptions } from './session.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A fetch that answers every request with `body` and records the addresses asked. */
function fetchAnswering(body: unknown) {
  return vi.fn(async (_input: RequestInfo | URL) => new Response(JSON.stringify(body), { status: 200 }));
}

test("a read runs through the API client set for its query client; another query client's reads keep the app's", async () => {
  const appFetch = fetchAnswering({ from: 'app' });
  vi.stubGlobal('fetch', appFetch);
  const ownFetch = fetchAnswering({ from: 'own' });
  const own = createQueryClient();
  setApiClientOf(own, createApiClient({ fetch: ownFetch as unknown as typeof fetch }));
  const app = createQueryClient();

  expect(await own.fetchQuery(readOf(routes.students.ranking))).toEqual({ from: 'own' });
  expect(await app.fetchQuery(readOf(routes.students.ranking))).toEqual({ from: 'app' });
  expect(ownFetch.mock.calls.map(([url]) => String(url))).toEqual([urlOf(routes.students.ranking)]);
  expect(appFetch.mock.calls.map(([url]) => String(url))).toEqual([urlOf(routes.students.ranking)]);
});

test("the layout's session and settings reads use the query client's API client too", async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      throw new Error('the app client was called');
    }),
  );
  const ownFetch = vi.fn(async (input: RequestInfo | URL) =>
    String(input) === urlOf(routes.settings.read)
      ? new Response(JSON.stringify({ school: { timeZone: 'America/Sao_Paulo' } }), { status: 200 })
      : new Response(JSON.stringify({ role: 'student' }), { status: 200 }),
  );
  const own = createQueryClient();
  setApiClientOf(own, createApiClient({ fetch: ownFetch as unknown as typeof fetch }));

  expect(await own.fetchQuery(sessionQueryOptions)).toEqual({ role: 'student' });
  expect(await own.fetchQuery(schoolSettingsQueryOptions)).toMatchObject({ school: { timeZone: 'America/Sao_Paulo' } });
  expect(ownFetch.mock.calls.map(([url]) => String(url))).toEqual([urlOf(routes.auth.me), urlOf(routes.settings.read)]);
});
