import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, DbOrTx } from '../db/client.ts';

const CHANNEL = 'meritus_events';
/** NOTIFY payloads are limited to 8000 bytes; beyond this many ids everyone is told to refetch. */
const MAX_IDS_IN_PAYLOAD = 150;

/** A change committed to the database, as it travels between server instances. */
export type BusEvent =
  | { type: 'ledger'; studentIds: string[] | 'all'; status: 'completed' | 'failed' }
  | { type: 'tags' }
  | { type: 'students' };

export type EventBus = {
  /** Published inside the caller's transaction: delivered to every instance only if it commits. */
  publish(db: DbOrTx, event: BusEvent): Promise<void>;
  subscribe(listener: (event: BusEvent) => void): () => void;
  close(): Promise<void>;
};

function compact(event: BusEvent): BusEvent {
  if (event.type === 'ledger' && Array.isArray(event.studentIds) && event.studentIds.length > MAX_IDS_IN_PAYLOAD) {
    return { ...event, studentIds: 'all' };
  }
  return event;
}

/** Fans PostgreSQL NOTIFY messages out to this instance's live streams. */
export async function createEventBus(database: Database, log: FastifyBaseLogger): Promise<EventBus> {
  const listeners = new Set<(event: BusEvent) => void>();
  const unlisten = await database.listen(CHANNEL, (payload) => {
    let event: BusEvent;
    try {
      event = JSON.parse(payload) as BusEvent;
    } catch {
      log.warn({ payload }, 'ignoring malformed event');
      return;
    }
    for (const listener of listeners) listener(event);
  });
  return {
    async publish(db, event) {
      await db.execute(sql`SELECT pg_notify(${CHANNEL}, ${JSON.stringify(compact(event))})`);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      await unlisten();
    },
  };
}
