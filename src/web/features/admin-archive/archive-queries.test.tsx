import { act } from 'react';
import { notifyManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, expect, test, vi } from 'vitest';
import type { ArchiveItem, ArchivePage } from '../../../shared/archive.ts';
import type { Route } from '../../../shared/contract/route.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { routeKey } from '../../lib/query-keys.ts';
import { mountPerTest } from '../../test/test-root.ts';

/** A read of the list the test answers when it chooses, with whether the image is a favourite. */
type PendingRead = { answer: (isFavourite: boolean) => void; aborted: () => boolean };
const reads: PendingRead[] = [];

vi.mock('../../lib/api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/api.ts')>()),
  // The list's reads wait for the test; the favourite's write answers at once.
  call: (route: Route, options: { signal?: AbortSignal }) =>
    route.method === 'GET'
      ? new Promise<ArchivePage>((resolve) => {
          reads.push({
            answer: (isFavourite) =>
              resolve({ items: [{ id: 'img-1', fileName: 'mural.png', isFavourite } as ArchiveItem], nextCursor: null } as ArchivePage),
            aborted: () => options.signal?.aborted ?? false,
          });
        })
      : Promise.resolve({ favourite: true, message: 'Adicionado aos favoritos' }),
}));

const { NO_FILTERS, useArchiveImages, useFavourite } = await import('./archive-queries.ts');

const root = mountPerTest();
let client: QueryClient;

function Card() {
  const images = useArchiveImages(NO_FILTERS);
  const favourite = useFavourite();
  const item = images.data?.pages[0]?.items[0];
  if (!item) return null;
  return (
    <button type="button" aria-pressed={item.isFavourite} onClick={() => favourite.mutate(item)}>
      {item.fileName}
    </button>
  );
}

// The queries' notifications reach React inside act, so an answer is on screen as soon as the query has taken it.
notifyManager.setNotifyFunction((notify) => act(notify));

const button = () => root.container().querySelector('button');
const pressed = () => button()?.getAttribute('aria-pressed');

beforeEach(() => {
  reads.length = 0;
  client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  root.render(
    <QueryClientProvider client={client}>
      <Card />
    </QueryClientProvider>,
  );
});

test('a favourite stays marked when a read of the list sent before it lands after it', async () => {
  reads[0]!.answer(false);
  await vi.waitFor(() => expect(pressed()).toBe('false'));

  // A live event has the list read again; that read is answered from before the click.
  act(() => void client.invalidateQueries({ queryKey: routeKey(routes.archive.list) }));
  await vi.waitFor(() => expect(reads).toHaveLength(2));
  act(() => button()!.click());
  await vi.waitFor(() => expect(pressed()).toBe('true'));

  // The old read was dropped and the list read again, after the change.
  await vi.waitFor(() => expect(reads).toHaveLength(3));
  expect(reads[1]!.aborted()).toBe(true);
  reads[1]!.answer(false);
  reads[2]!.answer(true);
  await vi.waitFor(() => expect(client.isFetching()).toBe(0));
  expect(pressed()).toBe('true');
});

test('with no read under way, a favourite changes the card without reading the list again', async () => {
  reads[0]!.answer(false);
  await vi.waitFor(() => expect(pressed()).toBe('false'));
  act(() => button()!.click());
  await vi.waitFor(() => expect(pressed()).toBe('true'));
  expect(reads).toHaveLength(1);
});
