import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/client.ts';
import { sweepAuthState } from './modules/auth/auth.service.ts';
import { sweepIdempotencyKeys } from './modules/ledger/idempotency.ts';
import { sweepExpiredTags } from './modules/tags/tags.service.ts';
import { EXPIRED_TAG_SWEEP_MS } from '../shared/constants.ts';

const SWEEPS = { authState: sweepAuthState, expiredTags: sweepExpiredTags, idempotencyKeys: sweepIdempotencyKeys };

/**
 * Periodic clean-up: expired sessions, login locks, weekly tags and day-old idempotency keys.
 * Each sweep's failure is logged on its own (one failing does not hide another's) and never escapes the timer. Returns a stop function.
 */
export function startMaintenance(database: Database, log: FastifyBaseLogger): () => void {
  const run = () => {
    for (const [name, sweep] of Object.entries(SWEEPS)) {
      sweep(database.db).catch((error: unknown) => log.warn({ err: error, sweep: name }, 'manutenção periódica falhou'));
    }
  };
  run();
  const timer = setInterval(run, EXPIRED_TAG_SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}
