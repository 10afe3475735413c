import { act } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, expect, test, vi } from 'vitest';
import type { ArchiveItem, ArchivePage } from '../../../shared/archive.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { mountPerTest } from '../../test/test-root.ts';

/** A read of the list the test answers when it chooses, with whether the image is a favourite. */
type PendingRead = { answer: (isFavourite: boolean) => void; aborted: () => boolean };
const reads: PendingRead[] = [];

vi.mock('../../lib/api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/api.ts')>()),
  api: {
    get: (_path: string, options: { signal?: AbortSignal }) =>
      new Promise<ArchivePage>((resolve) => {
        reads.push({
          answer: (isFavourite) => resolve({ items: [{ id: 'img-1', fileName: 'mural.png', isFavourite } as ArchiveItem], nextCursor: null } as ArchivePage),
          aborted: () => options.signal?.aborted ?? false,
        });
      }),
    put: () => Promise.resolve({ favourite: true, message: 'Adicionado aos favoritos' }),
  },
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

const button = () => root.container().querySelector('button');
const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 0)));

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
  await settle();
  expect(button()?.getAttribute('aria-pressed')).toBe('false');

  // A live event has the list read again; that read is answered from before the click.
  act(() => void client.invalidateQueries({ queryKey: queryKeys.gallery }));
  expect(reads).toHaveLength(2);
  act(() => button()!.click());
  await settle();
  expect(button()?.getAttribute('aria-pressed')).toBe('true');

  reads[1]!.answer(false);
  await settle();
  // The old read was dropped and the list read again, after the change.
  expect(reads[1]!.aborted()).toBe(true);
  expect(reads).toHaveLength(3);
  reads[2]!.answer(true);
  await settle();
  expect(button()?.getAttribute('aria-pressed')).toBe('true');
});

test('with no read under way, a favourite changes the card without reading the list again', async () => {
  reads[0]!.answer(false);
  await settle();
  act(() => button()!.click());
  await settle();
  expect(button()?.getAttribute('aria-pressed')).toBe('true');
  expect(reads).toHaveLength(1);
});
