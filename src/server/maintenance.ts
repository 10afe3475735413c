import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/client.ts';
import { sweepAuthState } from './modules/auth/auth.service.ts';
import { sweepIdempotencyKeys } from './modules/ledger/idempotency.ts';
import { sweepExpiredTags } from './modules/tags/tags.service.ts';
import { EXPIRED_TAG_SWEEP_MS } from '../shared/constants.ts';

/** Periodic clean-up: expired sessions, login locks, weekly tags and day-old idempotency keys. Returns a stop function. */
export function startMaintenance(database: Database, log: FastifyBaseLogger): () => void {
  const run = () => {
    Promise.all([sweepAuthState(database.db), sweepExpiredTags(database.db), sweepIdempotencyKeys(database.db)]).catch((error: unknown) =>
      log.warn({ err: error }, 'manutenção periódica falhou'),
    );
  };
  run();
  const timer = setInterval(run, EXPIRED_TAG_SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}
