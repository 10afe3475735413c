import { afterEach, describe, expect, it, vi } from 'vitest';
import { urlOf } from '../../shared/contract/route.ts';
import { routes } from '../../shared/contract/routes.ts';
import { ApiError, createApiClient, isRefusal, MAX_RETRY_AFTER_MS } from './api.ts';

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

const { auth, students, ledger, system, archive, reasonPresets, adminStudents, reports } = routes;
const transfer = { recipientId: '6f1c1c2e-8a9b-4c1d-9e2f-3a4b5c6d7e8f', amount: 5 };

describe('api client: routes', () => {
  it("sends a route's method to its address (urlOf: params filled in, the query after them) and its body as JSON", async () => {
    const { fetch, calls } = scriptedFetch(json(200, {}), json(200, {}));
    const query = { period: 'custom', from: '2026-03-01', to: '', turma: ['1º A', 'B'] } as const;
    await client(fetch).call(adminStudents.update, { params: { id: 'a/b' }, body: { name: 'Ana' } });
    await client(fetch).call(reports.overview, { query });
    expect(calls.map((call) => [call.init.method, call.url])).toEqual([
      ['PATCH', urlOf(adminStudents.update, { params: { id: 'a/b' } })],
      ['GET', urlOf(reports.overview, { query })],
    ]);
    expect(calls[0]!.init.body).toBe(JSON.stringify({ name: 'Ana' }));
    expect((calls[0]!.init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('answers null for a 204', async () => {
    const { fetch } = scriptedFetch(new Response(null, { status: 204 }));
    await expect(client(fetch).call(auth.logout)).resolves.toBeNull();
  });
});

describe('api client: revalidated reads', () => {
  const page = { query: { page: 2, size: 50 } } as const;
  const withEtag = (body: unknown, etag: string) =>
    new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json', ETag: etag } });

  it('sends back the ETag of the answer it holds and, on a 304, gives that answer again', async () => {
    const first = { total: 1, entries: [{ name: 'Ana' }] };
    const second = { total: 2, entries: [] };
    const { fetch, calls } = scriptedFetch(
      withEtag(first, 'W/"a"'),
      new Response(null, { status: 304 }),
      withEtag(second, 'W/"b"'),
      withEtag(first, 'W/"a"'),
    );
    const api = client(fetch);
    const answered = await api.call(students.ranking, page);
    expect(await api.call(students.ranking, page)).toBe(answered);
    expect(await api.call(students.ranking, page)).toEqual(second);
    await api.call(students.ranking, { query: { page: 3, size: 50 } });
    const sent = calls.map((call) => (call.init.headers as Record<string, string>)['If-None-Match']);
    // Each address has its own tag; the first ask of an address sends none.
    expect(sent).toEqual([undefined, 'W/"a"', 'W/"a"', undefined]);
  });

  it('sends no If-None-Match for a route without revalidate', async () => {
    const { fetch, calls } = scriptedFetch(withEtag({}, 'W/"a"'), withEtag({}, 'W/"a"'));
    const api = client(fetch);
    await api.call(students.directory);
    await api.call(students.directory);
    expect((calls[1]!.init.headers as Record<string, string>)['If-None-Match']).toBeUndefined();
  });
});

describe('api client: retries', () => {
  it('retries a GET after server errors and returns the first good answer', async () => {
    const { fetch, calls } = scriptedFetch(json(503, errorBody('internal', 'x')), json(502, undefined), json(200, [{ id: 1 }]));
    await expect(client(fetch).call(students.ranking)).resolves.toEqual([{ id: 1 }]);
    expect(calls).toHaveLength(3);
    expect(calls.map((call) => call.url)).toEqual(Array(3).fill(urlOf(students.ranking)));
  });

  it('gives up on a GET after three attempts in all', async () => {
    const { fetch, calls } = scriptedFetch(
      json(502, undefined),
      json(503, errorBody('internal', 'x')),
      json(500, errorBody('internal', 'x')),
    );
    await expect(client(fetch).call(students.ranking)).rejects.toMatchObject({ status: 500, code: 'internal' });
    expect(calls).toHaveLength(3);
  });

  it('stops waiting to retry when the caller gives up (a query cancelled by leaving the screen)', async () => {
    const { fetch, calls } = scriptedFetch(json(503, undefined), json(200, {}));
    const controller = new AbortController();
    const slow = createApiClient({ fetch, retryDelayMs: 60_000 });
    const pending = slow.call(students.ranking, { signal: controller.signal });
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    controller.abort(new DOMException('left the screen', 'AbortError'));
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls).toHaveLength(1);
  });

  it('retries a GET once after a network failure', async () => {
    const { fetch, calls } = scriptedFetch(new TypeError('Failed to fetch'), json(200, { ok: true }));
    await expect(client(fetch).call(system.health)).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(2);
  });

  it('does not retry a POST without an Idempotency-Key', async () => {
    const { fetch, calls } = scriptedFetch(json(503, errorBody('internal', 'x')), json(201, { ok: true }));
    await expect(client(fetch).call(ledger.meritusTransfer, { body: transfer })).rejects.toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(1);
  });

  it('retries a POST that carries an Idempotency-Key, with the same key and body', async () => {
    const { fetch, calls } = scriptedFetch(new TypeError('Failed to fetch'), json(201, { done: true }));
    const result = await client(fetch).call(ledger.meritusTransfer, { body: transfer, idempotencyKey: 'key-1' });
    expect(result).toEqual({ done: true });
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect((call.init.headers as Record<string, string>)['Idempotency-Key']).toBe('key-1');
      expect(call.init.body).toBe(JSON.stringify(transfer));
      expect(call.init.credentials).toBe('same-origin');
    }
  });

  it('never retries a 4xx answer, and shows the pt-BR text of its code when the answer has no message', async () => {
    const { fetch, calls } = scriptedFetch(json(403, { error: { code: 'forbidden' } }));
    const error = await client(fetch)
      .call(ledger.meritusTransfer, { body: transfer, idempotencyKey: 'k' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403, code: 'forbidden', message: 'Você não tem permissão para esta ação' });
    expect(calls).toHaveLength(1);

    for (const status of [404, 408, 429]) {
      const read = scriptedFetch(json(status, errorBody('not_found', 'x')), json(200, {}));
      await expect(client(read.fetch).call(archive.get, { params: { id: 'x' } })).rejects.toMatchObject({ status });
      expect(read.calls).toHaveLength(1);
    }
  });

  it("shows the server's message over the known text of its code: it may say how long to wait", async () => {
    const text = 'Muitas tentativas de login. Tente novamente em 12 minutos.';
    const { fetch } = scriptedFetch(json(429, errorBody('login_locked', text)));
    await expect(client(fetch).call(auth.studentLogin, { body: { studentId: '1', password: 'x' } })).rejects.toMatchObject({
      status: 429,
      code: 'login_locked',
      message: text,
    });
  });

  it("keeps the error's details, which name who is short of a refused removal", async () => {
    const details = { short: [{ id: '6f1c1c2e-8a9b-4c1d-9e2f-3a4b5c6d7e8f', name: 'Bruno Lima', balance: 4 }] };
    const { fetch } = scriptedFetch(json(400, { error: { code: 'remove_exceeds_balance', message: 'Não é possível remover', details } }));
    await expect(
      client(fetch).call(ledger.bulkOperation, {
        body: { currency: 'meritus', studentUuids: [transfer.recipientId], type: 'admin_remove', amount: 5, description: 'x' },
      }),
    ).rejects.toMatchObject({ code: 'remove_exceeds_balance', details });
  });

  it('shows the text known for a status when the answer is not ours (a proxy page)', async () => {
    const { fetch } = scriptedFetch(new Response('<html>Bad Gateway</html>', { status: 502 }));
    await expect(client(fetch).call(system.runDiagnostics)).rejects.toMatchObject({
      code: 'internal',
      message: 'Erro interno. Tente novamente.',
    });
  });

  it("shows the server's message for a code it does not know", async () => {
    const { fetch } = scriptedFetch(json(409, errorBody('brand_new_code', 'Mensagem do servidor')));
    await expect(client(fetch).call(system.overview)).rejects.toMatchObject({ code: 'brand_new_code', message: 'Mensagem do servidor' });
  });
});

describe('api client: an unreachable server', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const unavailable = (retryAfter?: string) =>
    new Response(JSON.stringify(errorBody('service_unavailable', 'Sem conexão com o servidor. Tente novamente em alguns segundos.')), {
      status: 503,
      headers: { 'Content-Type': 'application/json', ...(retryAfter === undefined ? {} : { 'Retry-After': retryAfter }) },
    });

  it("waits the 503's Retry-After before retrying a transfer, with the same key and body", async () => {
    vi.useFakeTimers();
    const { fetch, calls } = scriptedFetch(unavailable('3'), json(201, { done: true }));
    const api = createApiClient({ fetch });
    let result: unknown;
    const pending = api.call(ledger.meritusTransfer, { body: transfer, idempotencyKey: 'key-2' }).then((value) => (result = value));
    await vi.advanceTimersByTimeAsync(2_999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(result).toEqual({ done: true });
    expect(calls.map((call) => (call.init.headers as Record<string, string>)['Idempotency-Key'])).toEqual(['key-2', 'key-2']);
    expect(calls.map((call) => call.init.body)).toEqual([JSON.stringify(transfer), JSON.stringify(transfer)]);
  });

  it(`waits at most ${MAX_RETRY_AFTER_MS / 1000} s however long Retry-After asks, and reads it as a date too`, async () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-28T10:00:00Z') });
    const { fetch, calls } = scriptedFetch(unavailable('3600'), unavailable('Sat, 28 Nov 2026 10:00:15 GMT'), json(200, {}));
    const pending = createApiClient({ fetch }).call(students.ranking);
    await vi.advanceTimersByTimeAsync(MAX_RETRY_AFTER_MS - 1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    // Asked at 10:00:10 to come back at 10:00:15.
    await vi.advanceTimersByTimeAsync(4_999);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(calls).toHaveLength(3);
  });

  it('retries a sign-in the server could not serve', async () => {
    const { fetch, calls } = scriptedFetch(unavailable('0'), json(200, { role: 'student' }));
    await expect(client(fetch).call(auth.studentLogin, { body: { studentId: '1', password: 'x' } })).resolves.toEqual({ role: 'student' });
    expect(calls).toHaveLength(2);
  });

  it('says it is reconnecting while calls retry after no answer or a 503, once for all of them, and stops when they are answered', async () => {
    const told: boolean[] = [];
    const { fetch } = scriptedFetch(new TypeError('Failed to fetch'), unavailable('0'), json(200, { a: 1 }), json(200, { b: 2 }));
    const api = client(fetch);
    api.onReconnecting((reconnecting) => told.push(reconnecting));
    await Promise.all([api.call(students.ranking), api.call(system.health)]);
    expect(told).toEqual([true, false]);
  });

  it('stops saying so when the last retry gives up, and says nothing for a retried 500 (a defect, not the connection)', async () => {
    const told: boolean[] = [];
    const { fetch } = scriptedFetch(
      unavailable('0'),
      unavailable('0'),
      unavailable('0'),
      json(500, errorBody('internal', 'x')),
      json(200, {}),
    );
    const api = client(fetch);
    api.onReconnecting((reconnecting) => told.push(reconnecting));
    await expect(api.call(students.ranking)).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(told).toEqual([true, false]);
    await api.call(students.ranking);
    expect(told).toEqual([true, false]);
  });
});

describe('api client: throttle', () => {
  it('refuses the 5th identical request within one second, without sending it', async () => {
    let time = 1_000;
    const { fetch, calls } = scriptedFetch(...Array.from({ length: 6 }, () => json(200, {})));
    const api = client(fetch, () => time);
    for (let i = 0; i < 4; i += 1) await api.call(reasonPresets.create, { body: { label: 'a' } });
    const refused = await api.call(reasonPresets.create, { body: { label: 'a' } }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'client_throttled', message: 'Too many requests', status: 429 });
    expect(calls).toHaveLength(4);

    await api.call(reasonPresets.create, { body: { label: 'b' } });
    expect(calls).toHaveLength(5);

    time += 1_000;
    await api.call(reasonPresets.create, { body: { label: 'a' } });
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
    for (let i = 0; i < 4; i += 1) await api.call(students.ranking);
    let fifth: unknown;
    const pending = api.call(students.ranking).then((value) => (fifth = value));
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
    const results = Promise.allSettled(Array.from({ length: 12 }, () => api.call(students.ranking)));
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
    await expect(api.call(students.ranking)).rejects.toMatchObject({ status: 401, message: 'Sessão expirada. Faça login novamente.' });
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
    await expect(api.call(auth.me)).rejects.toMatchObject({ status: 401 });
    await expect(api.call(auth.studentLogin, { body: { studentId: '1', password: 'x' } })).rejects.toMatchObject({
      message: 'Matrícula ou senha incorretos',
    });
    await expect(api.call(auth.adminLogin, { body: { email: 'a@b.c', password: 'x' } })).rejects.toMatchObject({
      message: 'Email ou senha incorretos',
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});

describe('api client: a full disk on the server', () => {
  it('is not retried and is a refusal whose message the screens show (someone must free space), not a crash', async () => {
    const message = 'Espaço em disco insuficiente no servidor: nada foi salvo.';
    const { fetch, calls } = scriptedFetch(json(507, errorBody('storage_full', message)));
    const error: unknown = await client(fetch)
      .call(students.ranking)
      .catch((thrown: unknown) => thrown);
    expect(calls).toHaveLength(1);
    expect(error).toMatchObject({ status: 507, code: 'storage_full', message });
    expect(isRefusal(error)).toBe(true);
    expect(isRefusal(new ApiError(500, 'internal', 'Erro interno. Tente novamente.'))).toBe(false);
  });
});
