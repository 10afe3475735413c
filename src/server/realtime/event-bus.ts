import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, DbOrTx } from '../db/client.ts';

const CHANNEL = 'meritus_events';
/** How many of the latest events an instance remembers, for msSinceLastEvent. */
const RECENT_EVENTS = 64;
/** NOTIFY payloads are limited to 8000 bytes; beyond this many ids everyone is told to refetch. */
const MAX_IDS_IN_PAYLOAD = 150;

/** A change committed to the database, as it travels between server instances. */
export type BusEvent =
  /**
   * Operations committed (the students whose balances moved) or refused; `lines` names the live feed's lines they
   * added (ledger rows by id or by batch, refused attempts by their audit record), or 'all' past what a payload holds.
   */
  | { type: 'ledger'; studentUuids: string[] | 'all'; status: 'completed' | 'failed'; lines: FeedLines | 'all' }
  /** Weekly tags or likes changed; `studentUuids`: whose own tags changed (none for a like). */
  | { type: 'tags'; studentUuids: string[] | 'all' }
  | { type: 'students' }
  /** Students chose to appear in the ranking or not (decision 029): the ranking reads them again by key, like an operation's. */
  | { type: 'ranking_visibility'; studentUuids: string[] }
  /** A turma goal's contributions were given back (decision 026): each of `studentUuids` watching is told what they got back. */
  | { type: 'goal_refunded'; itemId: string; studentUuids: string[] | 'all' }
  /**
   * The Loja's orders or catalogue changed (issue 35): `studentUuids` whose own orders changed (told at once; 'all': anyone's), `turmaIds`
   * the turmas whose staff's order queues changed ('all': any turma's, a turma goal's order); `catalogue`: items changed,
   * so the students of those turmas read their store again.
   */
  | { type: 'store'; studentUuids: string[] | 'all'; turmaIds: string[] | 'all'; catalogue: boolean }
  /** The school's settings changed (decision 009): each instance drops its copy. */
  | { type: 'settings' }
  /** Sessions deleted (logout, removal, password reset): each instance drops them from its session cache. */
  | { type: 'sessions_ended'; tokenHash: string }
  | { type: 'sessions_ended'; studentUuid: string }
  /**
   * A staff member's role or turmas changed: each instance drops their cached sessions, so the next request reads what
   * they may do anew, and ends their event streams, which reconnect with it.
   */
  | { type: 'staff_changed'; adminId: string }
  /**
   * A guardian's children changed (a link removed or a child added): their event streams end and reconnect with the new
   * list, so a removed child's changes stop reaching them at once, and an added one's start.
   */
  | { type: 'family_changed'; guardianId: string };

/** The live feed's lines an operation added: ledger rows by id, a whole turma's rows by batch, refused attempts by audit id. */
export type FeedLines = { entryIds: string[]; batchIds: string[]; refusedIds: number[] };

/**
 * What a stream (and the session cache's copy) must start over for: sessions ended, a staff member's role or turmas
 * changed, or a guardian's children (their cached sessions are only read again).
 */
export type SessionsEnded = Extract<BusEvent, { type: 'sessions_ended' | 'staff_changed' | 'family_changed' }>;

export function isSessionsEnded(event: DeliveredEvent): event is SessionsEnded {
  return event.type === 'sessions_ended' || event.type === 'staff_changed' || event.type === 'family_changed';
}

/**
 * Told to this instance's listeners only, when its LISTEN connection came back after a
 * loss: any event may have been missed, so whatever was derived from them must be redone.
 */
export type ResyncEvent = { type: 'resync' };

/** What a subscriber hears: the bus's events plus this instance's resync. */
export type DeliveredEvent = BusEvent | ResyncEvent;

/** Whether an ended-sessions event covers one session (its own token, every session of its student, or of its staff member). */
export function endsSession(ended: SessionsEnded, tokenHash: string, principal: { role: string; id: string }): boolean {
  if (ended.type === 'staff_changed') return principal.role === 'admin' && principal.id === ended.adminId;
  if (ended.type === 'family_changed') return principal.role === 'guardian' && principal.id === ended.guardianId;
  return 'tokenHash' in ended ? ended.tokenHash === tokenHash : principal.role === 'student' && principal.id === ended.studentUuid;
}

export type EventBus = {
  /** Published inside the caller's transaction: delivered to every instance only if it commits. */
  publish(db: DbOrTx, event: BusEvent): Promise<void>;
  /**
   * For the ledger's hot path, called once its transaction has committed: events are
   * merged over 20 ms and sent together outside any transaction, because a NOTIFY
   * inside a transaction serialises every commit behind one global lock.
   */
  publishAfterCommit(event: BusEvent): void;
  /** A listener that throws is logged and skipped; the others still hear the event. */
  subscribe(listener: (event: DeliveredEvent) => void): () => void;
  /**
   * How long ago, in milliseconds, this instance heard the last event that `matches` (one a given user is told of);
   * null if it heard none since it started. When that event is older than the last RECENT_EVENTS this instance
   * remembers, the oldest of those stands in for it: a bound that is never later than the event.
   */
  msSinceLastEvent(matches: (event: DeliveredEvent) => boolean): number | null;
  close(): Promise<void>;
};

const tooMany = (ids: readonly unknown[] | 'all') => ids === 'all' || ids.length > MAX_IDS_IN_PAYLOAD;

/** Keeps a payload under NOTIFY's limit: past MAX_IDS_IN_PAYLOAD ids, a list becomes 'all'. */
function compact(event: BusEvent): BusEvent {
  if (event.type === 'ledger') {
    const { lines } = event;
    return {
      ...event,
      studentUuids: tooMany(event.studentUuids) ? 'all' : event.studentUuids,
      lines: lines === 'all' || tooMany(lines.entryIds) || tooMany(lines.batchIds) || tooMany(lines.refusedIds) ? 'all' : lines,
    };
  }
  if ((event.type === 'tags' || event.type === 'goal_refunded') && tooMany(event.studentUuids)) return { ...event, studentUuids: 'all' };
  if (event.type === 'store' && (tooMany(event.studentUuids) || tooMany(event.turmaIds)))
    return {
      ...event,
      studentUuids: tooMany(event.studentUuids) ? 'all' : event.studentUuids,
      turmaIds: tooMany(event.turmaIds) ? 'all' : event.turmaIds,
    };
  return event;
}

/** A bus for writes nobody watches yet (the first start's demo history): it drops every event. */
export const silentEvents: EventBus = {
  publish: async () => {},
  publishAfterCommit: () => {},
  subscribe: () => () => {},
  msSinceLastEvent: () => null,
  close: async () => {},
};

/** Long enough to merge a busy school's operations into a few notifications a second; too short for anyone to notice. */
const BATCH_MS = 20;

/** The union of two lists of ids, 'all' when either is. */
function union<T>(a: T[] | 'all', b: T[] | 'all'): T[] | 'all' {
  return a === 'all' || b === 'all' ? 'all' : [...new Set([...a, ...b])];
}

function mergeLines(a: FeedLines | 'all', b: FeedLines | 'all'): FeedLines | 'all' {
  if (a === 'all' || b === 'all') return 'all';
  return {
    entryIds: union(a.entryIds, b.entryIds) as string[],
    batchIds: union(a.batchIds, b.batchIds) as string[],
    refusedIds: union(a.refusedIds, b.refusedIds) as number[],
  };
}

/** Merges queued events: one ledger event per status, one tags and one store event, each with the union of their ids; others once each. */
export function mergeEvents(events: BusEvent[]): BusEvent[] {
  const merged: BusEvent[] = [];
  const ledger = new Map<'completed' | 'failed', Extract<BusEvent, { type: 'ledger' }>>();
  let tags: Extract<BusEvent, { type: 'tags' }> | undefined;
  let store: Extract<BusEvent, { type: 'store' }> | undefined;
  for (const event of events) {
    if (event.type === 'ledger') {
      const current = ledger.get(event.status);
      ledger.set(
        event.status,
        current
          ? { ...current, studentUuids: union(current.studentUuids, event.studentUuids), lines: mergeLines(current.lines, event.lines) }
          : event,
      );
    } else if (event.type === 'tags') {
      tags = tags ? { type: 'tags', studentUuids: union(tags.studentUuids, event.studentUuids) } : event;
    } else if (event.type === 'store') {
      store = store
        ? {
            type: 'store',
            studentUuids: union(store.studentUuids, event.studentUuids),
            turmaIds: union(store.turmaIds, event.turmaIds),
            catalogue: store.catalogue || event.catalogue,
          }
        : event;
    } else {
      const key = JSON.stringify(event);
      if (!merged.some((other) => JSON.stringify(other) === key)) merged.push(event);
    }
  }
  merged.push(...ledger.values());
  if (tags) merged.push(tags);
  if (store) merged.push(store);
  return merged;
}

/** Fans PostgreSQL NOTIFY messages out to this instance's live streams. */
export async function createEventBus(database: Database, log: FastifyBaseLogger): Promise<EventBus> {
  const listeners = new Set<(event: DeliveredEvent) => void>();
  let queue: BusEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  let sending = Promise.resolve();
  /** One statement for any number of events: one round trip. */
  const notify = async (db: DbOrTx, events: BusEvent[]) => {
    const notifications = events.map((event) => sql`pg_notify(${CHANNEL}, ${JSON.stringify(compact(event))})`);
    await db.execute(sql`SELECT ${sql.join(notifications, sql`, `)}`);
  };
  const flush = () => {
    timer = undefined;
    const batch = mergeEvents(queue);
    queue = [];
    sending = sending
      .then(() => notify(database.db, batch))
      .catch((error: unknown) => log.warn({ err: error }, 'falha ao publicar evento ao vivo'));
  };
  // Listeners run inside the database driver's notification callback: an exception escaping there would stop the process.
  /** The latest events heard, oldest first, with when. */
  const recent: { event: DeliveredEvent; at: number }[] = [];
  let forgotten = false;
  const deliver = (event: DeliveredEvent) => {
    recent.push({ event, at: performance.now() });
    if (recent.length > RECENT_EVENTS) {
      recent.shift();
      forgotten = true;
    }
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        log.error({ err: error, event }, 'ouvinte de eventos ao vivo falhou');
      }
    }
  };
  const unlisten = await database.listen(
    CHANNEL,
    (payload) => {
      let event: BusEvent;
      try {
        event = JSON.parse(payload) as BusEvent;
      } catch {
        log.warn({ payload }, 'ignoring malformed event');
        return;
      }
      deliver(event);
    },
    {
      onLost: (error) => log.warn({ err: error }, 'conexão de eventos ao vivo perdida; reconectando'),
      onResumed: () => {
        log.info('conexão de eventos ao vivo restabelecida; eventos perdidos serão recarregados');
        deliver({ type: 'resync' });
      },
    },
  );
  return {
    async publish(db, event) {
      await notify(db, [event]);
    },
    publishAfterCommit(event) {
      queue.push(event);
      timer ??= setTimeout(flush, BATCH_MS);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    msSinceLastEvent(matches) {
      const last = recent.findLast(({ event }) => matches(event)) ?? (forgotten ? recent[0] : undefined);
      return last ? Math.floor(performance.now() - last.at) : null;
    },
    async close() {
      if (timer) {
        clearTimeout(timer);
        flush();
      }
      await sending;
      listeners.clear();
      await unlisten();
    },
  };
}
