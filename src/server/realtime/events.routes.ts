import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../app-error.ts';
import { route } from '../contract-routes.ts';
import { routes } from '../../shared/contract/routes.ts';
import { hashToken, resolveSession } from '../modules/auth/auth.service.ts';
import { sessionOf } from '../plugins/auth.ts';
import { logRequest } from '../plugins/request-log.ts';
import { childIdsOf } from '../modules/families/families.service.ts';
import type { ClientEvent, ReadyEvent } from '../../shared/live-events.ts';
import { endsSession, isSessionsEnded } from './event-bus.ts';

const HEARTBEAT_MS = 25_000;
/**
 * Open streams one session may hold: a tab each, more than anyone keeps open. Past it a new stream is refused with 429
 * (that tab's screens read on their own timer instead), so one session cannot pile up connections on the server.
 */
export const MAX_STREAMS_PER_SESSION = 10;
/** Open streams one account may hold over all its sessions (a phone and a computer, each with tabs): signing in again and again adds none past it. */
export const MAX_STREAMS_PER_ACCOUNT = 20;
const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};
/** How long a browser waits before reconnecting a dropped stream (the SSE `retry:` field). */
const RETRY_MS = 3000;

/**
 * The last words of a stream the server ends because it stops: when to come back, spread
 * over a few seconds so the clients of a restarting server do not all reconnect at once.
 * The browser's EventSource reconnects by itself after it; live-events.ts then refetches.
 */
export function reconnectHint(): string {
  return `retry: ${RETRY_MS + Math.floor(Math.random() * RETRY_MS)}\n\n`;
}

/** Open streams by key, against a limit: taken when one opens, given back when it ends. */
function streamCounts(limit: number) {
  const counts = new Map<string, number>();
  return {
    full: (key: string) => (counts.get(key) ?? 0) >= limit,
    take: (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1),
    release: (key: string) => {
      const left = (counts.get(key) ?? 1) - 1;
      if (left > 0) counts.set(key, left);
      else counts.delete(key);
    },
  };
}

export async function eventsRoutes(app: FastifyInstance, { database, events, live }: AppDeps): Promise<void> {
  /** The end function of every open stream, so a stopping server ends them with the reconnect hint. */
  const openStreams = new Set<(lastWords?: string) => void>();
  /** How many streams each session (by its token's hash) and each account (by role and id) has open. */
  const streamsOfSession = streamCounts(MAX_STREAMS_PER_SESSION);
  const streamsOfAccount = streamCounts(MAX_STREAMS_PER_ACCOUNT);
  let stopping = false;
  app.addHook('preClose', async () => {
    stopping = true;
    for (const end of openStreams) end(reconnectHint());
  });

  route(app, routes.events.stream, async (request, reply) => {
    const { principal, token } = sessionOf(request);
    const session = await app.sessionCache.session(token);
    if (!session) throw new AppError('unauthenticated');
    const tokenHash = hashToken(token);
    // HEAD has no body to stream: the headers alone, at once, instead of a response that never ends.
    if (request.method === 'HEAD') return reply.headers(SSE_HEADERS).send();
    const account = `${principal.role}:${principal.id}`;
    if (streamsOfSession.full(tokenHash)) throw new AppError('live_streams_full');
    if (streamsOfAccount.full(account)) throw new AppError('live_streams_account_full');
    streamsOfSession.take(tokenHash);
    streamsOfAccount.take(account);

    reply.hijack();
    const res = reply.raw;
    let ended = false;
    // Everything below runs from timers and the bus: it must neither throw nor write to a closed socket.
    const end = (lastWords?: string) => {
      if (ended) return;
      ended = true;
      openStreams.delete(end);
      streamsOfSession.release(tokenHash);
      streamsOfAccount.release(account);
      clearInterval(heartbeat);
      clearTimeout(expiry);
      unsubscribe();
      if (!res.writableEnded && !res.destroyed) res.end(lastWords);
      // The reply is hijacked, so the request log's onResponse never sees it: the stream's one line is written here.
      logRequest(request, reply, res.headersSent ? res.statusCode : 499);
    };
    const write = (text: string) => {
      if (ended) return;
      if (res.writableEnded || res.destroyed) return end();
      try {
        res.write(text);
      } catch (error) {
        request.log.warn({ err: error }, 'falha ao escrever no fluxo de eventos');
        end();
      }
    };
    const send = (event: ClientEvent) => write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    /** Asks the database whether the session still holds (an ended one may have been missed); ends the stream if not. */
    const stillSignedIn = async (): Promise<boolean> => {
      try {
        if (await resolveSession(database.db, token)) return true;
      } catch (error) {
        request.log.warn({ err: error }, 'não foi possível verificar a sessão do fluxo de eventos');
      }
      end();
      return false;
    };

    // What changed reaches the stream through the hub (decision 019); the stream itself watches for its session's end.
    // A guardian's stream hears their children's changes: the children as the stream opens; a link removed or a child added
    // ends it (family_changed, decision 040), and the next one reads them anew.
    // A change told while the children are read would come before the stream listens: it is noted, and ends it at once.
    let children: Set<string> | undefined;
    let familyChangedWhileRead = false;
    if (principal.role === 'guardian') {
      const noteFamilyChange = events.subscribe((event) => {
        if (event.type === 'family_changed' && endsSession(event, tokenHash, principal)) familyChangedWhileRead = true;
      });
      try {
        children = new Set(await childIdsOf(database.db, principal.id));
      } finally {
        noteFamilyChange();
      }
    }
    const leave = live.join({ principal, send, ...(children ? { children } : {}) });
    const unsubscribeSessions = events.subscribe((event) => {
      if (event.type === 'resync') {
        void stillSignedIn().then((signedIn) => signedIn && send({ type: 'refetch' }));
      } else if (isSessionsEnded(event)) {
        if (endsSession(event, tokenHash, principal)) end();
      }
    });
    const unsubscribe = () => {
      leave();
      unsubscribeSessions();
    };
    // Idle expiry and any missed end are caught here; logout, removal and a new password arrive as sessions_ended.
    const heartbeat = setInterval(() => {
      void stillSignedIn().then((signedIn) => signedIn && write(': heartbeat\n\n'));
    }, HEARTBEAT_MS);
    // One millisecond past the expiry: a timer may fire up to 1 ms early by the wall clock (seen in the tests).
    const expiry = setTimeout(end, session.expiresAt - Date.now() + 1);
    openStreams.add(end);
    res.on('close', () => end());
    res.on('error', (error) => {
      request.log.debug({ err: error }, 'fluxo de eventos interrompido');
      end();
    });
    // The client may have gone while the session was looked up, before 'close' had a listener.
    if (res.destroyed) return end();

    res.writeHead(200, SSE_HEADERS);
    // A stream asked for while the server stops (on a connection still open) is told at once to come back later.
    if (stopping) return end(reconnectHint());
    write(`retry: ${RETRY_MS}\n\n`);
    // After the retry hint, so the browser comes back at once, to a stream that reads the children anew.
    if (familyChangedWhileRead) return end();
    // Only an event this user would have been told of: the timing of others' (a logout, a refused transfer) stays theirs.
    const ready: ReadyEvent = { sinceLastEventMs: events.msSinceLastEvent((event) => live.tells(principal, event)) };
    write(`event: ready\ndata: ${JSON.stringify(ready)}\n\n`);
  });
}
