import type { Db } from '../../db/client.ts';
import { endsSession, type SessionsEnded } from '../../realtime/event-bus.ts';
import { hashToken, loadSession, sessionStillCurrent, type SessionState } from './auth.service.ts';
import type { Principal } from './actor.ts';

export type SessionCache = {
  /** The principal behind a session token, as `resolveSession` would answer. */
  resolve(token: string): Promise<Principal | null>;
  /** The same session with the times that end it (the event stream closes itself at its expiry). */
  session(token: string): Promise<SessionState | null>;
  /** Drops ended sessions (the event bus brings them from every instance). */
  forget(ended: SessionsEnded): void;
  /** Drops everything: after the event bus was disconnected, some ended sessions may never have been heard of. */
  forgetAll(): void;
};

const MAX_ENTRIES = 10_000;

/**
 * Reuses a resolved session for `ttlMs`, so a burst of requests (a page's parallel reads,
 * a run of transfers) costs one database lookup instead of one each. Expiry is still
 * checked on every request from the remembered times, the idle timer is refreshed through
 * the database as before, and an ended session is forgotten on every instance through the
 * event bus; `ttlMs` bounds how long a lost notification could leave one usable. Money never
 * depends on it: ledger_transfer() locks the sender only while they are a current student.
 */
export function createSessionCache(db: Db, ttlMs: number): SessionCache {
  const entries = new Map<string, SessionState & { checkedAt: number }>();
  const session = async (token: string): Promise<SessionState | null> => {
    const tokenHash = hashToken(token);
    const now = Date.now();
    const cached = entries.get(tokenHash);
    if (cached && now - cached.checkedAt < ttlMs && sessionStillCurrent(cached, now)) {
      const { checkedAt: _, ...state } = cached;
      return state;
    }
    const state = await loadSession(db, tokenHash);
    entries.delete(tokenHash);
    if (!state || ttlMs <= 0) return state;
    entries.set(tokenHash, { ...state, checkedAt: now });
    if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    return state;
  };
  return {
    session,
    async resolve(token) {
      return (await session(token))?.principal ?? null;
    },
    forget(ended) {
      for (const [tokenHash, entry] of entries) {
        if (endsSession(ended, tokenHash, entry.principal)) entries.delete(tokenHash);
      }
    },
    forgetAll() {
      entries.clear();
    },
  };
}
