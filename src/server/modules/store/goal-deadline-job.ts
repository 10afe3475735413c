import type { FastifyBaseLogger } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Gives back the contributions of every turma goal whose deadline passed before it was reached (or whose order was
     * refused), once each (store-goals.service.ts, expireGoals); answers how many. The server runs it on a timer
     * (startGoalDeadlines); tests call it.
     */
    expireStoreGoals(now?: Date): Promise<number>;
  }
}

/** How often the job looks for goals past their deadline: a deadline is a day, so a minute late is on time. */
export const GOAL_DEADLINE_SWEEP_MS = 60_000;

/** Runs the job now (deadlines passed while the server was down) and then every GOAL_DEADLINE_SWEEP_MS; answers a stop function. */
export function startGoalDeadlines(run: () => Promise<number>, log: FastifyBaseLogger): () => void {
  let running = false;
  const sweep = () => {
    if (running) return;
    running = true;
    run()
      .then((refunded) => {
        if (refunded > 0) log.info({ refunded }, `${refunded} contribuições de metas da turma devolvidas (prazo encerrado)`);
      })
      .catch((error: unknown) => log.warn({ err: error, sweep: 'storeGoals' }, 'manutenção periódica falhou'))
      .finally(() => {
        running = false;
      });
  };
  sweep();
  const timer = setInterval(sweep, GOAL_DEADLINE_SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}
