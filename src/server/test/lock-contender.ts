import { acquireDataDirLock, DatabaseLockedError } from '../db/data-dir-lock.ts';

/**
 * A process that contends for a data folder's lock, driven over IPC by data-dir-lock.unit.test.ts:
 * `take` tries to acquire it (answering whether it won), `release` releases what it holds, if anything.
 */
type Command = { take: string } | { release: true };
export type Reply = { won: boolean; message?: string } | { released: true };

let release: (() => Promise<void>) | undefined;

process.on('message', (command: Command) => {
  void (async () => {
    let reply: Reply;
    if ('take' in command) {
      try {
        release = await acquireDataDirLock(command.take);
        reply = { won: true };
      } catch (error) {
        if (!(error instanceof DatabaseLockedError)) throw error;
        reply = { won: false, message: error.message };
      }
    } else {
      await release?.();
      release = undefined;
      reply = { released: true };
    }
    process.send!(reply);
  })();
});
process.send!('ready');
