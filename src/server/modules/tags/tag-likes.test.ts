import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/test-app.ts';
import { students, studentTags } from '../../db/schema.ts';
import type { ActiveTag } from '../../../shared/students.ts';

const DAY = 86_400_000;

let t: TestApp;
let cookies: Record<'ana' | 'bruno' | 'diego' | 'admin', string>;
let diegoId: string;
let tagId: string;
let notifications: { type: string; studentUuids?: string[] }[];
let heard: () => void = () => {};
let stopListening: () => Promise<void>;

beforeAll(async () => {
  t = await buildTestApp();
  const [ana, bruno, carla, diego] = t.students as [
    TestApp['students'][number],
    TestApp['students'][number],
    TestApp['students'][number],
    TestApp['students'][number],
  ];
  cookies = {
    ana: await t.loginStudent(ana.studentId),
    bruno: await t.loginStudent(bruno.studentId),
    diego: await t.loginStudent(diego.studentId),
    admin: await t.loginAdmin(),
  };
  diegoId = diego.id;
  const [tag] = await t.db
    .insert(studentTags)
    .values({ studentUuid: carla.id, kind: 'leader', expiresAt: new Date(Date.now() + 7 * DAY) })
    .returning();
  tagId = tag!.id;
  notifications = [];
  stopListening = await t.database.listen('meritus_events', (payload) => {
    notifications.push(JSON.parse(payload));
    heard();
  });
});
afterAll(async () => {
  await stopListening();
  await t.close();
});

function like(method: 'PUT' | 'DELETE', cookie: string, id = tagId) {
  return t.app.inject({ method, url: `/api/tags/${id}/like`, headers: { cookie } });
}

async function activeTagAs(cookie: string): Promise<ActiveTag> {
  const response = await t.app.inject({ method: 'GET', url: '/api/tags/active', headers: { cookie } });
  return (response.json() as ActiveTag[]).find((tag) => tag.id === tagId)!;
}

/**
 * Waits until everything published before now has been heard: an award to Diego goes through
 * the same after-commit queue as a like's event, so once its notification arrives, any event
 * the step caused has arrived before it.
 */
async function settle() {
  const marker = notifications.length;
  const award = await t.app.inject({
    method: 'POST',
    url: `/api/admin/students/${diegoId}/meritus`,
    headers: { cookie: cookies.admin },
    payload: { type: 'admin_add', amount: 1, description: 'Marcador do teste' },
  });
  expect(award.statusCode).toBe(201);
  const arrived = () => notifications.slice(marker).some((n) => n.type === 'ledger' && n.studentUuids?.includes(diegoId));
  if (arrived()) return;
  await new Promise<void>((resolve) => {
    heard = () => {
      if (arrived()) resolve();
    };
  });
}

test('liking is stored per student, idempotent, and tells every tag list to refresh only on a change', async () => {
  const tagEvents = () => notifications.filter((n) => n.type === 'tags').length;
  /** Runs a step, waits until its batched notification would have arrived and returns how many tag events it caused. */
  async function eventsOf(step: () => Promise<unknown>): Promise<number> {
    const before = tagEvents();
    await step();
    await settle();
    return tagEvents() - before;
  }

  expect(await eventsOf(async () => expect((await like('PUT', cookies.ana)).json()).toEqual({ tagId, likes: 1, likedByMe: true }))).toBe(1);
  expect(await eventsOf(async () => expect((await like('PUT', cookies.ana)).json()).toEqual({ tagId, likes: 1, likedByMe: true }))).toBe(0);
  expect(await eventsOf(async () => expect((await like('PUT', cookies.bruno)).json()).toEqual({ tagId, likes: 2, likedByMe: true }))).toBe(
    1,
  );
  expect(await activeTagAs(cookies.ana)).toMatchObject({ likes: 2, likedByMe: true });
  expect(await activeTagAs(cookies.diego)).toMatchObject({ likes: 2, likedByMe: false });

  expect(
    await eventsOf(async () => expect((await like('DELETE', cookies.ana)).json()).toEqual({ tagId, likes: 1, likedByMe: false })),
  ).toBe(1);
  expect(
    await eventsOf(async () => expect((await like('DELETE', cookies.ana)).json()).toEqual({ tagId, likes: 1, likedByMe: false })),
  ).toBe(0);
  expect(await activeTagAs(cookies.ana)).toMatchObject({ likes: 1, likedByMe: false });
  expect(await activeTagAs(cookies.bruno)).toMatchObject({ likes: 1, likedByMe: true });
});

test('an expired, unknown or malformed tag cannot be liked', async () => {
  const [carla] = await t.db.select().from(students).where(eq(students.studentId, '3000003'));
  const [expired] = await t.db
    .insert(studentTags)
    .values({ studentUuid: carla!.id, kind: 'angel', assignedAt: new Date(Date.now() - 8 * DAY), expiresAt: new Date(Date.now() - DAY) })
    .returning();
  for (const id of [expired!.id, randomUUID()]) {
    const response = await like('PUT', cookies.ana, id);
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toEqual({ code: 'tag_not_found', message: 'Esta tag não está mais ativa' });
  }
  const malformed = await like('PUT', cookies.ana, 'abc');
  expect(malformed.statusCode).toBe(400);
  expect(malformed.json().error.message).toBe('Esta tag não está mais ativa');
});

test('a student cannot like their own tag, and the refusal changes nothing', async () => {
  const [carla] = await t.db.select().from(students).where(eq(students.studentId, '3000003'));
  const holder = await t.loginStudent(carla!.studentId);
  const before = await activeTagAs(holder);
  const tagEvents = () => notifications.filter((n) => n.type === 'tags').length;
  const eventsBefore = tagEvents();

  const response = await like('PUT', holder);
  expect(response.statusCode).toBe(400);
  expect(response.json().error).toEqual({ code: 'tag_like_own', message: 'Você não pode curtir a sua própria tag' });
  await settle();
  expect(tagEvents()).toBe(eventsBefore);
  expect(await activeTagAs(holder)).toEqual(before);
  expect(await activeTagAs(cookies.diego)).toMatchObject({ likes: before.likes });
});

test('only students like tags', async () => {
  const admin = await t.loginAdmin();
  expect((await like('PUT', admin)).statusCode).toBe(403);
  expect((await t.app.inject({ method: 'PUT', url: `/api/tags/${tagId}/like` })).statusCode).toBe(401);
});
