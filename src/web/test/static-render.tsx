import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';

/**
 * A screen's first paint as a document, with its reads already answered (query key → data): what a person sees before
 * anything is fetched, without a server.
 */
export function renderWithAnswers(answers: [readonly unknown[], unknown][], node: ReactNode): Document {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  for (const [key, data] of answers) client.setQueryData(key, data);
  const html = renderToStaticMarkup(<QueryClientProvider client={client}>{node}</QueryClientProvider>);
  return new DOMParser().parseFromString(html, 'text/html');
}
