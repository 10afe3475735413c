import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { addAdmin, buildTestApp, type TestApp, type TestStudent } from '../../test/test-app.ts';
import { studentTags } from '../../db/schema.ts';
import { openStream, type ReceivedEvent, type TestStream } from '../../realtime/sse-test-client.ts';

/**
 * The Loja's live events (decision 019's rule: an event goes to those whose screen it changes): the buyer hears their
 * balance and orders at once, the staff who see the buyer's turma hear of the order at the next tick, nobody else.
 */
let t: TestApp;
let ana: TestStudent;
let streams: Record<'buyer' | 'classmate' | 'teacherOfBuyer' | 'otherTeacher' | 'coordinator', TestStream>;
let markerTag: string;
let itemId: string;

beforeAll(async () => {
  t = await buildTestApp({ env: { LIVE_TICK_MS: '60000' } });
  const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const [first, second] = t.students as [TestStudent, TestStudent];
  ana = first;
  await t.award(ana.id, 500);
  const [tag] = await t.db
    .insert(studentTags)
    .values({ studentUuid: t.students[3]!.id, kind: 'leader', expiresAt: new Date(Date.now() + 7 * 86_400_000) })
    .returning();
  markerTag = tag!.id;
  const mine = await addAdmin(t.db, { email: 'prof.ao.vivo@escola.test', name: 'Prof Ana', role: 'teacher', turmaIds: [ana.turmaId] });
  const other = await addAdmin(t.db, {
    email: 'outra.ao.vivo@escola.test',
    name: 'Prof Bruno',
    role: 'teacher',
    turmaIds: [second.turmaId],
  });
  const created = await t.request('POST', '/admin/store/items', {
    payload: { name: 'Fone de ouvido', price: 100, currency: 'meritus', category: 'material', stock: 5 },
  });
  itemId = created.json().id;
  streams = {
    buyer: await openStream(baseUrl, await t.loginStudent(ana.studentId)),
    classmate: await openStream(baseUrl, await t.loginStudent(second.studentId)),
    teacherOfBuyer: await openStream(baseUrl, await t.loginAdmin(mine.email)),
    otherTeacher: await openStream(baseUrl, await t.loginAdmin(other.email)),
    coordinator: await openStream(baseUrl, await t.loginAdmin()),
  };
  await Promise.all(Object.values(streams).map((stream) => stream.waitFor((events) => events.some((event) => event.event === 'ready'))));
  await settle();
});
afterAll(async () => {
  await Promise.all(Object.values(streams).map((stream) => stream.close()));
  await t.close();
});

const count = (events: ReceivedEvent[], name: string) => events.filter((event) => event.event === name).length;

let marker = 0;
/** Waits until every stream heard all that came before: a like (a 'tags' event for everyone at a tick) published last. */
async function settle(): Promise<void> {
  marker += 1;
  const counts = new Map(Object.values(streams).map((stream) => [stream, count(stream.received, 'tags')]));
  const liked = await t.app.inject({
    method: marker % 2 ? 'PUT' : 'DELETE',
    url: `/api/tags/${markerTag}/like`,
    headers: { cookie: await t.loginStudent(t.students[2]!.studentId) },
  });
  expect(liked.statusCode, liked.body).toBeLessThan(300);
  for (const [stream, before] of counts) {
    await vi.waitFor(
      async () => {
        await t.app.liveHub.tick();
        if (count(stream.received, 'tags') <= before) throw new Error('the marker has not arrived');
      },
      { timeout: 10_000, interval: 50 },
    );
  }
}

/** The 'store' events each stream heard during `act`. */
async function storeEventsDuring(act: () => Promise<void>) {
  const before = Object.fromEntries(Object.entries(streams).map(([name, stream]) => [name, count(stream.received, 'store')]));
  await act();
  await settle();
  return Object.fromEntries(Object.entries(streams).map(([name, stream]) => [name, count(stream.received, 'store') - before[name]!]));
}

test('a purchase: the buyer hears their balance and orders at once; the staff of the buyer’s turma hear of the new order', async () => {
  const balancesBefore = count(streams.buyer.received, 'balance');
  const heard = await storeEventsDuring(async () => {
    const bought = await t.app.inject({
      method: 'POST',
      url: `/api/store/items/${itemId}/orders`,
      headers: { cookie: await t.loginStudent(ana.studentId), 'idempotency-key': randomUUID() },
    });
    expect(bought.statusCode).toBe(201);
    // At once, before any tick.
    await streams.buyer.waitFor((events) => count(events, 'store') > 0 && count(events, 'balance') > balancesBefore);
  });
  expect(heard).toEqual({ buyer: 1, classmate: 0, teacherOfBuyer: 1, otherTeacher: 0, coordinator: 1 });
  const balance = streams.buyer.received.filter((event) => event.event === 'balance').at(-1);
  expect(balance!.data).toMatchObject({ type: 'balance', balances: { meritus: 400 } });
});

test('a staff decision tells the buyer and the staff who see the order, and a catalogue edit the students who may buy', async () => {
  const orders = await t.request('GET', `/admin/store/orders?item=${itemId}&status=pending`);
  const orderId = (orders.json() as { items: { id: string }[] }).items[0]!.id;
  const refused = await storeEventsDuring(async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/admin/store/orders/${orderId}/refuse`,
      headers: { cookie: await t.loginAdmin(), 'idempotency-key': randomUUID() },
      payload: { reason: 'Em falta' },
    });
    expect(response.statusCode).toBe(200);
  });
  expect(refused).toEqual({ buyer: 1, classmate: 0, teacherOfBuyer: 1, otherTeacher: 0, coordinator: 1 });

  const edited = await storeEventsDuring(async () => {
    const response = await t.request('PATCH', `/admin/store/items/${itemId}`, { payload: { turmaIds: [ana.turmaId] } });
    expect(response.statusCode).toBe(200);
  });
  // The item was every turma's before the edit: everyone's store changed.
  expect(edited).toEqual({ buyer: 1, classmate: 1, teacherOfBuyer: 1, otherTeacher: 1, coordinator: 1 });
  const narrowed = await storeEventsDuring(async () => {
    const response = await t.request('PATCH', `/admin/store/items/${itemId}`, { payload: { price: 90 } });
    expect(response.statusCode).toBe(200);
  });
  expect(narrowed).toEqual({ buyer: 1, classmate: 0, teacherOfBuyer: 1, otherTeacher: 0, coordinator: 1 });
});
