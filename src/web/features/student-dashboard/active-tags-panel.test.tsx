import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { expect, test } from 'vitest';
import { routes } from '../../../shared/contract/routes.ts';
import type { ActiveTag } from '../../../shared/students.ts';
import { queryKeyOf } from '../../lib/query-keys.ts';
import { ActiveTagsPanel } from './active-tags-panel.tsx';

const ANA = '00000000-0000-4000-8000-000000000001';
const BRUNO = '00000000-0000-4000-8000-000000000002';

function tag(id: string, kind: ActiveTag['kind'], holder: string, name: string, likes: number): ActiveTag {
  return {
    id,
    kind,
    assignedAt: '2026-11-23T12:00:00.000Z',
    expiresAt: '2026-11-30T12:00:00.000Z',
    student: { id: holder, studentId: holder.slice(-7), name, grade: '1º EM - Turma A', photo: null },
    likes,
    likedByMe: false,
  };
}

test("one's own tag shows its likes without a like button; the others' tags keep theirs", () => {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  client.setQueryData(queryKeyOf(routes.tags.active), [
    tag('00000000-0000-4000-8000-0000000000a1', 'leader', ANA, 'Ana Souza', 3),
    tag('00000000-0000-4000-8000-0000000000a2', 'angel', BRUNO, 'Bruno Lima', 1),
  ]);
  const html = renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <ActiveTagsPanel fallbackMs={60_000} viewerId={ANA} />
    </QueryClientProvider>,
  );
  const items = [...new DOMParser().parseFromString(html, 'text/html').querySelectorAll('[data-testid="active-tag"]')];
  const of = (name: string) => items.find((item) => item.textContent?.includes(name))!;
  expect(of('Ana Souza').querySelector('button')).toBeNull();
  expect(of('Ana Souza').textContent).toContain('3 curtidas');
  expect(of('Bruno Lima').querySelector('button')?.getAttribute('aria-label')).toMatch(/^Curtir .* de Bruno Lima$/);
});
