import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from './api.ts';

type Call = { url: string; init: RequestInit };

function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** A fetch that answers with the given responses in order and records every call. */
function scriptedFetch(...responses: Array<Response | Error>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), init: init ?? {} });
    const next = responses.shift();
    if (!next) throw new Error('unexpected extra request');
    if (next instanceof Error) throw next;
    return next;
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

function client(fetch: typeof globalThis.fetch, now?: () => number) {
  return createApiClient({ fetch, retryDelayMs: 0, ...(now ? { now } : {}) });
}

const errorBody = (code: string, message: string) => ({ error: { code, message } });

describe('api client: retries', () => {
  it('retries a GET after server errors and returns the first good answer', async () => {
    const { fetch, calls } = scriptedFetch(json(503, errorBody('internal', 'x')), json(502, undefined), json(200, [{ id: 1 }]));
    await expect(client(fetch).get('/ranking')).resolves.toEqual([{ id: 1 }]);
    expect(calls).toHaveLength(3);
    expect(calls.map((call) => call.url)).toEqual(['/api/ranking', '/api/ranking', '/api/ranking']);
  });

  it('gives up on a GET after three attempts in all', async () => {
    const { fetch, calls } = scriptedFetch(json(502, undefined), json(503, errorBody('internal', 'x')), json(500, errorBody('internal', 'x')));
    await expect(client(fetch).get('/ranking')).rejects.toMatchObject({ status: 500, code: 'internal' });
    expect(calls).toHaveLength(3);
  });

  it('stops waiting to retry when the caller gives up (a query cancelled by leaving the screen)', async () => {
    const { fetch, calls } = scriptedFetch(json(503, undefined), json(200, {}));
    const controller = new AbortController();
    const slow = createApiClient({ fetch, retryDelayMs: 60_000 });
    const pending = slow.get('/ranking', { signal: controller.signal });
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    controller.abort(new DOMException('left the screen', 'AbortError'));
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls).toHaveLength(1);
  });

  it('retries a GET once after a network failure', async () => {
    const { fetch, calls } = scriptedFetch(new TypeError('Failed to fetch'), json(200, { ok: true }));
    await expect(client(fetch).get('/health')).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(2);
  });

  it('does not retry a POST without an Idempotency-Key', async () => {
    const { fetch, calls } = scriptedFetch(json(503, errorBody('internal', 'x')), json(201, { ok: true }));
    await expect(client(fetch).post('/meritus/transfers', { amount: 5 })).rejects.toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(1);
  });

  it('retries a POST that carries an Idempotency-Key, with the same key and body', async () => {
    const { fetch, calls } = scriptedFetch(new TypeError('Failed to fetch'), json(201, { done: true }));
    const result = await client(fetch).post('/meritus/transfers', { amount: 5 }, { idempotencyKey: 'key-1' });
    expect(result).toEqual({ done: true });
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect((call.init.headers as Record<string, string>)['Idempotency-Key']).toBe('key-1');
      expect(call.init.body).toBe(JSON.stringify({ amount: 5 }));
      expect(call.init.credentials).toBe('same-origin');
    }
  });

  it('never retries a 4xx answer, and shows the pt-BR text of its code when the answer has no message', async () => {
    const { fetch, calls } = scriptedFetch(json(403, { error: { code: 'forbidden' } }));
    const error = await client(fetch).post('/meritus/transfers', { amount: 5 }, { idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403, code: 'forbidden', message: 'Você não tem permissão para esta ação' });
    expect(calls).toHaveLength(1);

    for (const status of [404, 408, 429]) {
      const read = scriptedFetch(json(status, errorBody('not_found', 'x')), json(200, {}));
      await expect(client(read.fetch).get('/students/x')).rejects.toMatchObject({ status });
      expect(read.calls).toHaveLength(1);
    }
  });

  it("shows the server's message over the known text of its code: it may say how long to wait", async () => {
    const text = 'Muitas tentativas de login. Tente novamente em 12 minutos.';
    const { fetch } = scriptedFetch(json(429, errorBody('login_locked', text)));
    await expect(client(fetch).post('/auth/student/login', { studentId: '1', password: 'x' })).rejects.toMatchObject({
      status: 429,
      code: 'login_locked',
      message: text,
    });
  });

  it("keeps the error's details, which name who is short of a refused removal", async () => {
    const details = { short: [{ id: '6f1c1c2e-8a9b-4c1d-9e2f-3a4b5c6d7e8f', name: 'Bruno Lima', balance: 4 }] };
    const { fetch } = scriptedFetch(json(400, { error: { code: 'remove_exceeds_balance', message: 'Não é possível remover', details } }));
    await expect(client(fetch).post('/admin/operations/bulk', {})).rejects.toMatchObject({ code: 'remove_exceeds_balance', details });
  });

  it('shows the text known for a status when the answer is not ours (a proxy page)', async () => {
    const { fetch } = scriptedFetch(new Response('<html>Bad Gateway</html>', { status: 502 }));
    await expect(client(fetch).post('/x')).rejects.toMatchObject({ code: 'internal', message: 'Erro interno. Tente novamente.' });
  });

  it("shows the server's message for a code it does not know", async () => {
    const { fetch } = scriptedFetch(json(409, errorBody('brand_new_code', 'Mensagem do servidor')));
    await expect(client(fetch).get('/x')).rejects.toMatchObject({ code: 'brand_new_code', message: 'Mensagem do servidor' });
  });
});

describe('api client: throttle', () => {
  it('refuses the 5th identical request within one second, without sending it', async () => {
    let time = 1_000;
    const { fetch, calls } = scriptedFetch(...Array.from({ length: 6 }, () => json(200, {})));
    const api = client(fetch, () => time);
    for (let i = 0; i < 4; i += 1) await api.post('/tags/like', { id: 'a' });
    const refused = await api.post('/tags/like', { id: 'a' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'client_throttled', message: 'Too many requests', status: 429 });
    expect(calls).toHaveLength(4);

    await api.post('/tags/like', { id: 'b' });
    expect(calls).toHaveLength(5);

    time += 1_000;
    await api.post('/tags/like', { id: 'a' });
    expect(calls).toHaveLength(6);
  });
});

describe('api client: throttle of reads', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a 5th identical read within one second waits for the window instead of failing', async () => {
    vi.useFakeTimers({ now: 1_000 });
    const { fetch, calls } = scriptedFetch(...Array.from({ length: 5 }, (_, i) => json(200, { n: i + 1 })));
    const api = createApiClient({ fetch });
    for (let i = 0; i < 4; i += 1) await api.get('/ranking');
    let fifth: unknown;
    const pending = api.get('/ranking').then((value) => (fifth = value));
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(4);
    expect(fifth).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(fifth).toEqual({ n: 5 });
    expect(calls).toHaveLength(5);
  });

  it('reads that keep arriving faster than the window all wait their turn; none fails', async () => {
    vi.useFakeTimers({ now: 1_000 });
    const { fetch, calls } = scriptedFetch(...Array.from({ length: 12 }, (_, i) => json(200, { n: i + 1 })));
    const api = createApiClient({ fetch });
    const results = Promise.allSettled(Array.from({ length: 12 }, () => api.get('/ranking')));
    await vi.advanceTimersByTimeAsync(3_000);
    const settled = await results;
    expect(settled.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(calls).toHaveLength(12);
  });
});

describe('api client: 401', () => {
  it('calls the unauthorized handler when a call finds the session gone', async () => {
    const { fetch } = scriptedFetch(json(401, errorBody('unauthenticated', 'Sessão expirada. Faça login novamente.')));
    const api = client(fetch);
    const onUnauthorized = vi.fn();
    api.onUnauthorized(onUnauthorized);
    await expect(api.get('/ranking')).rejects.toMatchObject({ status: 401, message: 'Sessão expirada. Faça login novamente.' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('leaves 401s of the session and sign-in calls to their callers', async () => {
    const { fetch } = scriptedFetch(
      json(401, errorBody('unauthenticated', 'Sessão expirada. Faça login novamente.')),
      json(401, errorBody('student_login_failed', 'Matrícula ou senha incorretos')),
      json(401, errorBody('admin_login_failed', 'Email ou senha incorretos')),
    );
    const api = client(fetch);
    const onUnauthorized = vi.fn();
    api.onUnauthorized(onUnauthorized);
    await expect(api.get('/auth/me')).rejects.toMatchObject({ status: 401 });
    await expect(api.post('/auth/student/login', { studentId: '1', password: 'x' })).rejects.toMatchObject({
      message: 'Matrícula ou senha incorretos',
    });
    await expect(api.post('/auth/admin/login', { email: 'a@b.c', password: 'x' })).rejects.toMatchObject({
      message: 'Email ou senha incorretos',
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});
