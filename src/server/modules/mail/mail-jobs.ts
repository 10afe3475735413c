import type { FastifyBaseLogger } from 'fastify';
import { WEEKLY_SUMMARY_CHECK_MS } from './weekly-summary.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Sends the outbox's messages due (outbox.service.ts, sendDueMail); nothing when email is off. The server runs it on
     * a timer (startMailJobs); tests call it, with `now` to step past a backoff.
     */
    sendOutbox(now?: Date): Promise<{ sent: number; failed: number }>;
    /** Queues the weekly summaries still missing for the week that ended (weekly-summary.service.ts); 0 when email is off. */
    queueWeeklySummaries(now?: Date): Promise<number>;
  }
}

/** How often the outbox is looked at: a message waits this long at most after it was queued (or its backoff ended). */
export const OUTBOX_CHECK_MS = 30_000;

/** Runs the outbox and the weekly summary's job now and on their timers; answers a stop function. */
export function startMailJobs(
  jobs: { sendOutbox: () => Promise<unknown>; queueWeeklySummaries: () => Promise<number> },
  log: FastifyBaseLogger,
): () => void {
  const every = (name: string, run: () => Promise<unknown>, ms: number) => {
    let running = false;
    const tick = () => {
      if (running) return;
      running = true;
      run()
        .catch((error: unknown) => log.warn({ err: error, job: name }, 'envio de emails falhou; nova tentativa no próximo ciclo'))
        .finally(() => {
          running = false;
        });
    };
    tick();
    const timer = setInterval(tick, ms);
    timer.unref();
    return timer;
  };
  // The summaries first, then the outbox sends them on its next look.
  const timers = [
    every('weekly-summary', jobs.queueWeeklySummaries, WEEKLY_SUMMARY_CHECK_MS),
    every('outbox', jobs.sendOutbox, OUTBOX_CHECK_MS),
  ];
  return () => timers.forEach((timer) => clearInterval(timer));
}
