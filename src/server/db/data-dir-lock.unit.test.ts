import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { acquireDataDirLock, DatabaseLockedError } from './data-dir-lock.ts';
import type { Reply } from '../test/lock-contender.ts';

const CONTENDER = path.join(import.meta.dirname, '../test/lock-contender.ts');

let dataDir: string;
const children: ChildProcess[] = [];
type Contender = Awaited<ReturnType<typeof contender>>;
/** Two child processes, started together once (each start loads TypeScript for most of a second). */
let pair: [Contender, Contender];

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-lock-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));
beforeAll(async () => {
  pair = await Promise.all([contender(), contender()]);
});
afterAll(() => children.forEach((child) => child.kill('SIGKILL')));

/** A child process driven over IPC (lock-contender.ts); resolves once it has loaded the lock's module. */
async function contender() {
  const child = fork(CONTENDER, { execArgv: ['--import', 'tsx'], stdio: 'ignore' });
  children.push(child);
  const [first] = (await once(child, 'message')) as [unknown];
  expect(first).toBe('ready');
  const ask = async (command: object): Promise<Reply> => {
    const reply = once(child, 'message') as Promise<[Reply]>;
    child.send(command);
    return (await reply)[0];
  };
  return {
    child,
    take: async () => (await ask({ take: dataDir })) as { won: boolean; message?: string },
    release: () => ask({ release: true }),
  };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

// In order: the last two tests kill the children the race used.
describe.sequential('the data folder lock', () => {
  test('two takers in one process at once, a hundred times: exactly one holds it each time', async () => {
    for (let round = 0; round < 100; round++) {
      const results = await Promise.allSettled([acquireDataDirLock(dataDir), acquireDataDirLock(dataDir)]);
      const won = results.filter((result) => result.status === 'fulfilled');
      expect(won).toHaveLength(1);
      const lost = results.find((result) => result.status === 'rejected')!;
      expect(lost.reason).toBeInstanceOf(DatabaseLockedError);
      expect((lost.reason as Error).message).toContain(`já está em uso por outro servidor (PID ${process.pid})`);
      await won[0]!.value();
    }
  });

  test('two processes starting at once, a hundred times: exactly one holds it each time', async () => {
    for (let round = 0; round < 100; round++) {
      // Asked in turns, so neither always has the head start of being asked first.
      const [first, second] = round % 2 ? [pair[1], pair[0]] : pair;
      const answers = await Promise.all([first.take(), second.take()]);
      expect(answers.filter((answer) => answer.won)).toHaveLength(1);
      const winner = answers[0]!.won ? first : second;
      const loser = winner === first ? second : first;
      expect(answers.find((answer) => !answer.won)!.message).toContain(`(PID ${winner.child.pid})`);
      // The loser releasing what it never held changes nothing: the winner still holds the lock.
      await loser.release();
      expect(await refusal(acquireDataDirLock(dataDir))).toBeInstanceOf(DatabaseLockedError);
      await winner.release();
    }
  });

  test('a lock held by a process killed with SIGKILL is free again at once', async () => {
    const holder = pair[0];
    expect((await holder.take()).won).toBe(true);
    expect(await refusal(acquireDataDirLock(dataDir))).toBeInstanceOf(DatabaseLockedError);
    const exited = once(holder.child, 'exit');
    holder.child.kill('SIGKILL');
    await exited;
    const release = await acquireDataDirLock(dataDir);
    await release();
  });

  test('a release called again after someone else took the lock does not free it for a third', async () => {
    const releaseFirst = await acquireDataDirLock(dataDir);
    await releaseFirst();
    const releaseSecond = await acquireDataDirLock(dataDir);
    await releaseFirst();
    expect(await refusal(acquireDataDirLock(dataDir))).toBeInstanceOf(DatabaseLockedError);
    await releaseSecond();
  });

  test('the same folder reached by another path (a symbolic link) is the same lock', async () => {
    const link = `${dataDir}-link`;
    fs.symlinkSync(dataDir, link);
    try {
      const release = await acquireDataDirLock(dataDir);
      expect(await refusal(acquireDataDirLock(link))).toBeInstanceOf(DatabaseLockedError);
      await release();
    } finally {
      fs.rmSync(link);
    }
  });

  test("a previous release's server.lock is honoured while its PID lives and removed once it does not", async () => {
    const legacy = path.join(dataDir, 'server.lock');
    const running = pair[1];
    fs.writeFileSync(legacy, String(running.child.pid));
    const refused = await refusal(acquireDataDirLock(dataDir));
    expect(refused).toBeInstanceOf(DatabaseLockedError);
    expect((refused as Error).message).toContain(`servidor de versão anterior (PID ${running.child.pid}`);
    const exited = once(running.child, 'exit');
    running.child.kill('SIGKILL');
    await exited;
    const release = await acquireDataDirLock(dataDir);
    expect(fs.existsSync(legacy)).toBe(false);
    await release();
  });
});
