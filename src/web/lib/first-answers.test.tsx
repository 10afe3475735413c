import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_ANSWERS_ID } from '../../shared/constants.ts';
import { urlOf } from '../../shared/contract/route.ts';
import { routes } from '../../shared/contract/routes.ts';

/** A page as the server writes it for a signed-in visitor: the first reads' answers in a JSON script element. */
function pageWith(answers: Record<string, unknown>): void {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = FIRST_ANSWERS_ID;
  element.textContent = JSON.stringify(answers).replaceAll('<', '\\u003c');
  document.body.append(element);
}

/** The app's client on a fresh module (the page's answers are read once per page), with a fetch that records its calls. */
async function appClient() {
  vi.resetModules();
  const { createApiClient } = await import('./api.ts');
  const { takeFirstAnswer } = await import('./first-answers.ts');
  const fetch = vi.fn(async () => new Response(JSON.stringify({ fetched: true }), { status: 200 }));
  return { call: createApiClient({ fetch, firstAnswer: takeFirstAnswer }).call, fetch };
}

afterEach(() => document.getElementById(FIRST_ANSWERS_ID)?.remove());

describe("a signed-in page's first answers", () => {
  it('answer the first GET of their URL without a request, once; a later read asks the server', async () => {
    const session = { role: 'student', student: { name: '<Ana>' } };
    pageWith({ [urlOf(routes.auth.me)]: session, [urlOf(routes.settings.read)]: null });
    const { call, fetch } = await appClient();

    expect(await call(routes.auth.me)).toEqual(session);
    expect(await call(routes.settings.read)).toBeNull();
    expect(fetch).not.toHaveBeenCalled();

    expect(await call(routes.auth.me)).toEqual({ fetched: true });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('answer only their own URL, and no write', async () => {
    pageWith({ [urlOf(routes.ledger.myTransactions, { query: { limit: 5 } })]: [] });
    const { call, fetch } = await appClient();

    expect(await call(routes.ledger.myTransactions, { query: { limit: 20 } })).toEqual({ fetched: true });
    expect(await call(routes.auth.logout)).toEqual({ fetched: true });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(await call(routes.ledger.myTransactions, { query: { limit: 5 } })).toEqual([]);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('are none on a page without them (the login page, a signed-out visitor)', async () => {
    const { call, fetch } = await appClient();
    expect(await call(routes.auth.me)).toEqual({ fetched: true });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
