import type { Db } from '../../db/client.ts';
import type { BusEvent } from '../../realtime/event-bus.ts';
import { hashToken, loadSession, sessionStillCurrent, type Principal, type SessionState } from './auth.service.ts';

type SessionsEnded = Extract<BusEvent, { type: 'sessions_ended' }>;

export type SessionCache = {
  /** The principal behind a session token, as `resolveSession` would answer. */
  resolve(token: string): Promise<Principal | null>;
  /** Drops ended sessions (the event bus brings them from every instance). */
  forget(ended: SessionsEnded): void;
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
  return {
    async resolve(token) {
      const tokenHash = hashToken(token);
      const now = Date.now();
      const cached = entries.get(tokenHash);
      if (cached && now - cached.checkedAt < ttlMs && sessionStillCurrent(cached, now)) return cached.principal;
      const state = await loadSession(db, tokenHash);
      entries.delete(tokenHash);
      if (!state || ttlMs <= 0) return state?.principal ?? null;
      entries.set(tokenHash, { ...state, checkedAt: now });
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      return state.principal;
    },
    forget(ended) {
      if ('tokenHash' in ended) {
        entries.delete(ended.tokenHash);
        return;
      }
      for (const [tokenHash, entry] of entries) {
        if (entry.principal.role === 'student' && entry.principal.id === ended.studentId) entries.delete(tokenHash);
      }
    },
  };
}
