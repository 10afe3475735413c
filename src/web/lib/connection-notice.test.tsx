import { act } from 'react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { mountPerTest } from '../test/test-root.ts';
import { AppToaster } from '../ui/toaster.tsx';
import { routes } from '../../shared/contract/routes.ts';
import { createApiClient } from './api.ts';
import { showReconnecting } from './connection-notice.ts';
import { toast } from './toast.ts';

// jsdom has no matchMedia; react-hot-toast asks it whether motion is reduced.
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  addEventListener() {},
  removeEventListener() {},
})) as unknown as typeof window.matchMedia;

const root = mountPerTest();
beforeEach(() => root.render(<AppToaster />));
afterEach(() => {
  act(() => toast.remove());
  vi.useRealTimers();
});

const RECONNECTING = 'Sem conexão com o servidor. Tentando novamente…';

function shown(): string[] {
  return [...root.container().querySelectorAll('[role="status"]')].map((status) => status.textContent ?? '');
}

test('while a call retries after the server could not serve it, one toast says so; it goes once the call is answered', async () => {
  let answer: (response: Response) => void = () => {};
  const responses = [
    async () =>
      new Response(JSON.stringify({ error: { code: 'service_unavailable', message: 'x' } }), {
        status: 503,
        headers: { 'Retry-After': '0' },
      }),
    () => new Promise<Response>((resolve) => (answer = resolve)),
  ];
  const client = createApiClient({ fetch: () => responses.shift()!(), retryDelayMs: 0 });
  showReconnecting(client);

  vi.useFakeTimers();
  let pending: Promise<unknown> = Promise.resolve();
  await act(async () => {
    pending = client.call(routes.students.ranking);
    await vi.advanceTimersByTimeAsync(0);
  });
  expect(responses).toHaveLength(0);
  expect(shown()).toEqual([RECONNECTING]);

  await act(async () => {
    answer(new Response('[]', { status: 200 }));
    await pending;
  });
  // A dismissed toast leaves once its exit has played.
  await act(() => vi.advanceTimersByTimeAsync(1_100));
  expect(shown()).toEqual([]);
});
