import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from '@playwright/test';
import { expect, loginViaApi, test, type TestStudent } from './fixtures.ts';
import { LIVE_TICK_MS } from '../src/shared/live-events.ts';

/** A screen held open while others transfer, counting the API reads it makes (the event stream aside). */
type Watcher = { name: string; context: BrowserContext; page: Page; reads: string[] };

async function watch(context: BrowserContext, name: string, path: string): Promise<Watcher> {
  const page = await context.newPage();
  const watcher: Watcher = { name, context, page, reads: [] };
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/') && url.pathname !== '/api/events') watcher.reads.push(url.pathname);
  });
  return watcher;
}

test('open screens read in proportion to what changes, not to how many operations happen', async ({ browser, school }) => {
  test.slow();
  const watchers: Watcher[] = [];
  for (const [name, path] of [
    ['painel do aluno', '/student'],
    ['ranking do aluno', '/student/ranking'],
    ['Estelecas do aluno', '/student/estelecas'],
  ] as const) {
    const context = await browser.newContext();
    await loginViaApi(context, await school.createStudent({ meritus: 0 }));
    watchers.push(await watch(context, name, path));
  }
  const staff = await browser.newContext();
  await loginViaApi(staff, 'admin');
  const feed = await watch(staff, 'operações ao vivo', '/admin/recent-operations');
  const dashboard = await watch(staff, 'painel da equipe', '/admin');

  const sender: TestStudent = await school.createStudent({ meritus: 500 });
  const recipient = await school.createStudent({ meritus: 0 });
  const senderContext = await browser.newContext();
  await loginViaApi(senderContext, sender);
  const started = Date.now();
  const TRANSFERS = 30;
  let last = '';
  for (let index = 0; index < TRANSFERS; index++) {
    last = `Carga ${index} ${randomUUID().slice(0, 6)}`;
    const sent = await senderContext.request.post('/api/meritus/transfers', {
      data: { recipientId: recipient.id, amount: 1, description: last },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(sent.status()).toBe(201);
  }
  // The feed shows the last transfer, from the line its event carried.
  await expect(feed.page.getByText(last)).toBeVisible();
  // One more tick, so what the transfers coalesced into has gone out.
  await feed.page.waitForTimeout(LIVE_TICK_MS);
  const ticks = Math.ceil((Date.now() - started) / LIVE_TICK_MS) + 1;
  // The transfers' lines came in their events: the feed is read again only when another test's operation on a whole
  // turma carries more lines than an event does, far fewer times than there were transfers.
  expect(feed.reads.filter((path) => path === '/api/admin/operations').length).toBeLessThanOrEqual(ticks);
  // A screen reads at most its few live reads (the ranking: its head and the pages in view) once a tick, other tests'
  // operations included, never once an operation.
  for (const watcher of [...watchers, dashboard]) {
    expect(watcher.reads.length, `${watcher.name}: ${watcher.reads.join(', ')}`).toBeLessThanOrEqual(4 * ticks);
    expect(watcher.reads.length, `${watcher.name}: ${watcher.reads.join(', ')}`).toBeLessThan(TRANSFERS);
  }
  for (const context of [...watchers.map((watcher) => watcher.context), staff, senderContext]) await context.close();
});
