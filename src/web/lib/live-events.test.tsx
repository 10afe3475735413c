import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { QueryClient, QueryClientProvider, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { urlOf } from '../../shared/contract/route.ts';
import { routes } from '../../shared/contract/routes.ts';
import { mayHaveMissedAnEvent } from './live-connection.ts';
import { LiveEventsProvider, useLiveStatus } from './live-events.ts';
import { queryKeyOf } from './query-keys.ts';

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean;
}
globalThis.IS_REACT_ACT_ENVIRONMENT = true;

/** An EventSource the test drives: the server's events, a dropped stream, a refused one. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static created: FakeEventSource[] = [];

  readyState = FakeEventSource.CONNECTING;
  onerror: ((event: Event) => void) | null = null;
  private readonly listeners = new Map<string, ((message: { data: string }) => void)[]>();

  constructor(readonly url: string) {
    FakeEventSource.created.push(this);
  }

  addEventListener(type: string, listener: (message: { data: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close() {
    this.readyState = FakeEventSource.CLOSED;
  }

  /** The server sends an event; 'ready' is its first on every stream, by default from a server that has heard no event yet. */
  push(type: string, data: object = type === 'ready' ? { sinceLastEventMs: null } : { type }) {
    this.readyState = FakeEventSource.OPEN;
    for (const listener of this.listeners.get(type) ?? []) listener({ data: JSON.stringify(data) });
  }

  /** The connection fails: the browser retries by itself ('retrying') unless the stream was refused. */
  fail(how: 'retrying' | 'refused') {
    this.readyState = how === 'refused' ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    this.onerror?.(new Event('error'));
  }
}

/** A line of the live feed; the tests change its id and time. */
const FEED_LINE = {
  currency: 'meritus',
  type: 'transfer',
  category: 'student_transfer',
  operator: 'student',
  amount: 1,
  description: 'Lanche',
  from: null,
  to: null,
  actorName: 'Ana',
  status: 'completed',
  reason: null,
  actorAdminId: null,
  reversedBy: null,
  reversesEntryId: null,
} as const;

let container: HTMLDivElement;
let root: Root;
let client: QueryClient;
let fetches: Map<string, number>;
let unsubscribe: (() => void)[];

/** A query some screen keeps on display, by a name for the test; counts how often it is fetched. */
function displayed(name: string, queryKey: readonly unknown[]) {
  fetches.set(name, 0);
  const observer = new QueryObserver(client, {
    queryKey,
    queryFn: async () => {
      fetches.set(name, fetches.get(name)! + 1);
      return null;
    },
  });
  unsubscribe.push(observer.subscribe(() => {}));
}

/** How often each displayed query was fetched since the last call. */
function refetched(): Record<string, number> {
  const counts = Object.fromEntries(fetches);
  for (const name of fetches.keys()) fetches.set(name, 0);
  return counts;
}

function Status() {
  return <output>{useLiveStatus() ? 'ao vivo' : 'sem conexão'}</output>;
}

function render(enabled: boolean) {
  act(() =>
    root.render(
      <QueryClientProvider client={client}>
        <LiveEventsProvider enabled={enabled}>
          <Status />
        </LiveEventsProvider>
      </QueryClientProvider>,
    ),
  );
}

const status = () => container.querySelector('output')?.textContent;
const latest = () => FakeEventSource.created.at(-1)!;
/** Moves the clock and lets the refetches it started run. */
const elapse = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

beforeEach(async () => {
  vi.useFakeTimers();
  vi.stubGlobal('EventSource', FakeEventSource);
  FakeEventSource.created = [];
  client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  fetches = new Map();
  unsubscribe = [];
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  displayed('me', queryKeyOf(routes.auth.me));
  displayed('ranking', queryKeyOf(routes.students.ranking));
  displayed('tags', queryKeyOf(routes.tags.active));
  // A read with a query: its key starts with its route's, so an event that makes the route stale reaches it.
  displayed('report', queryKeyOf(routes.reports.overview, { query: { period: '7d', turma: ['1º EM - Turma A'] } }));
  render(true);
  await elapse(0);
  refetched();
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  for (const stop of unsubscribe) stop();
  client.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('live events', () => {
  test('one stream on the events route; live once it is ready, and a first ready from a server that heard no event refetches nothing', async () => {
    expect(FakeEventSource.created.map((source) => source.url)).toEqual([urlOf(routes.events.stream)]);
    expect(status()).toBe('sem conexão');
    act(() => latest().push('ready'));
    await elapse(0);
    expect(status()).toBe('ao vivo');
    expect(refetched()).toEqual({ me: 0, ranking: 0, tags: 0, report: 0 });
  });

  test('the first ready refetches every displayed query when the server heard an event since the page started: a first read may have missed it', async () => {
    act(() => latest().push('ready', { sinceLastEventMs: 0 }));
    await elapse(0);
    expect(status()).toBe('ao vivo');
    expect(refetched()).toEqual({ me: 1, ranking: 1, tags: 1, report: 1 });
  });

  test('an event heard before the page started, or none, needs no refetch; a server that does not say is taken as having heard one', () => {
    expect(mayHaveMissedAnEvent(JSON.stringify({ sinceLastEventMs: 5_000 }), 1_200)).toBe(false);
    expect(mayHaveMissedAnEvent(JSON.stringify({ sinceLastEventMs: null }), 1_200)).toBe(false);
    expect(mayHaveMissedAnEvent(JSON.stringify({ sinceLastEventMs: 900 }), 1_200)).toBe(true);
    expect(mayHaveMissedAnEvent(JSON.stringify({ sinceLastEventMs: 1_200 }), 1_200)).toBe(true);
    expect(mayHaveMissedAnEvent('{}', 1_200)).toBe(true);
    expect(mayHaveMissedAnEvent('não é JSON', 1_200)).toBe(true);
  });

  test('a pushed event refetches the queries it makes stale, and only those', async () => {
    act(() => latest().push('ready'));
    act(() => latest().push('ranking', { type: 'ranking', boards: ['meritus'], own: null }));
    await elapse(0);
    expect(refetched()).toEqual({ me: 0, ranking: 1, tags: 0, report: 0 });
  });

  test('a ranking change reads the boards it names; the student’s own new position comes with it, without a read', async () => {
    displayed('summary', queryKeyOf(routes.students.summary));
    displayed('estelecas', queryKeyOf(routes.ledger.estelecasRanking));
    await elapse(0);
    refetched();
    client.setQueryData(queryKeyOf(routes.students.summary), { rank: { position: 7, total: 30, positionBefore: 9 } });
    act(() => latest().push('ready'));
    act(() => latest().push('ranking', { type: 'ranking', boards: ['meritus'], own: null }));
    await elapse(0);
    expect(refetched()).toMatchObject({ ranking: 1, summary: 0, estelecas: 0 });
    act(() => latest().push('ranking', { type: 'ranking', boards: ['estelecas'], own: { position: 5, total: 31 } }));
    await elapse(0);
    expect(refetched()).toMatchObject({ ranking: 0, summary: 0, estelecas: 1 });
    expect(client.getQueryData(queryKeyOf(routes.students.summary))).toEqual({ rank: { position: 5, total: 31, positionBefore: 9 } });
  });

  test('a student’s own operation brings the new balances: the session shows them without being read again', async () => {
    client.setQueryData(queryKeyOf(routes.auth.me), { role: 'student', student: { id: 's1', meritus: 10, totalEarned: 10, estelecas: 0 } });
    act(() => latest().push('ready'));
    act(() => latest().push('balance', { type: 'balance', balances: { meritus: 35, totalEarned: 40, estelecas: 2 } }));
    await elapse(0);
    expect(refetched()).toEqual({ me: 0, ranking: 0, tags: 0, report: 0 });
    expect(client.getQueryData(queryKeyOf(routes.auth.me))).toEqual({
      role: 'student',
      student: { id: 's1', meritus: 35, totalEarned: 40, estelecas: 2 },
    });
    // An event whose data cannot be read is applied by its type, and the session is read again.
    act(() => latest().push('balance', 'não é JSON' as unknown as object));
    await elapse(0);
    expect(refetched()).toEqual({ me: 1, ranking: 0, tags: 0, report: 0 });
  });

  test('the staff’s figures refresh the reports on screen, whatever their filters; a tag refreshes the session only when it is mine', async () => {
    act(() => latest().push('ready'));
    act(() => latest().push('figures'));
    await elapse(0);
    expect(refetched()).toEqual({ me: 0, ranking: 1, tags: 0, report: 1 });
    act(() => latest().push('tags', { type: 'tags', mine: false }));
    await elapse(0);
    expect(refetched()).toEqual({ me: 0, ranking: 0, tags: 1, report: 0 });
    act(() => latest().push('tags', { type: 'tags', mine: true }));
    await elapse(0);
    expect(refetched()).toEqual({ me: 1, ranking: 0, tags: 1, report: 0 });
  });

  test('pushed feed lines go to the top of the feed read so far, without a read; a feed being read, or too many lines, is read again', async () => {
    const feedKey = queryKeyOf(routes.ledger.liveOperations, { query: { limit: 2 } });
    const line = (id: string, createdAt: string) => ({ ...FEED_LINE, id, createdAt });
    client.setQueryData(feedKey, [line('b', '2026-11-28T10:00:02Z'), line('a', '2026-11-28T10:00:01Z')]);
    act(() => latest().push('ready'));
    act(() => latest().push('operations', { type: 'operations', operations: [line('c', '2026-11-28T10:00:03Z')] }));
    expect(client.getQueryData<{ id: string }[]>(feedKey)?.map((operation) => operation.id)).toEqual(['c', 'b']);
    // The same line again (another instance, a retry) changes nothing.
    act(() => latest().push('operations', { type: 'operations', operations: [line('c', '2026-11-28T10:00:03Z')] }));
    expect(client.getQueryData<{ id: string }[]>(feedKey)?.map((operation) => operation.id)).toEqual(['c', 'b']);
    // A line shown already comes again changed (reversed): it is replaced in place.
    const reversedBy = { at: '2026-11-28T10:00:04Z', by: 'Coordenação', reason: 'Engano' };
    act(() => latest().push('operations', { type: 'operations', operations: [{ ...line('b', '2026-11-28T10:00:02Z'), reversedBy }] }));
    expect(client.getQueryData<{ id: string; reversedBy: unknown }[]>(feedKey)?.map((operation) => operation.reversedBy)).toEqual([
      FEED_LINE.reversedBy,
      reversedBy,
    ]);

    displayed('feed', feedKey);
    await elapse(0);
    refetched();
    act(() => latest().push('operations', { type: 'operations', operations: null }));
    await elapse(0);
    expect(refetched()).toMatchObject({ feed: 1, me: 0, ranking: 0 });
  });

  test("one author's feed is read again on pushed lines, which do not say whose they are, and never takes them as they come", async () => {
    const feedKey = queryKeyOf(routes.ledger.liveOperations, { query: { limit: 2, authorId: '00000000-0000-4000-8000-000000000001' } });
    const line = (id: string, createdAt: string) => ({ ...FEED_LINE, id, createdAt });
    client.setQueryData(feedKey, [line('a', '2026-11-28T10:00:01Z')]);
    displayed('feed', feedKey);
    act(() => latest().push('ready'));
    await elapse(0);
    refetched();
    act(() => latest().push('operations', { type: 'operations', operations: [line('c', '2026-11-28T10:00:03Z')] }));
    expect(client.getQueryData<{ id: string }[]>(feedKey)?.map((operation) => operation.id)).toEqual(['a']);
    await elapse(0);
    expect(refetched()).toMatchObject({ feed: 1 });
  });

  test('after the stream drops and the browser reconnects it, every displayed query is refetched once (events may have been missed)', async () => {
    act(() => latest().push('ready'));
    act(() => latest().fail('retrying'));
    await elapse(60_000);
    expect(status()).toBe('sem conexão');
    // The browser reconnects the same EventSource by itself; nothing is refetched until it is back.
    expect(FakeEventSource.created).toHaveLength(1);
    expect(refetched()).toEqual({ me: 0, ranking: 0, tags: 0, report: 0 });
    act(() => latest().push('ready'));
    await elapse(0);
    expect(status()).toBe('ao vivo');
    expect(refetched()).toEqual({ me: 1, ranking: 1, tags: 1, report: 1 });
  });

  test(
    'a refused stream: who is signed in is asked at once, ' +
      'a new stream opens after 5 s and not before, each time, and its ready refetches everything',
    async () => {
      act(() => latest().push('ready'));
      const refused = latest();
      act(() => refused.fail('refused'));
      await elapse(0);
      expect(refused.readyState).toBe(FakeEventSource.CLOSED);
      expect(refetched()).toEqual({ me: 1, ranking: 0, tags: 0, report: 0 });

      await elapse(4_999);
      expect(FakeEventSource.created).toHaveLength(1);
      await elapse(1);
      expect(FakeEventSource.created).toHaveLength(2);

      // Refused again before it was ever ready: the next try waits its 5 s too.
      act(() => latest().fail('refused'));
      await elapse(4_999);
      expect(FakeEventSource.created).toHaveLength(2);
      await elapse(1);
      expect(FakeEventSource.created).toHaveLength(3);
      refetched();

      act(() => latest().push('ready'));
      await elapse(0);
      expect(status()).toBe('ao vivo');
      expect(refetched()).toEqual({ me: 1, ranking: 1, tags: 1, report: 1 });
    },
  );

  test('signing out closes the stream and cancels a pending reconnect', async () => {
    act(() => latest().push('ready'));
    act(() => latest().fail('refused'));
    render(false);
    await elapse(60_000);
    expect(FakeEventSource.created).toHaveLength(1);
    expect(latest().readyState).toBe(FakeEventSource.CLOSED);
    expect(status()).toBe('sem conexão');

    render(true);
    expect(FakeEventSource.created).toHaveLength(2);
    render(false);
    expect(latest().readyState).toBe(FakeEventSource.CLOSED);
  });
});
