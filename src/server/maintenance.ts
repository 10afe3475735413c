import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/client.ts';
import { sweepAuthState } from './modules/auth/auth.service.ts';
import { sweepIdempotencyKeys } from './modules/ledger/idempotency.ts';
import { sweepExpiredTags } from './modules/tags/tags.service.ts';
import { foldPendingSums } from './modules/reports/reports.queries.ts';
import { EXPIRED_TAG_SWEEP_MS } from '../shared/constants.ts';

const SWEEPS = { authState: sweepAuthState, expiredTags: sweepExpiredTags, idempotencyKeys: sweepIdempotencyKeys };

/** How often the ledger's queued rows are added to the reports' sums, so that a report's own fold finds few. */
export const SUMS_FOLD_MS = 1000;

/**
 * Periodic clean-up: expired sessions, login locks, weekly tags and day-old idempotency keys;
 * and, every second, the ledger's queued rows added to the reports' sums.
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
  let folding = false;
  const fold = () => {
    if (folding) return;
    folding = true;
    foldPendingSums(database.db, { wait: false })
      .catch((error: unknown) => log.warn({ err: error, sweep: 'reportSums' }, 'manutenção periódica falhou'))
      .finally(() => {
        folding = false;
      });
  };
  const foldTimer = setInterval(fold, SUMS_FOLD_MS);
  foldTimer.unref();
  return () => {
    clearInterval(timer);
    clearInterval(foldTimer);
  };
}
