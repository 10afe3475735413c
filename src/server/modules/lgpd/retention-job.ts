import type { FastifyBaseLogger } from 'fastify';
import { RETENTION_CHECK_MS } from './retention.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Anonymises the inactive students when the school's retention asks for it (retention.service.ts, sweepRetention):
     * at most once a day, after the day of grace of a new choice; answers how many. The server runs it on a timer
     * (startRetentionSweep); tests call it.
     */
    sweepRetention(now?: Date): Promise<number>;
  }
}

/** Runs the sweep now and then every RETENTION_CHECK_MS (it acts once a day); answers a stop function. */
export function startRetentionSweep(run: () => Promise<number>, log: FastifyBaseLogger): () => void {
  let running = false;
  const sweep = () => {
    if (running) return;
    running = true;
    run()
      .then((erased) => {
        if (erased > 0) log.info({ erased }, `${erased} alunos inativos anonimizados (retenção da escola)`);
      })
      .catch((error: unknown) => log.warn({ err: error, sweep: 'retention' }, 'manutenção periódica falhou'))
      .finally(() => {
        running = false;
      });
  };
  sweep();
  const timer = setInterval(sweep, RETENTION_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
