import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { addStudents, buildTestApp, type TestApp, type TestStudent } from '../test/test-app.ts';
import { studentTags } from '../db/schema.ts';
import { openStream, type ReceivedEvent, type TestStream } from './sse-test-client.ts';
import type { LiveOperation } from '../../shared/ledger.ts';

/**
 * Who hears what (decision 019), on a school of its own: 30 students with balances 10, 20 … 300 M$ (the 30th is
 * first), watched by five of them and a teacher. The hub ticks only when the test says (LIVE_TICK_MS of a minute).
 */
let t: TestApp;
let baseUrl: string;
let ranked: TestStudent[]; // best first
let streams: Record<'sender' | 'recipient' | 'near' | 'far' | 'first' | 'staff', TestStream>;

beforeAll(async () => {
  t = await buildTestApp({ env: { LIVE_TICK_MS: '60000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const school = await addStudents(
    t.db,
    Array.from({ length: 30 }, (_, index) => ({ studentId: `40000${String(index).padStart(2, '0')}`, name: `Aluno ${index}` })),
  );
  for (const [index, student] of school.entries()) await t.award(student.id, 10 * (index + 1));
  ranked = [...school].reverse();
  const [tag] = await t.db
    .insert(studentTags)
    .values({ studentUuid: t.students[3]!.id, kind: 'leader', expiresAt: new Date(Date.now() + 7 * 86_400_000) })
    .returning();
  markerTag = tag!.id;
  // The last two (29th and 30th of 34 with the four seeded students at 0 M$ below them) trade places; the 25th sees it
  // within ten rows of their own, the 15th does not, and the podium stays as it was.
  const open = async (student: TestStudent) => openStream(baseUrl, await t.loginStudent(student.studentId));
  streams = {
    sender: await open(ranked[29]!),
    recipient: await open(ranked[28]!),
    near: await open(ranked[24]!),
    far: await open(ranked[14]!),
    first: await open(ranked[0]!),
    staff: await openStream(baseUrl, await t.loginAdmin()),
  };
  await Promise.all(Object.values(streams).map((stream) => stream.waitFor(has('ready'))));
  await settle();
});
afterAll(async () => {
  await Promise.all(Object.values(streams).map((stream) => stream.close()));
  await t.close();
});

const has = (name: string) => (events: ReceivedEvent[]) => events.some((event) => event.event === name);

let marker = 0;
let markerTag: string;
/**
 * Waits until every stream has heard all that came before: a like of a classmate's tag ('tags', sent to everyone at a
 * tick after the tick's other events, and moving no ranking nor figure) published after everything else, and ticks
 * until each stream received it.
 */
async function settle(): Promise<void> {
  marker += 1;
  const liked = await t.app.inject({
    method: marker % 2 ? 'PUT' : 'DELETE',
    url: `/api/tags/${markerTag}/like`,
    headers: { cookie: await t.loginStudent(t.students[2]!.studentId) },
  });
  expect(liked.statusCode, liked.body).toBeLessThan(300);
  const counts = new Map(Object.values(streams).map((stream) => [stream, count(stream.received, 'tags')]));
  for (const [stream, before] of counts) {
    await vi.waitFor(
      async () => {
        await t.app.liveHub.tick();
        if (count(stream.received, 'tags') <= before) throw new Error(`the marker has not arrived: ${JSON.stringify(stream.received)}`);
      },
      { timeout: 10_000, interval: 50 },
    );
  }
}

const count = (events: ReceivedEvent[], name: string) => events.filter((event) => event.event === name).length;
const since = (stream: TestStream, from: number) => stream.received.slice(from).map((event) => event.event);
const marks = () => Object.fromEntries(Object.entries(streams).map(([name, stream]) => [name, stream.received.length]));

async function transfer(from: TestStudent, to: TestStudent, amount: number, description: string) {
  return t.request('POST', '/meritus/transfers', {
    cookie: await t.loginStudent(from.studentId),
    payload: { recipientId: to.id, amount, description },
  });
}

test('a transfer tells its two students at once, staff with its line, and the ranking only to whoever sees a moved row', async () => {
  const at = marks();
  const description = `Troca ${randomUUID().slice(0, 6)}`;
  // 10 M$ → the sender has 0 and the recipient 30: they trade the 29th and 30th places.
  const sent = await transfer(ranked[29]!, ranked[28]!, 10, description);
  expect(sent.statusCode, sent.body).toBe(201);
  await streams.staff.waitFor((events) =>
    events.some((event) => event.event === 'operations' && JSON.stringify(event.data).includes(description)),
  );
  const line = streams.staff.received
    .filter((event) => event.event === 'operations')
    .flatMap((event) => (event.data as { operations: LiveOperation[] }).operations)
    .find((operation) => operation.description === description)!;
  expect(line).toMatchObject({ status: 'completed', amount: 10, category: 'student_transfer', from: { name: ranked[29]!.name } });
  await settle();

  // The balance leaves at the commit and the ranking at the next tick: on a busy machine the tick can come first.
  expect(since(streams.sender, at.sender!).toSorted()).toEqual(['balance', 'ranking', 'tags']);
  // Each hears their balances as the transfer left them: no read needed.
  const balanceOf = (stream: TestStream) => stream.received.filter((event) => event.event === 'balance').at(-1)!.data;
  expect(balanceOf(streams.sender)).toEqual({ type: 'balance', balances: { meritus: 0, totalEarned: 10, estelecas: 0 } });
  expect(balanceOf(streams.recipient)).toEqual({ type: 'balance', balances: { meritus: 30, totalEarned: 20, estelecas: 0 } });
  expect(since(streams.recipient, at.recipient!).toSorted()).toEqual(['balance', 'ranking', 'tags']);
  expect(since(streams.near, at.near!)).toEqual(['ranking', 'tags']);
  // The two hear their new positions among 34 (the 30 and the four seeded at 0 M$): the recipient's 30 M$ ties the
  // 28th, the sender's 0 comes after the 29 above. The 25th hears that rows near theirs moved. No Estelecas moved.
  const lastRanking = (stream: TestStream) => stream.received.filter((event) => event.event === 'ranking').at(-1)!.data;
  expect([lastRanking(streams.sender), lastRanking(streams.recipient), lastRanking(streams.near)]).toEqual([
    { type: 'ranking', boards: ['meritus'], own: { position: 30, total: 34 } },
    { type: 'ranking', boards: ['meritus'], own: { position: 28, total: 34 } },
    { type: 'ranking', boards: ['meritus'], own: null },
  ]);
  expect(since(streams.far, at.far!)).toEqual(['tags']);
  expect(since(streams.first, at.first!)).toEqual(['tags']);
  expect(since(streams.staff, at.staff!)).toEqual(['operations', 'figures', 'tags']);
});

test('a refused attempt reaches the staff’s feed only, as failed, and no student at all', async () => {
  const at = marks();
  const description = `Sem saldo ${randomUUID().slice(0, 6)}`;
  const refused = await transfer(ranked[20]!, ranked[21]!, 1_000_000, description);
  expect(refused.statusCode).toBe(400);
  await streams.staff.waitFor((events) =>
    events.some((event) => event.event === 'operations' && JSON.stringify(event.data).includes(description)),
  );
  await settle();
  expect(
    streams.staff.received
      .slice(at.staff!)
      .filter((event) => event.event === 'operations')
      .flatMap((event) => (event.data as { operations: LiveOperation[] }).operations),
  ).toEqual([expect.objectContaining({ description, status: 'failed', reason: expect.any(String) })]);
  expect(since(streams.staff, at.staff!)).toEqual(['operations', 'tags']);
  for (const name of ['sender', 'recipient', 'near', 'far', 'first'] as const) expect(since(streams[name], at[name]!)).toEqual(['tags']);
});

test('many operations between two ticks make one ranking event per watching student, and one figures event per teacher', async () => {
  const at = marks();
  // The podium's first two trade places back and forth: everyone sees the podium move.
  for (let round = 0; round < 3; round++) {
    expect((await transfer(ranked[0]!, ranked[1]!, 20, `Ida ${round}`)).statusCode).toBe(201);
    expect((await transfer(ranked[1]!, ranked[0]!, 20, `Volta ${round}`)).statusCode).toBe(201);
  }
  expect((await transfer(ranked[0]!, ranked[1]!, 20, 'Ida final')).statusCode).toBe(201);
  // The hub has heard all seven once the teacher has their lines (sent at once): the next tick covers them all.
  await streams.staff.waitFor(
    (events) =>
      events
        .slice(at.staff!)
        .filter((event) => event.event === 'operations')
        .flatMap((event) => (event.data as { operations: LiveOperation[] }).operations).length === 7,
  );
  await settle();
  for (const name of ['sender', 'recipient', 'near', 'far'] as const) expect(since(streams[name], at[name]!)).toEqual(['ranking', 'tags']);
  // Their own operations reach them at once (operations a few milliseconds apart may share one 'balance').
  expect(since(streams.first, at.first!).filter((event) => event !== 'balance')).toEqual(['ranking', 'tags']);
  expect(count(streams.first.received.slice(at.first!), 'balance')).toBeGreaterThan(0);
  expect(count(streams.staff.received.slice(at.staff!), 'figures')).toBe(1);
});
