import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addStudents, createTestDatabase, type TestDatabase, type TestStudent } from '../test/test-app.ts';
import { directionOf, isStaffOperationType, isStoreType, LEDGER_TYPES, type LedgerDirection } from '../../shared/ledger-types.ts';
import { rowsOf } from './client.ts';
import { DIRECTION_SIGNS } from './ledger-direction.ts';
import { sqlState } from './sql-state.ts';
import { reconcile } from '../modules/ledger/reconciliation.service.ts';

/**
 * The ledger's directions are defined once in src/shared/ledger-types.ts and held in SQL by
 * ledger_type_sign(): the two must agree on every type, and SQL may know no other. A new type
 * fails here until its migration redefines the function.
 */
let database: TestDatabase;
let ana: TestStudent;
let bruno: TestStudent;
beforeAll(async () => {
  database = await createTestDatabase();
  const added = await addStudents(database.db, [
    { studentId: '3100001', name: 'Ana Beatriz Souza' },
    { studentId: '3100002', name: 'Bruno Henrique Lima' },
  ]);
  ana = added[0]!;
  bruno = added[1]!;
});
afterAll(async () => {
  await database.drop();
});

async function signOf(type: string): Promise<number | null> {
  const [row] = rowsOf<{ sign: number | null }>(await database.db.execute(sql`SELECT ledger_type_sign(${type}) AS sign`));
  return row!.sign === null ? null : Number(row!.sign);
}

test('ledger_type_sign() gives every type of the shared definition its direction, and a text that is no type none', async () => {
  for (const type of LEDGER_TYPES) expect(await signOf(type), type).toBe(DIRECTION_SIGNS[directionOf(type)]);
  expect(await signOf('not_a_ledger_type')).toBeNull();
});

test("ledger_type_spending() counts exactly the Loja's types as spending: what lowers a balance spends, a refund gives back", async () => {
  for (const type of LEDGER_TYPES) {
    const [row] = rowsOf<{ spending: number; award: boolean; removal: boolean }>(
      await database.db.execute(
        sql`SELECT ledger_type_spending(${type}) AS spending, ledger_type_is_award(${type}, 1) AS award, ledger_type_is_award(${type}, -1) AS removal`,
      ),
    );
    const direction = directionOf(type);
    expect(Number(row!.spending), type).toBe(isStoreType(type) ? (direction === 'lowers' ? 1 : -1) : 0);
    expect([row!.award, row!.removal], type).toEqual([
      isStaffOperationType(type) && direction === 'raises',
      isStaffOperationType(type) && direction === 'lowers',
    ]);
  }
});

test('SQL knows no ledger type the shared definition lacks', async () => {
  const [definition] = rowsOf<{ source: string }>(
    await database.db.execute(sql`
      SELECT p.prosrc AS source FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
       WHERE n.nspname = current_schema() AND p.proname = 'ledger_type_sign'`),
  );
  const named = [...definition!.source.matchAll(/'([^']*)'/g)].map((match) => match[1]);
  expect(new Set(named)).toEqual(new Set(LEDGER_TYPES));
});

type FixedDirection = Exclude<LedgerDirection, 'reverses'>;
/** The parties a row of each direction has: only a recipient, only a sender, or both. */
const PARTIES: Record<FixedDirection, () => { from: string | null; to: string | null }> = {
  raises: () => ({ from: null, to: ana.id }),
  lowers: () => ({ from: ana.id, to: null }),
  moves: () => ({ from: ana.id, to: bruno.id }),
};

async function insertRow(
  type: string,
  parties: { from: string | null; to: string | null },
  reversal: { of: string; reason: string | null } | null = null,
): Promise<string | undefined> {
  try {
    await database.db.execute(sql`
      INSERT INTO ledger_entries (currency, type, amount, description, from_student_id, to_student_id, actor_kind, actor_name,
                                  reverses_entry_id, reversal_reason)
      VALUES ('meritus', ${type}, 1, 'Direção', ${parties.from}, ${parties.to}, 'system', 'Teste', ${reversal?.of ?? null},
              ${reversal?.reason ?? null})`);
    return undefined;
  } catch (error) {
    return sqlState(error);
  }
}

test("the ledger's CHECK takes each type's parties from its direction, and refuses a type it does not know", async () => {
  for (const type of LEDGER_TYPES) {
    const direction = directionOf(type);
    if (direction === 'reverses') continue;
    expect(await insertRow(type, PARTIES[direction]()), type).toBeUndefined();
    for (const other of ['raises', 'lowers', 'moves'] as const) {
      if (other !== direction) expect(await insertRow(type, PARTIES[other]()), `${type} as ${other}`).toBe('23514');
    }
  }
  for (const parties of Object.values(PARTIES)) expect(await insertRow('not_a_ledger_type', parties())).toBe('23514');
});

async function someEntryIds(count: number): Promise<string[]> {
  return rowsOf<{ id: string }>(
    await database.db.execute(sql`
      INSERT INTO ledger_entries (currency, type, amount, description, to_student_id, actor_kind, actor_name)
      SELECT 'meritus', 'reward', 1, 'A estornar', ${ana.id}, 'system', 'Teste' FROM generate_series(1, ${count})
      RETURNING id`),
  ).map((row) => row.id);
}

test('a reversal takes any parties of a row, swapped, always with the row it reverses and a reason, and only once', async () => {
  const [first, second, third, fourth] = await someEntryIds(4);
  for (const [index, parties] of Object.values(PARTIES).entries()) {
    expect(await insertRow('reversal', parties(), { of: [first, second, third][index]!, reason: 'Engano' })).toBeUndefined();
  }
  expect(await insertRow('reversal', PARTIES.lowers(), { of: first!, reason: 'De novo' }), 'twice').toBe('23505');
  expect(await insertRow('reversal', PARTIES.lowers()), 'no row reversed').toBe('23514');
  expect(await insertRow('reversal', PARTIES.lowers(), { of: fourth!, reason: null }), 'no reason').toBe('23514');
  expect(await insertRow('reversal', { from: null, to: null }, { of: fourth!, reason: 'Engano' }), 'no party').toBe('23514');
  expect(await insertRow('reward', PARTIES.raises(), { of: fourth!, reason: 'Engano' }), 'an award naming a row').toBe('23514');
});

test('reconciliation names the broken rules of a row in pt-BR, found by its direction', async () => {
  // Only a ledger without its CHECKs (damaged, or restored by hand) can hold such rows.
  await database.db.execute(
    sql`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_parties_match_type, DROP CONSTRAINT ledger_amount_positive`,
  );
  const ids = rowsOf<{ id: string; type: string }>(
    await database.db.execute(sql`
      INSERT INTO ledger_entries (currency, type, amount, description, from_student_id, to_student_id, actor_kind, actor_name)
      VALUES ('meritus', 'reward', 0, 'Zero', NULL, ${ana.id}, 'system', 'Teste'),
             ('meritus', 'transfer', 5, 'Para si', ${ana.id}, ${ana.id}, 'system', 'Teste'),
             ('meritus', 'penalty', 5, 'Ao contrário', NULL, ${ana.id}, 'system', 'Teste')
      RETURNING id, type`),
  );
  const problems = new Map(
    (await reconcile(database.db)).flatMap((found) => (found.kind === 'invalid_entry' ? [[found.entryId, found.problem] as const] : [])),
  );
  expect(Object.fromEntries(ids.map((row) => [row.type, problems.get(row.id)]))).toEqual({
    reward: 'valor não positivo',
    transfer: 'transferência sem remetente e destinatário distintos',
    penalty: 'partes incompatíveis com o tipo',
  });
});
