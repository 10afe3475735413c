import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await t.loginStudent('3000001');
});
afterAll(async () => t.close());

test('paging never skips or repeats rows written within the same millisecond', async () => {
  const [ana] = t.students;
  // Seven rows: five inside one millisecond (different microseconds), two sharing one instant.
  const instants = ['.123100', '.123200', '.123300', '.123400', '.123500', '.200000', '.200000'];
  for (const [i, fraction] of instants.entries()) {
    await t.db.execute(sql`
      INSERT INTO ledger_entries (currency, type, amount, description, to_student_id, actor_kind, actor_name, created_at)
      VALUES ('meritus', 'reward', ${i + 1}, ${`linha ${i + 1}`}, ${ana!.id}, 'admin', 'Prof.', ${`2026-03-02 10:00:00${fraction}+00`}::timestamptz)`);
  }
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const url: string = `/api/me/operations?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
    const page = (await t.app.inject({ url, headers: { cookie } })).json();
    seen.push(...page.items.map((item: { description: string }) => item.description));
    cursor = page.nextCursor;
  } while (cursor);
  expect(seen).toHaveLength(7);
  expect(new Set(seen).size).toBe(7);
  expect(seen.slice(2)).toEqual(['linha 5', 'linha 4', 'linha 3', 'linha 2', 'linha 1']);
});

test('a tampered cursor is a 400 with a message, not a 500', async () => {
  const bad = Buffer.from('ontem|nada').toString('base64url');
  const response = await t.app.inject({ url: `/api/me/operations?cursor=${bad}`, headers: { cookie } });
  expect(response.statusCode).toBe(400);
  expect(response.json().error.message).toBe('Dados inválidos');
});

test('a query the route refuses names each field at fault, and only those', async () => {
  const response = await t.app.inject({ url: '/api/me/operations?limit=0&kind=todas&currency=meritus', headers: { cookie } });
  expect(response.statusCode).toBe(400);
  expect(response.json().error).toEqual({
    code: 'validation',
    message: 'Dados inválidos',
    fields: { kind: 'Dados inválidos', limit: 'Dados inválidos' },
  });
});
