import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, turmaIdOf, type TestApp } from '../../test/test-app.ts';
import { storeItems, storeItemTurmas } from '../../db/schema.ts';
import type { StudentSummary } from '../../../shared/student-area.ts';

let t: TestApp;
let ana: TestApp['students'][number];
let anaCookie: string;

beforeEach(async () => {
  t = await buildTestApp();
  ana = t.students[0]!;
  anaCookie = await t.loginStudent(ana.studentId);
});
afterEach(async () => t.close());

/** An item of the Loja, written as the catalogue keeps it (the Loja's own routes are another module's). */
async function item(values: Partial<typeof storeItems.$inferInsert> & { turmas?: string[] } = {}): Promise<string> {
  const { turmas = [], ...rest } = values;
  const [row] = await t.db
    .insert(storeItems)
    .values({ name: 'Fone de ouvido', category: 'material', currency: 'meritus', price: 400, ...rest })
    .returning({ id: storeItems.id });
  for (const name of turmas) await t.db.insert(storeItemTurmas).values({ itemId: row!.id, turmaId: await turmaIdOf(t.db, name) });
  return row!.id;
}

const choose = (itemId: unknown, cookie = anaCookie) => t.request('PUT', '/me/store-goal', { payload: { itemId }, cookie });

async function summary(cookie = anaCookie): Promise<StudentSummary> {
  const response = await t.request('GET', '/me/summary', { cookie });
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe('PUT /api/me/store-goal', () => {
  test("a student's chosen item is kept on the server: the summary of any later session carries it, until taken back", async () => {
    expect((await summary()).storeGoal).toBeNull();
    const headphones = await item();
    const chosen = await choose(headphones);
    expect(chosen.statusCode).toBe(200);
    const goal = { itemId: headphones, name: 'Fone de ouvido', price: 400, currency: 'meritus' };
    expect(chosen.json()).toEqual({ storeGoal: goal });

    // Another device: a new session.
    expect((await summary(await t.loginStudent(ana.studentId))).storeGoal).toEqual(goal);
    // Another student's goal is their own.
    expect((await summary(await t.loginStudent(t.students[1]!.studentId))).storeGoal).toBeNull();

    // Choosing another replaces it; an item in Estelecas keeps its currency.
    const book = await item({ name: 'Livro', currency: 'estelecas', price: 30 });
    expect((await choose(book)).json()).toEqual({ storeGoal: { itemId: book, name: 'Livro', price: 30, currency: 'estelecas' } });
    expect((await summary()).storeGoal?.itemId).toBe(book);

    const cleared = await choose(null);
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual({ storeGoal: null });
    expect((await summary()).storeGoal).toBeNull();
  });

  test('only an item the student may buy: active, with a price, open to their turma; anything else is 404 and changes nothing', async () => {
    const kept = await item({ name: 'Caderno' });
    expect((await choose(kept)).statusCode).toBe(200);
    const refused = [
      await item({ active: false }),
      await item({ name: 'Cinema da turma', category: 'turma', price: null, goal: 3000, deadline: '2030-12-15' }),
      await item({ turmas: ['3º EM - Turma D'] }),
      '00000000-0000-4000-8000-000000000000',
    ];
    for (const itemId of refused) {
      const response = await choose(itemId);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'store_item_not_found', message: 'Item não encontrado na loja' } });
    }
    expect((await summary()).storeGoal?.name).toBe('Caderno');
    // An item open to the student's own turma is one they may buy.
    expect((await choose(await item({ name: 'Estojo', turmas: [ana.grade] }))).statusCode).toBe(200);

    for (const payload of [{ itemId: 'abc' }, {}, { itemId: 42 }]) {
      const response = await t.request('PUT', '/me/store-goal', { payload, cookie: anaCookie });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await summary()).storeGoal?.name).toBe('Estojo');
  });

  test('an item deactivated since is no goal any more; one deleted takes the choice with it', async () => {
    const headphones = await item();
    await choose(headphones);
    await t.db.update(storeItems).set({ active: false }).where(eq(storeItems.id, headphones));
    expect((await summary()).storeGoal).toBeNull();
    await t.db.update(storeItems).set({ active: true }).where(eq(storeItems.id, headphones));
    expect((await summary()).storeGoal?.itemId).toBe(headphones);
    await t.db.delete(storeItems).where(eq(storeItems.id, headphones));
    expect((await summary()).storeGoal).toBeNull();
  });

  test('only a student may choose: the staff and a visitor are refused', async () => {
    const headphones = await item();
    expect((await t.request('PUT', '/me/store-goal', { payload: { itemId: headphones } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: '/api/me/store-goal', payload: { itemId: headphones } })).statusCode).toBe(401);
  });
});
