/**
 * A signed-in browser tab of the web app, simulated in Node for bench:school-day with the app's own code: a query
 * client (createQueryClient) holding a QueryObserver per read its screen makes (readOf and the screen's options), the
 * app's API client (createApiClient) with this user's session cookie, and the app's live connection
 * (connectLiveEvents) on the `eventsource` package. What it asks and receives is counted in a shared Stats.
 */
import { EventSource as NodeEventSource, type EventSourceFetchInit } from 'eventsource';
import { Agent, fetch as undiciFetch } from 'undici';
import { QueryObserver, type QueryObserverOptions } from '@tanstack/react-query';
import { ALL_ROUTES, routes } from '../src/shared/contract/routes.ts';
import { urlOf, type Route } from '../src/shared/contract/route.ts';
import { createApiClient, isRefusal, type ApiClient } from '../src/web/lib/api.ts';
import { createQueryClient } from '../src/web/lib/query-client.ts';
import { queryKeyOf, setApiClientOf } from '../src/web/lib/query-keys.ts';
import { connectLiveEvents, type EventSourceClass } from '../src/web/lib/live-connection.ts';

/** Whose requests: a student or staff member with the app open, or a student arriving (signs in, loads the dashboard, leaves). */
export type Role = 'student' | 'staff' | 'arrival';

/** Why a query ran its read: the screen's first load, a pushed event (by type), the user's own write, or a fallback poll. */
export type Cause = 'first load' | `event ${string}` | 'own write' | 'poll or other';

/** One read a screen keeps on: the query's options, and the interval it polls at while the event stream is down. */
type ReadOptions = QueryObserverOptions<unknown, Error, unknown, unknown, readonly unknown[]>;
export type ScreenRead = { options: ReadOptions; fallbackMs: number | false };
export type Screen = { name: string; role: Role; reads: ScreenRead[] };

type RouteMatch = { route: Route; pattern: RegExp; params: number };
/** The contract's routes as patterns, the ones with fewer parameters first ('/students/import' before '/students/:id'). */
const MATCHERS: RouteMatch[] = ALL_ROUTES.map((route) => ({
  route,
  pattern: new RegExp(`^${route.path.replace(/:\w+/g, '[^/]+')}$`),
  params: (route.path.match(/:/g) ?? []).length,
})).sort((a, b) => a.params - b.params);

/** The contract route a request went to: 'GET /api/ranking', 'POST /api/admin/students/:id/meritus'. */
export function routeIdOf(method: string, url: string): string {
  const path = url.split('?')[0]!;
  return MATCHERS.find((match) => match.route.method === method && match.pattern.test(path))?.route.id ?? `${method} ${path}`;
}

type PerRole = Record<Role, number>;
const perRole = (): PerRole => ({ student: 0, staff: 0, arrival: 0 });

/** What every simulated user asked and received; counted only while `measuring` (errors always). */
export class Stats {
  /** When the measured window started (performance.now()); requests started before it are not counted. */
  private measuredFrom = Infinity;
  private measuring = false;
  private nextRequest = 0;
  private readonly inFlight = new Map<number, { id: string; started: number }>();
  /** Requests of the window still unanswered at its end, by route: counted in the percentiles at their age then. */
  readonly unanswered = new Map<string, number>();
  /** Set once the run is over: requests cut short by the server's stop are not errors. */
  stopping = false;
  readonly latencies = new Map<string, number[]>();
  /** Answers by route and status, for the ones not 2xx/304 (429s from the rate limits, 4xx refusals). */
  readonly refusals = new Map<string, Map<number, number>>();
  readonly causes = new Map<Cause, number>();
  readonly responseBytes = perRole();
  readonly events = perRole();
  readonly eventBytes = perRole();
  readonly eventTypes = new Map<string, number>();
  readonly errors: string[] = [];
  cancelled = 0;
  /** Requests whose connection failed (reset, closed by the server): the API client retries them. */
  connectionFailures = 0;

  startWindow(): void {
    this.measuredFrom = performance.now();
    this.measuring = true;
  }

  /**
   * Ends the measured window: each request it started that is still unanswered counts at its age so far (a lower
   * bound), so a backlog shows in the percentiles instead of leaving them to the requests that got through.
   */
  endWindow(): void {
    const now = performance.now();
    for (const { id, started } of this.inFlight.values()) {
      if (started < this.measuredFrom) continue;
      this.sample(id, now - started);
      this.unanswered.set(id, (this.unanswered.get(id) ?? 0) + 1);
    }
    this.measuring = false;
  }

  /** A request sent: returns what `request` takes once it is answered (or `settle` if it is not). */
  begin(method: string, url: string): { key: number; id: string; started: number } {
    const started = performance.now();
    const key = this.nextRequest++;
    const id = routeIdOf(method, url);
    this.inFlight.set(key, { id, started });
    return { key, id, started };
  }

  settle(sent: { key: number }): void {
    this.inFlight.delete(sent.key);
  }

  private sample(id: string, ms: number): void {
    const list = this.latencies.get(id) ?? [];
    list.push(ms);
    this.latencies.set(id, list);
  }

  request(sent: { key: number; id: string; started: number }, status: number, bytes: number, role: Role | undefined): void {
    const { id, started } = sent;
    this.settle(sent);
    if (status >= 500 && !this.stopping) this.errors.push(`${id} answered ${status}`);
    if (!this.measuring || started < this.measuredFrom) return;
    if (status < 300 || status === 304) {
      this.sample(id, performance.now() - started);
    } else {
      const byStatus = this.refusals.get(id) ?? new Map<number, number>();
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      this.refusals.set(id, byStatus);
    }
    if (role) this.responseBytes[role] += bytes;
  }

  /** A read aborted in flight by a newer one of the same query (what the query client does on a new invalidation). */
  cancel(): void {
    if (this.measuring) this.cancelled += 1;
  }

  fetched(cause: Cause): void {
    if (this.measuring) this.causes.set(cause, (this.causes.get(cause) ?? 0) + 1);
  }

  event(role: Role, type: string, data: string): void {
    if (!this.measuring) return;
    this.events[role] += 1;
    // The bytes of the message as sent: 'event: <type>\ndata: <data>\n\n'.
    this.eventBytes[role] += Buffer.byteLength(`event: ${type}\ndata: ${data}\n\n`);
    this.eventTypes.set(type, (this.eventTypes.get(type) ?? 0) + 1);
  }
}

const NO_BODY = new Set([101, 204, 205, 304]);

export class SimulatedUser {
  readonly client = createQueryClient();
  readonly api: ApiClient;
  private readonly connections = new Agent({ connections: 6 });
  cookie = '';
  /** Why a read that starts now runs: set around the first load, each pushed event and each write (all synchronous). */
  cause: Cause = 'poll or other';
  private live = false;
  private openedAt = 0;
  private observers: {
    observer: QueryObserver<unknown, Error, unknown, unknown, readonly unknown[]>;
    read: ScreenRead;
    unsubscribe: () => void;
  }[] = [];
  private stopLive: (() => void) | undefined;

  constructor(
    readonly base: string,
    readonly role: Role,
    readonly stats: Stats,
  ) {
    this.api = createApiClient({ fetch: (input, init) => this.fetch(String(input), init) });
    setApiClientOf(this.client, this.api);
  }

  /**
   * The API client's fetch: this user's cookie and the server's address added, the answer timed to its last byte. Like
   * a browser on HTTP/1.1, a user holds at most 6 connections to the server, its event stream's included.
   */
  private async fetch(path: string, init: RequestInit | undefined): Promise<Response> {
    const headers = new Headers(init?.headers);
    if (this.cookie) headers.set('cookie', this.cookie);
    const method = init?.method ?? 'GET';
    const sent = this.stats.begin(method, path);
    let response: Awaited<ReturnType<typeof undiciFetch>>;
    let body: ArrayBuffer;
    try {
      response = await undiciFetch(`${this.base}${path}`, {
        method,
        headers: Object.fromEntries(headers),
        body: init?.body as string | undefined,
        signal: init?.signal ?? null,
        dispatcher: this.connections,
      });
      body = await response.arrayBuffer();
    } catch (error) {
      this.stats.settle(sent);
      if (init?.signal?.aborted) this.stats.cancel();
      // A connection that failed is retried by the API client (reads and keyed writes); a call that fails for good is an error (optionsOf, write).
      else if (!this.stats.stopping) this.stats.connectionFailures += 1;
      throw error;
    }
    this.stats.request(sent, response.status, body.byteLength, this.role);
    const cookie = response.headers.get('set-cookie');
    if (cookie) this.cookie = cookie.split(';')[0]!;
    return new Response(NO_BODY.has(response.status) ? null : body, {
      status: response.status,
      headers: Object.fromEntries(response.headers),
    });
  }

  /** Signs in through the login route; the session starts with the user the login answered, as the app's setSessionUser does. */
  async signIn(login: { role: 'student'; studentId: string } | { role: 'admin'; email: string }, password: string): Promise<void> {
    const user =
      login.role === 'student'
        ? await this.api.call(routes.auth.studentLogin, { body: { studentId: login.studentId, password } })
        : await this.api.call(routes.auth.adminLogin, { body: { email: login.email, password } });
    this.client.setQueryData(queryKeyOf(routes.auth.me), user);
  }

  private optionsOf(read: ScreenRead): ReadOptions {
    const queryFn = read.options.queryFn as (context: unknown) => unknown;
    return {
      ...read.options,
      queryFn: async (context: { signal: AbortSignal }) => {
        this.stats.fetched(this.cause);
        try {
          return await queryFn(context);
        } catch (error) {
          if (!context.signal.aborted && !isRefusal(error) && !this.stats.stopping)
            this.stats.errors.push(`${String(read.options.queryKey[0])} failed: ${String(error)}`);
          throw error;
        }
      },
      refetchInterval: this.live ? false : read.fallbackMs,
    };
  }

  /** Opens a screen: its reads start, and (with `live`) the event stream connects, as the signed-in app does. */
  open(screen: Screen, live = true): void {
    this.openedAt = performance.now();
    this.cause = 'first load';
    for (const read of screen.reads) {
      const observer = new QueryObserver(this.client, this.optionsOf(read));
      this.observers.push({ observer, read, unsubscribe: observer.subscribe(() => {}) });
    }
    this.cause = 'poll or other';
    if (!live) return;
    this.stopLive = connectLiveEvents({
      client: this.client,
      EventSource: this.eventSourceClass(),
      url: `${this.base}${urlOf(routes.events.stream)}`,
      pageAgeMs: () => performance.now() - this.openedAt,
      onLiveChange: (live) => {
        this.live = live;
        for (const { observer, read } of this.observers) observer.setOptions(this.optionsOf(read));
      },
    });
  }

  /** Resolves once every read of the screen has an answer (or failed). */
  async loaded(): Promise<void> {
    while (
      this.observers.some(({ observer }) => observer.getCurrentResult().isPending && observer.getCurrentResult().fetchStatus !== 'idle')
    )
      await new Promise((resolve) => setTimeout(resolve, 50));
  }

  /** A write made by this user, then what the app does after it (`after`, on this user's query client). */
  async write<T>(send: (api: ApiClient) => Promise<T>, after?: (result: T) => void): Promise<T> {
    const result = await send(this.api);
    this.cause = 'own write';
    try {
      after?.(result);
    } finally {
      this.cause = 'poll or other';
    }
    return result;
  }

  close(): void {
    this.stopLive?.();
    for (const { unsubscribe } of this.observers) unsubscribe();
    this.observers = [];
    this.client.clear();
    void this.connections.close();
  }

  /** The `eventsource` package's EventSource with this user's cookie, its messages counted and their reads attributed to them. */
  private eventSourceClass(): EventSourceClass {
    const withCookie = (input: string | URL, init: EventSourceFetchInit) =>
      undiciFetch(input, { ...init, headers: { ...init.headers, cookie: this.cookie }, dispatcher: this.connections });
    const dispatching = (event: Event, dispatch: () => boolean) => {
      if ('data' in event) this.stats.event(this.role, event.type, String(event.data));
      const previous = this.cause;
      this.cause = `event ${event.type}`;
      try {
        return dispatch();
      } finally {
        this.cause = previous;
      }
    };
    class UserEventSource extends NodeEventSource {
      constructor(url: string) {
        super(url, { fetch: withCookie });
      }

      override dispatchEvent(event: Event): boolean {
        return dispatching(event, () => super.dispatchEvent(event));
      }
    }
    return UserEventSource as unknown as EventSourceClass;
  }
}
