import { expect } from 'vitest';

export type ReceivedEvent = { event: string; data: unknown };

export type TestStream = {
  received: ReceivedEvent[];
  /** The stream's Cache-Control header. */
  cacheControl: string | null;
  /** Waits until the events received so far satisfy `predicate`. */
  waitFor(predicate: (events: ReceivedEvent[]) => boolean, ms?: number): Promise<void>;
  /** Waits until the server ends the stream; fails after `ms`. */
  waitForEnd(ms?: number): Promise<void>;
  close(): Promise<void>;
};

/** Opens /api/events on a listening server (app.inject cannot stream) and collects the events it sends. */
export async function openStream(baseUrl: string, cookie: string): Promise<TestStream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/events`, { headers: { cookie }, signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const received: ReceivedEvent[] = [];
  const waiters = new Set<() => void>();
  let endedByServer = false;
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          endedByServer = true;
          return;
        }
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const chunk = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(chunk)?.[1];
          const data = /^data: (.*)$/m.exec(chunk)?.[1];
          if (event) received.push({ event, data: data ? JSON.parse(data) : null });
        }
        for (const wake of waiters) wake();
      }
    } catch {
      // aborted by close(), or the connection was cut
    } finally {
      for (const wake of waiters) wake();
    }
  })();

  /** Resolves when `done()` holds, checked after every chunk and at the stream's end; rejects after `ms`. */
  const until = (done: () => boolean, ms: number, what: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`${what}: timed out after ${ms} ms; got ${JSON.stringify(received)}`));
      }, ms);
      waiters.add(check);
      check();
    });

  return {
    received,
    cacheControl: response.headers.get('cache-control'),
    waitFor: (predicate, ms = 5000) => until(() => predicate(received), ms, 'waiting for events'),
    waitForEnd: (ms = 3000) => until(() => endedByServer, ms, 'waiting for the server to end the stream').then(() => pump),
    async close() {
      controller.abort();
      await pump;
    },
  };
}

/** Whether an event of this name has arrived. */
export const has = (name: string) => (events: ReceivedEvent[]) => events.some((e) => e.event === name);
