import { expect, test, vi } from 'vitest';
import { routes } from '../../shared/contract/routes.ts';
import { createApiClient } from './api.ts';
import { createQueryClient } from './query-client.ts';

test('a read that keeps failing is sent three times in all: the API client retries, the query client does not add its own', async () => {
  const fetch = vi.fn(async () => new Response(JSON.stringify({ error: { code: 'internal', message: 'x' } }), { status: 503 }));
  const api = createApiClient({ fetch: fetch as unknown as typeof globalThis.fetch, retryDelayMs: 0 });
  const client = createQueryClient();
  await expect(client.fetchQuery({ queryKey: ['ranking'], queryFn: () => api.call(routes.students.ranking) })).rejects.toMatchObject({
    status: 503,
  });
  expect(fetch).toHaveBeenCalledTimes(3);
  expect(client.getDefaultOptions().mutations?.retry).toBe(false);
});
